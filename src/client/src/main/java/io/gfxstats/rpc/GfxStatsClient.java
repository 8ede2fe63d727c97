package io.gfxstats.rpc;

import com.google.protobuf.ByteString;
import io.gfxstats.rpc.v1.DumpChunk;
import io.gfxstats.rpc.v1.DumpRequest;
import io.gfxstats.rpc.v1.GfxStatsGrpc;
import io.gfxstats.rpc.v1.HealthRequest;
import io.gfxstats.rpc.v1.HealthResponse;
import io.gfxstats.rpc.v1.LiveSnapshot;
import io.gfxstats.rpc.v1.PullRequest;
import io.gfxstats.rpc.v1.PullResponse;
import io.gfxstats.rpc.v1.RegisterRequest;
import io.gfxstats.rpc.v1.ScenesRequest;
import io.gfxstats.rpc.v1.ScenesResponse;
import io.gfxstats.rpc.v1.WatchRequest;
import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientInterceptors;
import io.grpc.Context;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.GrpcSslContexts;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.netty.channel.ChannelOption;
import io.grpc.netty.shaded.io.netty.channel.EventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollDomainSocketChannel;
import io.grpc.netty.shaded.io.netty.channel.unix.DomainSocketAddress;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.MetadataUtils;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Iterator;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;
import javax.net.ssl.SSLException;

/**
 * A connection to one daemon. The unary calls and Dump have a deadline ({@link ClientOptions});
 * the long-lived streams (Register, Watch, FeedDisplayFrames) last as long as the caller wants
 * (docs/grpc-api.md, "Deadlines"). Failures come back as {@link GfxStatsClientException} with a one-line message.
 *
 * <pre>{@code
 * try (GfxStatsClient client = GfxStatsClient.unix(socket)) {
 *     client.dump(DumpRequest.getDefaultInstance(), System.out);
 * }
 * }</pre>
 */
public final class GfxStatsClient implements AutoCloseable {
    /** Pull answers are single messages; they grow with the number of packages. */
    private static final int MAX_RESPONSE_BYTES = 64 * 1024 * 1024;

    private final ManagedChannel channel;
    private final Channel calls;
    private final EventLoopGroup ownGroup;
    private final Path socket;
    private final String target;
    private final ClientOptions options;

    private GfxStatsClient(ManagedChannel channel, Channel calls, EventLoopGroup ownGroup, Path socket, String target,
            ClientOptions options) {
        this.channel = channel;
        this.calls = calls;
        this.ownGroup = ownGroup;
        this.socket = socket;
        this.target = target;
        this.options = options;
    }

    public static GfxStatsClient unix(Path socket) {
        return unix(socket, ClientOptions.DEFAULTS);
    }

    /** A client of the daemon listening on {@code socket}. Connects lazily, on the first call. */
    public static GfxStatsClient unix(Path socket, ClientOptions options) {
        Path path = socket.toAbsolutePath().normalize();
        EventLoopGroup group = EpollGroups.create(1, "gfxstats-client");
        ManagedChannel channel = NettyChannelBuilder.forAddress(new DomainSocketAddress(path.toString()))
                .eventLoopGroup(group)
                .channelType(EpollDomainSocketChannel.class)
                // Unix sockets have no keepalive; without this Netty warns on every connection.
                .withOption(ChannelOption.SO_KEEPALIVE, null)
                .usePlaintext()
                .overrideAuthority("localhost")
                .keepAliveTime(options.keepAliveTime().toMillis(), TimeUnit.MILLISECONDS)
                .keepAliveTimeout(10, TimeUnit.SECONDS)
                .maxInboundMessageSize(MAX_RESPONSE_BYTES)
                .build();
        return new GfxStatsClient(channel, channel, group, path, "unix:" + path, options);
    }

    public static GfxStatsClient tcp(String host, int port, Path trustCertificate, String token) {
        return tcp(host, port, trustCertificate, token, ClientOptions.DEFAULTS);
    }

