package io.gfxstats.daemon.metrics;

import com.sun.net.httpserver.Authenticator;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpPrincipal;
import com.sun.net.httpserver.HttpsConfigurator;
import io.gfxstats.rpc.BearerToken;
import io.grpc.netty.shaded.io.netty.handler.ssl.JdkSslContext;
import io.grpc.netty.shaded.io.netty.handler.ssl.SslContext;
import io.grpc.netty.shaded.io.netty.handler.ssl.SslContextBuilder;
import io.grpc.netty.shaded.io.netty.handler.ssl.SslProvider;
import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;

/**
 * Serves a registry at {@code /metrics} with the Prometheus client's HTTP server: plain HTTP on
 * loopback, HTTPS with the daemon's TCP certificate and key when they are configured, and the
 * TCP bearer token checked on every request when a token file is configured (the config
 * requires both off loopback).
 *
 * <p>The JDK server it runs on reads a request's headers on an executor thread and waits for
 * them without limit by default, so two connections sending a byte now and then (slowloris)
 * would hold every thread. {@link #limitSlowPeers()} bounds that through the JDK server's own
 * settings: a request must arrive within {@value #MAX_REQUEST_SECONDS} s and its response be
 * taken within {@value #MAX_RESPONSE_SECONDS} s, connections are capped and idle ones dropped;
 * there is a thread for every connection the server admits (started on demand, ended when idle),
 * so a trickling connection holds only its own thread: a peer must hold all
 * {@value #MAX_CONNECTIONS} connections, reopening them every few seconds, to delay a scrape.
 * The JDK server offers no per-peer limit (it admits connections before any code of ours runs).
 */
public final class MetricsServer implements AutoCloseable {
    static final int MAX_REQUEST_SECONDS = 5;
    static final int MAX_RESPONSE_SECONDS = 30;
    static final int MAX_CONNECTIONS = 64;

    private final HTTPServer server;
    private final ExecutorService executor;
    private final boolean tls;

    private MetricsServer(HTTPServer server, ExecutorService executor, boolean tls) {
        this.server = server;
        this.executor = executor;
        this.tls = tls;
    }

    /**
     * @param cert      PEM certificate chain, or null for plain HTTP
     * @param key       PKCS#8 PEM private key, or null
     * @param tokenFile bearer token scrapers must send, or null for none
     */
    public static MetricsServer start(PrometheusRegistry registry, String host, int port, Path cert, Path key,
                                      Path tokenFile) throws IOException {
        BearerToken token = tokenFile == null ? null : BearerToken.fromFile(tokenFile);
        limitSlowPeers();
        // A thread waits for as long as a peer takes to send its request (up to MAX_REQUEST_SECONDS):
        // one per admitted connection, so slow peers never queue a scrape behind them.
        ThreadPoolExecutor executor = new ThreadPoolExecutor(MAX_CONNECTIONS,
                MAX_CONNECTIONS, 10, TimeUnit.SECONDS, new LinkedBlockingQueue<>(),
                r -> {
                    Thread t = new Thread(r, "gfxstatsd-metrics");
                    t.setDaemon(true);
                    return t;
                });
        executor.allowCoreThreadTimeOut(true);
        try {
            HTTPServer.Builder b = HTTPServer.builder().hostname(host).port(port).registry(registry)
                    .executorService(executor);
            if (cert != null) {
                b.httpsConfigurator(new HttpsConfigurator(sslContext(cert, key)));
            }
            if (token != null) {
                b.authenticator(new TokenAuthenticator(token));
            }
            return new MetricsServer(b.buildAndStart(), executor, cert != null);
        } catch (IOException | RuntimeException e) {
            executor.shutdownNow();
            throw e;
        }
    }

    /**
     * The JDK HTTP server's limits (system properties it reads once, when first used). An
     * operator's own -D setting wins.
     */
    static void limitSlowPeers() {
        defaultProperty("sun.net.httpserver.maxReqTime", Integer.toString(MAX_REQUEST_SECONDS));
        defaultProperty("sun.net.httpserver.maxRspTime", Integer.toString(MAX_RESPONSE_SECONDS));
        defaultProperty("jdk.httpserver.maxConnections", Integer.toString(MAX_CONNECTIONS));
        defaultProperty("sun.net.httpserver.maxIdleConnections", "16");
        defaultProperty("sun.net.httpserver.idleInterval", "10");
        defaultProperty("sun.net.httpserver.maxReqHeaders", "64");
        defaultProperty("sun.net.httpserver.maxReqHeaderSize", "16384");
    }

    private static void defaultProperty(String key, String value) {
        if (System.getProperty(key) == null) {
            System.setProperty(key, value);
        }
    }

    private static SSLContext sslContext(Path cert, Path key) throws IOException {
        try {
            SslContext ctx = SslContextBuilder.forServer(cert.toFile(), key.toFile()).sslProvider(SslProvider.JDK)
                    .build();
            return ((JdkSslContext) ctx).context();
        } catch (IOException | RuntimeException e) {
            throw new IOException("cannot load TLS certificate " + cert + " with key " + key
                    + " for the metrics server (PEM certificate and PKCS#8 PEM key expected): " + e.getMessage(), e);
        }
    }

    public int port() {
        return server.getPort();
    }

    public boolean tls() {
        return tls;
    }

    @Override
    public void close() {
        server.close();
        executor.shutdownNow();
    }

    /** Accepts a request carrying the token as {@code Authorization: Bearer ...}; 401 otherwise. */
    private static final class TokenAuthenticator extends Authenticator {
        private final BearerToken token;

        TokenAuthenticator(BearerToken token) {
            this.token = token;
        }

        @Override
        public Result authenticate(HttpExchange exchange) {
            if (token.matchesHeader(exchange.getRequestHeaders().getFirst("Authorization"))) {
                return new Success(new HttpPrincipal("scraper", "gfxstats"));
            }
            exchange.getResponseHeaders().set("WWW-Authenticate", "Bearer realm=\"gfxstats\"");
            return new Failure(401);
        }
    }
}
