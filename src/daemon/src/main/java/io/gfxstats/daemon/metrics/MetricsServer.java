package io.gfxstats.daemon.metrics;

import io.gfxstats.daemon.log.RateLimitedLog;
import io.gfxstats.rpc.BearerToken;
import io.grpc.netty.shaded.io.netty.bootstrap.ServerBootstrap;
import io.grpc.netty.shaded.io.netty.buffer.ByteBuf;
import io.grpc.netty.shaded.io.netty.buffer.ByteBufOutputStream;
import io.grpc.netty.shaded.io.netty.buffer.Unpooled;
import io.grpc.netty.shaded.io.netty.channel.Channel;
import io.grpc.netty.shaded.io.netty.channel.ChannelFutureListener;
import io.grpc.netty.shaded.io.netty.channel.ChannelHandlerContext;
import io.grpc.netty.shaded.io.netty.channel.ChannelInboundHandlerAdapter;
import io.grpc.netty.shaded.io.netty.channel.ChannelInitializer;
import io.grpc.netty.shaded.io.netty.channel.ChannelOption;
import io.grpc.netty.shaded.io.netty.channel.ChannelPipeline;
import io.grpc.netty.shaded.io.netty.channel.EventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.MultiThreadIoEventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.SimpleChannelInboundHandler;
import io.grpc.netty.shaded.io.netty.channel.nio.NioIoHandler;
import io.grpc.netty.shaded.io.netty.channel.socket.SocketChannel;
import io.grpc.netty.shaded.io.netty.channel.socket.nio.NioServerSocketChannel;
import io.grpc.netty.shaded.io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.grpc.netty.shaded.io.netty.handler.codec.http.FullHttpRequest;
import io.grpc.netty.shaded.io.netty.handler.codec.http.FullHttpResponse;
import io.grpc.netty.shaded.io.netty.handler.codec.http.HttpHeaderNames;
import io.grpc.netty.shaded.io.netty.handler.codec.http.HttpHeaderValues;
import io.grpc.netty.shaded.io.netty.handler.codec.http.HttpMethod;
import io.grpc.netty.shaded.io.netty.handler.codec.http.HttpObjectAggregator;
import io.grpc.netty.shaded.io.netty.handler.codec.http.HttpResponseStatus;
import io.grpc.netty.shaded.io.netty.handler.codec.http.HttpServerCodec;
import io.grpc.netty.shaded.io.netty.handler.codec.http.HttpUtil;
import io.grpc.netty.shaded.io.netty.handler.codec.http.HttpVersion;
import io.grpc.netty.shaded.io.netty.handler.codec.http.QueryStringDecoder;
import io.grpc.netty.shaded.io.netty.handler.ssl.SslContext;
import io.grpc.netty.shaded.io.netty.handler.ssl.SslContextBuilder;
import io.grpc.netty.shaded.io.netty.handler.ssl.SslProvider;
import io.grpc.netty.shaded.io.netty.handler.timeout.WriteTimeoutHandler;
import io.grpc.netty.shaded.io.netty.util.concurrent.ScheduledFuture;
import io.prometheus.metrics.exporter.common.PrometheusHttpExchange;
import io.prometheus.metrics.exporter.common.PrometheusHttpRequest;
import io.prometheus.metrics.exporter.common.PrometheusHttpResponse;
import io.prometheus.metrics.exporter.common.PrometheusScrapeHandler;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Collections;
import java.util.Enumeration;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Serves a registry at {@code /metrics} (and {@code /-/healthy}) on Netty's HTTP/1.1 codec: plain
 * HTTP on loopback, HTTPS with the daemon's TCP certificate and key when they are configured, the
 * TCP bearer token checked on every request when a token file is configured, and the users of
 * {@code metrics.access} only.
 *
 * <p>Why not the Prometheus client's own server: it runs on the JDK server, which admits a
 * connection before any code of ours sees it, so nothing there can cap one peer's connections.
 * Here every connection is counted against its peer (its uid for a loopback peer, read from
 * /proc/net/tcp, else its address) and against the whole listener before anything is read. The
 * event loop never blocks on a peer: a trickling connection costs a socket and a timer, not a
 * thread, and is closed when its request is not complete within {@value #REQUEST_SECONDS} s. So a
 * peer holding all its {@value #MAX_PER_PEER} connections cannot delay another peer's scrape.
 * When a peer that holds all its connections opens one more, the one of them that has waited
 * longest between requests is closed to make room (a scraper that keeps connections alive is not
 * locked out by its own idle ones); only when none is waiting is the new one refused.
 *
 * <p>The exposition itself is the Prometheus client's {@link PrometheusScrapeHandler}: the same
 * content negotiation (text 0.0.4, OpenMetrics or protobuf on Accept), gzip and {@code name[]}
 * filters as its HTTP server, byte for byte.
 */
public final class MetricsServer implements AutoCloseable {
    static final int REQUEST_SECONDS = 5;
    static final int IDLE_SECONDS = 30;
    static final int RESPONSE_SECONDS = 30;
    static final int MAX_CONNECTIONS = 64;
    static final int MAX_PER_PEER = 8;
    static final int MAX_HEADER_BYTES = 16 * 1024;
    static final int MAX_REQUEST_BYTES = 64 * 1024;
    private static final byte[] HEALTHY = "Exporter is healthy.\n".getBytes(StandardCharsets.UTF_8);

    private final EventLoopGroup loop;
    private final ExecutorService scrapes;
    private final Channel channel;
    private final boolean tls;

    private MetricsServer(EventLoopGroup loop, ExecutorService scrapes, Channel channel, boolean tls) {
        this.loop = loop;
        this.scrapes = scrapes;
        this.channel = channel;
        this.tls = tls;
    }

    /**
     * @param cert      PEM certificate chain, or null for plain HTTP
     * @param key       PKCS#8 PEM private key, or null
     * @param tokenFile bearer token scrapers must send, or null for none
     */
    public static MetricsServer start(PrometheusRegistry registry, String host, int port, Path cert, Path key,
                                      Path tokenFile, MetricsAccess access) throws IOException {
        BearerToken token = tokenFile == null ? null : BearerToken.fromFile(tokenFile);
        SslContext ssl = cert == null ? null : sslContext(cert, key);
        // One event-loop thread does all the socket work (it never waits for a peer); the
        // exposition is written on its own thread so a large scrape does not stall the loop.
        EventLoopGroup loop = new MultiThreadIoEventLoopGroup(1,
                (ThreadFactory) r -> daemonThread(r, "gfxstatsd-metrics-io"), NioIoHandler.newFactory());
        ExecutorService scrapes = Executors.newSingleThreadExecutor(r -> daemonThread(r, "gfxstatsd-metrics"));
        Listener listener = new Listener(new PrometheusScrapeHandler(registry), scrapes, token, ssl, access,
                LoopbackPeers.system());
        try {
            Channel ch = new ServerBootstrap().group(loop).channel(NioServerSocketChannel.class)
                    .option(ChannelOption.SO_BACKLOG, 128)
                    .childHandler(listener)
                    .bind(new InetSocketAddress(host, port)).syncUninterruptibly().channel();
            return new MetricsServer(loop, scrapes, ch, ssl != null);
        } catch (RuntimeException e) {
            loop.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS);
            scrapes.shutdownNow();
            if (e.getCause() instanceof IOException io) {
                throw io;
            }
            throw new IOException(e.getMessage(), e);
        }
    }

    private static Thread daemonThread(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
    }

    private static SslContext sslContext(Path cert, Path key) throws IOException {
        try {
            return SslContextBuilder.forServer(cert.toFile(), key.toFile()).sslProvider(SslProvider.JDK).build();
        } catch (IOException | RuntimeException e) {
            throw new IOException("cannot load TLS certificate " + cert + " with key " + key
                    + " for the metrics server (PEM certificate and PKCS#8 PEM key expected): " + e.getMessage(), e);
        }
    }

    public int port() {
        return ((InetSocketAddress) channel.localAddress()).getPort();
    }

    public boolean tls() {
        return tls;
    }

    @Override
    public void close() {
        channel.close().syncUninterruptibly();
        loop.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        scrapes.shutdownNow();
    }

    /** Admits each connection (or not) and builds its pipeline. */
    private static final class Listener extends ChannelInitializer<SocketChannel> {
        private final PrometheusScrapeHandler exposition;
        private final ExecutorService scrapes;
        private final BearerToken token;
        private final SslContext ssl;
        private final MetricsAccess access;
        private final LoopbackPeers peers;
        private final AtomicInteger open = new AtomicInteger();
        private final Map<String, PeerConnections> perPeer = new ConcurrentHashMap<>();
        private final RateLimitedLog refusals = new RateLimitedLog("refused metrics connections");
        private final RateLimitedLog denials = new RateLimitedLog("refused scrapes");

        Listener(PrometheusScrapeHandler exposition, ExecutorService scrapes, BearerToken token, SslContext ssl,
                 MetricsAccess access, LoopbackPeers peers) {
            this.exposition = exposition;
            this.scrapes = scrapes;
            this.token = token;
            this.ssl = ssl;
            this.access = access;
            this.peers = peers;
        }

        @Override
        protected void initChannel(SocketChannel ch) {
            InetSocketAddress remote = ch.remoteAddress();
            OptionalInt uid = peers.uid(remote);
            String peer = uid.isPresent() ? "uid " + Integer.toUnsignedString(uid.getAsInt())
                    : remote.getAddress().getHostAddress();
            PeerConnections mine = perPeer.computeIfAbsent(peer, p -> new PeerConnections());
            if (mine.open >= MAX_PER_PEER) {
                // A scraper that keeps connections alive (one per target, one per retry) can hold
                // its whole share idle; its newest connection is the one it wants answered. A
                // trickling request is never idle, so this frees nothing for a slowloris peer.
                Deadline idlest = mine.longestIdle();
                if (idlest == null) {
                    refuse(ch, peer, "it already has " + MAX_PER_PEER + " open (the limit per peer)");
                    return;
                }
                if (idlest.release()) {
                    open.decrementAndGet();
                    mine.open--;
                }
                idlest.close();
            }
            if (open.get() >= MAX_CONNECTIONS) {
                refuse(ch, peer, "the listener already has " + MAX_CONNECTIONS + " open (the limit)");
                return;
            }
            Deadline deadline = new Deadline(mine);
            open.incrementAndGet();
            mine.open++;
            ch.closeFuture().addListener(f -> {
                if (deadline.release()) {
                    open.decrementAndGet();
                    if (--mine.open == 0) {
                        perPeer.remove(peer, mine);
                    }
                }
            });
            ChannelPipeline p = ch.pipeline();
            p.addLast(deadline);
            if (ssl != null) {
                p.addLast(ssl.newHandler(ch.alloc()));
            }
            p.addLast(new WriteTimeoutHandler(RESPONSE_SECONDS));
            p.addLast(new HttpServerCodec(4096, MAX_HEADER_BYTES, 8192));
            p.addLast(new HttpObjectAggregator(MAX_REQUEST_BYTES));
            p.addLast(new Exchange(this, deadline, peer, access.allows(uid)));
        }

        private void refuse(SocketChannel ch, String peer, String why) {
            refusals.warn("metrics: closed a connection from " + peer + ": " + why);
            ch.close();
        }
    }

    /**
     * One peer's open connections, and those of them waiting between requests, longest waiting
     * first. Touched only on the listener's single event-loop thread.
     */
    private static final class PeerConnections {
        int open;
        private final LinkedHashSet<Deadline> idle = new LinkedHashSet<>();

        void idle(Deadline d) {
            idle.remove(d);
            idle.add(d);
        }

        void busy(Deadline d) {
            idle.remove(d);
        }

        Deadline longestIdle() {
            return idle.isEmpty() ? null : idle.iterator().next();
        }
    }

    /**
     * Closes a connection whose request is not complete within {@value #REQUEST_SECONDS} s of its
     * first byte, or that sends nothing for {@value #IDLE_SECONDS} s between requests. The first
     * request must come within {@value #REQUEST_SECONDS} s of connecting.
     */
    private static final class Deadline extends ChannelInboundHandlerAdapter {
        private final PeerConnections peer;
        private ChannelHandlerContext context;
        private ScheduledFuture<?> timer;
        private boolean reading;
        private boolean busy;
        private boolean released;

        Deadline(PeerConnections peer) {
            this.peer = peer;
        }

        @Override
        public void channelActive(ChannelHandlerContext ctx) throws Exception {
            context = ctx;
            reading = true;
            arm(ctx, REQUEST_SECONDS);
            super.channelActive(ctx);
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
            if (!reading && !busy) {
                reading = true;
                peer.busy(this);
                arm(ctx, REQUEST_SECONDS);
            }
            super.channelRead(ctx, msg);
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) throws Exception {
            cancel();
            peer.busy(this);
            super.channelInactive(ctx);
        }

        /** True once: the first caller gives this connection's place back to its peer and the listener. */
        boolean release() {
            boolean first = !released;
            released = true;
            return first;
        }

        /** Hangs up, to make room for a newer connection of the same peer. */
        void close() {
            peer.busy(this);
            cancel();
            if (context != null) {
                context.channel().close();
            }
        }

        /** A whole request arrived: the response write timeout applies from here. */
        void requestComplete() {
            reading = false;
            busy = true;
            cancel();
        }

        /** The response went out: wait for the next request, for a while. */
        void responded(ChannelHandlerContext ctx) {
            busy = false;
            reading = false;
            peer.idle(this);
            arm(ctx, IDLE_SECONDS);
        }

        private void arm(ChannelHandlerContext ctx, int seconds) {
            cancel();
            timer = ctx.executor().schedule(() -> {
                ctx.channel().close();
            }, seconds, TimeUnit.SECONDS);
        }

        private void cancel() {
            if (timer != null) {
                timer.cancel(false);
                timer = null;
            }
        }
    }

    /** One connection's requests, answered in turn. */
    private static final class Exchange extends SimpleChannelInboundHandler<FullHttpRequest> {
        private final Listener listener;
        private final Deadline deadline;
        private final String peer;
        private final boolean allowed;

        Exchange(Listener listener, Deadline deadline, String peer, boolean allowed) {
            this.listener = listener;
            this.deadline = deadline;
            this.peer = peer;
            this.allowed = allowed;
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
            deadline.requestComplete();
            if (request.decoderResult().isFailure()) {
                // Too long a header or line, or not HTTP: answer once and hang up.
                respond(ctx, request, plain(HttpResponseStatus.BAD_REQUEST, "bad request\n"), false);
                return;
            }
            if (!allowed) {
                listener.denials.warn("metrics: refused a scrape from " + peer + ": not allowed by metrics.access="
                        + listener.access);
                respond(ctx, request, plain(HttpResponseStatus.FORBIDDEN,
                        "forbidden: this user may not scrape (metrics.access)\n"), false);
                return;
            }
            if (listener.token != null
                    && !listener.token.matchesHeader(request.headers().get(HttpHeaderNames.AUTHORIZATION))) {
                FullHttpResponse r = plain(HttpResponseStatus.UNAUTHORIZED, "");
                r.headers().set(HttpHeaderNames.WWW_AUTHENTICATE, "Bearer realm=\"gfxstats\"");
                respond(ctx, request, r, HttpUtil.isKeepAlive(request));
                return;
            }
            QueryStringDecoder uri = new QueryStringDecoder(request.uri());
            switch (uri.path()) {
                case "/-/healthy" -> {
                    FullHttpResponse r = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK,
                            Unpooled.wrappedBuffer(HEALTHY));
                    respond(ctx, request, r, HttpUtil.isKeepAlive(request));
                }
                case "/metrics" -> scrape(ctx, request, uri);
                default -> respond(ctx, request, plain(HttpResponseStatus.NOT_FOUND, "not found\n"),
                        HttpUtil.isKeepAlive(request));
            }
        }

        /** Writes the exposition off the event loop; no further request is read until it is sent. */
        private void scrape(ChannelHandlerContext ctx, FullHttpRequest request, QueryStringDecoder uri) {
            boolean keepAlive = HttpUtil.isKeepAlive(request);
            HttpMethod method = request.method();
            NettyExchange exchange = new NettyExchange(request.retain(), uri, ctx.alloc().buffer());
            ctx.channel().config().setAutoRead(false);
            try {
                listener.scrapes.execute(() -> {
                    if (!ctx.channel().isActive()) { // hung up while queued: skip the work, a hang-up must not cost a scrape
                        exchange.request.release();
                        exchange.body.release();
                        return;
                    }
                    try {
                        listener.exposition.handleRequest(exchange);
                    } catch (IOException | RuntimeException e) {
                        exchange.failed(e);
                    } finally {
                        exchange.request.release();
                    }
                    ctx.executor().execute(() -> {
                        ctx.channel().config().setAutoRead(true);
                        respond(ctx, method, exchange.response(), keepAlive);
                    });
                });
            } catch (java.util.concurrent.RejectedExecutionException shuttingDown) {
                exchange.request.release();
                exchange.body.release();
                ctx.close();
            }
        }

        private void respond(ChannelHandlerContext ctx, FullHttpRequest request, FullHttpResponse r,
                             boolean keepAlive) {
            respond(ctx, request.method(), r, keepAlive);
        }

        private void respond(ChannelHandlerContext ctx, HttpMethod method, FullHttpResponse r, boolean keepAlive) {
            if (!r.headers().contains(HttpHeaderNames.CONTENT_LENGTH)) {
                HttpUtil.setContentLength(r, r.content().readableBytes());
            }
            if (method.equals(HttpMethod.HEAD)) {
                r.content().clear();
            }
            if (keepAlive) {
                r.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE);
            } else {
                r.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
            }
            ctx.writeAndFlush(r).addListener((ChannelFutureListener) f -> {
                if (!f.isSuccess() || !keepAlive) {
                    f.channel().close();
                } else {
                    deadline.responded(ctx);
                }
            });
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            // A reset, a TLS handshake gone wrong, a write timeout: the peer's problem, not the daemon's.
            ctx.close();
        }

        private static FullHttpResponse plain(HttpResponseStatus status, String body) {
            FullHttpResponse r = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status,
                    Unpooled.copiedBuffer(body, StandardCharsets.UTF_8));
            if (!body.isEmpty()) {
                r.headers().set(HttpHeaderNames.CONTENT_TYPE, "text/plain; charset=utf-8");
            }
            return r;
        }
    }

    /** The Prometheus scrape handler's view of a request and the response it writes. */
    private static final class NettyExchange implements PrometheusHttpExchange, PrometheusHttpRequest,
            PrometheusHttpResponse {
        final FullHttpRequest request;
        final ByteBuf body;
        private final QueryStringDecoder uri;
        private final DefaultFullHttpResponse response;
        private int status = 200;
        private int contentLength = -1;

        NettyExchange(FullHttpRequest request, QueryStringDecoder uri, ByteBuf body) {
            this.request = request;
            this.uri = uri;
            this.body = body;
            this.response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK, body);
        }

        @Override
        public PrometheusHttpRequest getRequest() {
            return this;
        }

        @Override
        public PrometheusHttpResponse getResponse() {
            return this;
        }

        @Override
        public String getQueryString() {
            int q = request.uri().indexOf('?');
            return q < 0 ? null : request.uri().substring(q + 1);
        }

        @Override
        public Enumeration<String> getHeaders(String name) {
            return Collections.enumeration(request.headers().getAll(name));
        }

        @Override
        public String getMethod() {
            return request.method().name();
        }

        @Override
        public String getRequestPath() {
            return uri.path();
        }

        @Override
        public void setHeader(String name, String value) {
            response.headers().set(name, value);
        }

        @Override
        public OutputStream sendHeadersAndGetBody(int statusCode, int length) {
            status = statusCode;
            contentLength = length;
            return new ByteBufOutputStream(body);
        }

        @Override
        public void handleException(IOException e) throws IOException {
            throw e;
        }

        @Override
        public void handleException(RuntimeException e) {
            throw e;
        }

        @Override
        public void close() {
            // The response is sent by the event loop once the handler is done.
        }

        void failed(Exception e) {
            status = 500;
            body.clear();
            body.writeCharSequence("cannot write the exposition: " + e.getMessage() + "\n", StandardCharsets.UTF_8);
            response.headers().clear();
            response.headers().set(HttpHeaderNames.CONTENT_TYPE, "text/plain; charset=utf-8");
        }

        FullHttpResponse response() {
            response.setStatus(HttpResponseStatus.valueOf(status));
            if (contentLength > 0 && getMethod().equals("HEAD")) {
                HttpUtil.setContentLength(response, contentLength);
            }
            return response;
        }
    }
}