    /**
     * A client of a daemon's TCP listener.
     *
     * @param trustCertificate PEM certificate (or CA) to trust for TLS; {@code null} for plaintext
     * @param token bearer token sent on every call, or {@code null}
     * @throws IllegalArgumentException when a token would travel in plaintext to a non-loopback host
     */
    public static GfxStatsClient tcp(String host, int port, Path trustCertificate, String token,
            ClientOptions options) {
        Objects.requireNonNull(host, "host");
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("port out of range 1..65535: " + port);
        }
        BearerToken bearer = token == null ? null : BearerToken.of(token);
        if (bearer != null && trustCertificate == null && !isLoopback(host)) {
            throw new IllegalArgumentException("refusing to send the token in plaintext to " + host
                    + "; give the daemon's TLS certificate to trust");
        }
        NettyChannelBuilder builder = NettyChannelBuilder.forAddress(host, port)
                .keepAliveTime(options.keepAliveTime().toMillis(), TimeUnit.MILLISECONDS)
                .keepAliveTimeout(10, TimeUnit.SECONDS)
                .maxInboundMessageSize(MAX_RESPONSE_BYTES);
        if (trustCertificate != null) {
            try {
                builder.sslContext(GrpcSslContexts.forClient().trustManager(trustCertificate.toFile()).build());
            } catch (SSLException | IllegalArgumentException e) {
                throw new IllegalArgumentException("cannot use " + trustCertificate + " as a trusted certificate: "
                        + e.getMessage(), e);
            }
        } else {
            builder.usePlaintext();
        }
        ManagedChannel channel = builder.build();
        Channel calls = channel;
        if (bearer != null) {
            Metadata headers = new Metadata();
            headers.put(BearerToken.AUTHORIZATION, bearer.headerValue());
            calls = ClientInterceptors.intercept(channel, MetadataUtils.newAttachHeadersInterceptor(headers));
        }
        return new GfxStatsClient(channel, calls, null, null, host + ":" + port, options);
    }

    /** Where this client connects, for messages. */
    public String target() {
        return target;
    }

    /**
     * Streams the dump into {@code out} as it arrives; returns the number of bytes written. On a
     * failure part of the dump may already be written. An exception from {@code out} cancels the
     * call and is rethrown.
     */
    public long dump(DumpRequest request, OutputStream out) throws GfxStatsClientException, IOException {
        Duration deadline = options.dumpDeadline();
        Context.CancellableContext context = Context.current().withCancellation();
        Context previous = context.attach();
        try {
            Iterator<DumpChunk> chunks = GfxStatsGrpc.newBlockingStub(calls)
                    .withDeadlineAfter(deadline.toMillis(), TimeUnit.MILLISECONDS)
                    .dump(request);
            long written = 0;
            while (chunks.hasNext()) {
                ByteString data = chunks.next().getData();
                data.writeTo(out);
                written += data.size();
            }
            out.flush();
            return written;
        } catch (StatusRuntimeException e) {
            throw ClientErrors.translate(e, socket, target, deadline);
        } finally {
            context.detach(previous);
            // Stops the stream if we leave early (out failed): the daemon stops writing.
            context.cancel(null);
        }
    }

    /** The whole dump in memory (tests, small dumps). */
    public byte[] dumpBytes(DumpRequest request) throws GfxStatsClientException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            dump(request, out);
        } catch (IOException e) {
            throw new IllegalStateException("in-memory stream failed", e);
        }
        return out.toByteArray();
    }

    public PullResponse pull(PullRequest request) throws GfxStatsClientException {
        Duration deadline = options.pullDeadline();
        try {
            return GfxStatsGrpc.newBlockingStub(calls)
                    .withDeadlineAfter(deadline.toMillis(), TimeUnit.MILLISECONDS)
                    .pull(request);
        } catch (StatusRuntimeException e) {
            throw ClientErrors.translate(e, socket, target, deadline);
        }
    }

    public HealthResponse health() throws GfxStatsClientException {
        Duration deadline = options.healthDeadline();
        try {
            return GfxStatsGrpc.newBlockingStub(calls)
                    .withDeadlineAfter(deadline.toMillis(), TimeUnit.MILLISECONDS)
                    .health(HealthRequest.getDefaultInstance());
        } catch (StatusRuntimeException e) {
            throw ClientErrors.translate(e, socket, target, deadline);
        }
    }

    /** Scenes per (day, package, version, scene); the pull deadline applies. */
    public ScenesResponse scenes(ScenesRequest request) throws GfxStatsClientException {
        Duration deadline = options.pullDeadline();
        try {
            return GfxStatsGrpc.newBlockingStub(calls)
                    .withDeadlineAfter(deadline.toMillis(), TimeUnit.MILLISECONDS)
                    .scenes(request);
        } catch (StatusRuntimeException e) {
            throw ClientErrors.translate(e, socket, target, deadline);
        }
    }

    /**
     * Live snapshots every {@code request.interval_ms}, handed to {@code each} until it returns
     * false, {@code total} has passed (null: no limit) or the stream ends. Blocks the caller.
     */
    public void watch(WatchRequest request, Duration total, Predicate<LiveSnapshot> each)
            throws GfxStatsClientException {
        Context.CancellableContext context = Context.current().withCancellation();
        Context previous = context.attach();
        try {
            GfxStatsGrpc.GfxStatsBlockingStub stub = GfxStatsGrpc.newBlockingStub(calls);
            if (total != null) {
                stub = stub.withDeadlineAfter(total.toMillis(), TimeUnit.MILLISECONDS);
            }
            Iterator<LiveSnapshot> snapshots = stub.watch(request);
            while (snapshots.hasNext()) {
                if (!each.test(snapshots.next())) {
                    return;
                }
            }
        } catch (StatusRuntimeException e) {
            if (total != null && e.getStatus().getCode() == io.grpc.Status.Code.DEADLINE_EXCEEDED) {
                return;
            }
            throw ClientErrors.translate(e, socket, target, total == null ? Duration.ZERO : total);
        } finally {
            context.detach(previous);
            context.cancel(null);
        }
    }

    /**
     * Registers this process and waits (at most the register timeout) for its buffer. The call
     * then stays open, without deadline, until {@link ClientRegistration#close()}, this client's
     * {@link #close()}, the process's death or the daemon's.
     */
    public ClientRegistration register(RegisterRequest request) throws GfxStatsClientException {
        Duration timeout = options.registerTimeout();
        ClientRegistration registration = new ClientRegistration();
        ClientCalls.asyncServerStreamingCall(calls.newCall(GfxStatsGrpc.getRegisterMethod(), CallOptions.DEFAULT),
                request, registration.observer());
        try {
            registration.assignedFuture().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            return registration;
        } catch (ExecutionException e) {
            if (e.getCause() instanceof StatusRuntimeException) {
                throw ClientErrors.translate((StatusRuntimeException) e.getCause(), socket, target, timeout);
            }
            throw new IllegalStateException("registration failed", e.getCause());
        } catch (TimeoutException e) {
            registration.close();
            throw ClientErrors.translate(io.grpc.Status.DEADLINE_EXCEEDED
                    .withDescription("no buffer assigned").asRuntimeException(), socket, target, timeout);
        } catch (InterruptedException e) {
            registration.close();
            Thread.currentThread().interrupt();
            throw new GfxStatsClientException("interrupted while registering", io.grpc.Status.Code.CANCELLED, false, e);
        }
    }

    /**
     * Opens a compositor feed (compositor mode, docs/frametimeline.md): frames are sent in
     * batches of {@code batchSize} (1: each as it is given, what a live compositor wants).
     */
    public DisplayFrameFeed feedDisplayFrames(int batchSize) {
        DisplayFrameFeed feed = new DisplayFrameFeed(socket, target, batchSize);
        ClientCalls.asyncClientStreamingCall(calls.newCall(GfxStatsGrpc.getFeedDisplayFramesMethod(),
                CallOptions.DEFAULT), feed.observer());
        return feed;
    }

    /** Closes the connection (ending any open registration) and its threads. Bounded. */
    @Override
    public void close() {
        channel.shutdownNow();
        try {
            channel.awaitTermination(1, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (ownGroup != null) {
            ownGroup.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(2, TimeUnit.SECONDS);
        }
    }

    private static boolean isLoopback(String host) {
        try {
            return InetAddress.getByName(host).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }
}
