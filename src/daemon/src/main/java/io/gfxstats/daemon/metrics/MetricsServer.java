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
import java.util.concurrent.Executors;
import javax.net.ssl.SSLContext;

/**
 * Serves a registry at {@code /metrics} with the Prometheus client's HTTP server: plain HTTP on
 * loopback, HTTPS with the daemon's TCP certificate and key when they are configured, and the
 * TCP bearer token checked on every request when a token file is configured (the config
 * requires both off loopback).
 */
public final class MetricsServer implements AutoCloseable {
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
        // Two threads: scrapes are rare and cheap; a slow scraper must not hold up the other.
        ExecutorService executor = Executors.newFixedThreadPool(2, r -> {
            Thread t = new Thread(r, "gfxstatsd-metrics");
            t.setDaemon(true);
            return t;
        });
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
