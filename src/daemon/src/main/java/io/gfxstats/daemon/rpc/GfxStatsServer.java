package io.gfxstats.daemon.rpc;

import io.gfxstats.daemon.log.RateLimitedLog;
import io.gfxstats.rpc.EpollGroups;
import io.grpc.Server;
import io.grpc.ServerInterceptors;
import io.grpc.netty.shaded.io.grpc.netty.InternalNettyServerCredentials;
import io.grpc.netty.shaded.io.grpc.netty.InternalProtocolNegotiator;
import io.grpc.netty.shaded.io.grpc.netty.InternalProtocolNegotiators;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.netty.shaded.io.netty.channel.ChannelOption;
import io.grpc.netty.shaded.io.netty.channel.EventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.epoll.Epoll;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollServerDomainSocketChannel;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollServerSocketChannel;
import io.grpc.netty.shaded.io.netty.channel.unix.DomainSocketAddress;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The daemon's gRPC endpoint: the Unix socket (always) and the TCP listener (when configured),
 * both serving one {@link GfxStatsService}.
 *
 * <pre>{@code
 * GfxStatsServer server = new GfxStatsServer(config, backend);
 * server.start();                 // throws ServerStartException with a one-line reason
 * Runtime.getRuntime().addShutdownHook(new Thread(server::stop));
 * server.blockUntilShutdown();
 * }</pre>
 */
public final class GfxStatsServer {
    private static final Logger LOG = LoggerFactory.getLogger(GfxStatsServer.class);
    /** Requests are small; anything bigger is a confused or hostile client. */
    private static final int MAX_REQUEST_BYTES = 64 * 1024;
    /** gRPC clients cannot ping more often than every 10 s; allow exactly that. */
    private static final long PERMIT_KEEPALIVE_SECONDS = 10;
    private static final long FORCED_STOP_MILLIS = 1000;

    private final ServerConfig config;
    private final GfxStatsService service;
    private final RateLimitedLog refusals = new RateLimitedLog("refused requests");
    private ConnectionLimits limits;
    private ConnectionLimits.Counter connections;
    private int ownerUid;
    private EventLoopGroup boss;
    private EventLoopGroup workers;
    private UnixSocketFile socketFile;
    private Server unixServer;
    private Server tcpServer;
    private boolean stopped;

    public GfxStatsServer(ServerConfig config, StatsBackend backend) {
        this.config = Objects.requireNonNull(config, "config");
        this.service = new GfxStatsService(backend, config.dumpChunkBytes(), config.maxConcurrentDumps(),
                config.maxDumpsPerPeer(), config.dumpStallTimeout());
    }

    /** Binds the Unix socket and, if enabled, the TCP listener. Nothing is left behind on failure. */
    public synchronized void start() throws ServerStartException {
        if (unixServer != null || stopped) {
            throw new IllegalStateException("server already started");
        }
        if (!Epoll.isAvailable()) {
            throw new ServerStartException("the epoll transport is unavailable on this system (Linux required): "
                    + Epoll.unavailabilityCause());
        }
        // Settings are checked before anything is created so that a bad config leaves no trace.
        TcpListener tcp = config.tcp().enabled() ? TcpListener.check(config.tcp()) : null;
        socketFile = UnixSocketFile.prepare(config.socket());
        try {
            ownerUid = UnixSocketFile.currentUid();
        } catch (IOException e) {
            throw new ServerStartException("cannot tell the daemon's own uid: " + Problems.describe(e), e);
        }
        limits = config.connections().fitTo(fdLimit());
        if (!limits.equals(config.connections())) {
            LOG.warn("connection limits lowered to {} (open-file limit {}): raise the limit (ulimit -n, LimitNOFILE=) "
                    + "to allow connections.max", limits, fdLimit());
        }
        connections = new ConnectionLimits.Counter(limits);
        boss = EpollGroups.create(1, "gfxstats-accept");
        workers = EpollGroups.create(2, "gfxstats-io");
        try {
            unixServer = startUnix();
            socketFile.bound();
            LOG.info("listening on unix {}", socketFile.path());
            if (tcp != null) {
                tcpServer = startTcp(tcp);
                LOG.info("listening on {}", tcp.describe(tcpPort()));
            }
        } catch (ServerStartException | RuntimeException e) {
            stop();
            throw e;
        }
    }

    private Server startUnix() throws ServerStartException {
        NettyServerBuilder builder = NettyServerBuilder
                .forAddress(new DomainSocketAddress(socketFile.path().toString()),
                        InternalNettyServerCredentials.create(new AdmissionNegotiator(new PeerCredentialsNegotiator(),
                                connections, limits, ownerUid, false, false, refusals, config.dumpStallTimeout())))
                .channelType(EpollServerDomainSocketChannel.class)
                // Unix sockets have no keepalive; without this Netty warns on every connection.
                .withChildOption(ChannelOption.SO_KEEPALIVE, null)
                .addService(ServerInterceptors.intercept(MalformedRequests.guard(service.bindService(), refusals),
                        new UnixCallerInterceptor()));
        return startOrExplain(common(builder), "unix socket " + socketFile.path());
    }

    private Server startTcp(TcpListener tcp) throws ServerStartException {
        InternalProtocolNegotiator.ProtocolNegotiator negotiation = tcp.sslContext != null
                ? InternalProtocolNegotiators.serverTls(tcp.sslContext) : InternalProtocolNegotiators.serverPlaintext();
        NettyServerBuilder builder = NettyServerBuilder.forAddress(tcp.address, InternalNettyServerCredentials.create(
                        new AdmissionNegotiator(negotiation, connections, limits, ownerUid, true, tcp.sslContext != null,
                                refusals, config.dumpStallTimeout())))
                .channelType(EpollServerSocketChannel.class)
                .maxConnectionIdle(limits.tcpIdle().toMillis(), TimeUnit.MILLISECONDS)
                .addService(ServerInterceptors.intercept(MalformedRequests.guard(service.bindService(), refusals),
                        new TcpCallerInterceptor(tcp.token)));
        return startOrExplain(common(builder), tcp.describe(tcp.address.getPort()));
    }

    private NettyServerBuilder common(NettyServerBuilder builder) {
        return builder
                .bossEventLoopGroup(boss)
                .workerEventLoopGroup(workers)
                .maxInboundMessageSize(MAX_REQUEST_BYTES)
                .permitKeepAliveTime(PERMIT_KEEPALIVE_SECONDS, TimeUnit.SECONDS)
                .permitKeepAliveWithoutCalls(true);
    }

    /** The open-file soft limit, or -1 if the JVM cannot tell. */
    private static long fdLimit() {
        return ManagementFactory.getOperatingSystemMXBean()
                instanceof com.sun.management.UnixOperatingSystemMXBean u ? u.getMaxFileDescriptorCount() : -1;
    }

    private static Server startOrExplain(NettyServerBuilder builder, String what) throws ServerStartException {
        try {
            return builder.build().start();
        } catch (IOException e) {
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            throw new ServerStartException("cannot listen on " + what + ": " + cause.getMessage(), e);
        }
    }

    /** The Unix socket served (absolute). */
    public Path socketPath() {
        return config.socket().toAbsolutePath().normalize();
    }

    /** The bound TCP port (useful with port 0), or -1 when TCP is off or not started. */
    public synchronized int tcpPort() {
        if (tcpServer == null) {
            return -1;
        }
        return ((InetSocketAddress) tcpServer.getListenSockets().get(0)).getPort();
    }

    public GfxStatsService service() {
        return service;
    }

    /**
     * Stops accepting, ends open registrations (clients see UNAVAILABLE and re-register with the
     * next daemon; the backend gets {@link EndReason#SERVER_STOPPING}), lets other calls finish
     * for at most the configured grace, then forces the rest and removes the socket file.
     * Idempotent and safe to call from a shutdown hook.
     */
    public synchronized void stop() {
        if (stopped) {
            return;
        }
        stopped = true;
        if (unixServer != null) {
            unixServer.shutdown();
        }
        if (tcpServer != null) {
            tcpServer.shutdown();
        }
        service.shutdown();
        long deadline = System.nanoTime() + config.shutdownGrace().toNanos();
        awaitOrForce(unixServer, deadline);
        awaitOrForce(tcpServer, deadline);
        service.shutdownNow();
        if (socketFile != null) {
            socketFile.remove();
        }
        shutdownGroup(boss);
        shutdownGroup(workers);
        if (unixServer != null) {
            LOG.info("gRPC server stopped");
        }
    }

    /** Blocks until {@link #stop()} has finished shutting the listeners down. */
    public void blockUntilShutdown() throws InterruptedException {
        Server unix;
        Server tcp;
        synchronized (this) {
            unix = unixServer;
            tcp = tcpServer;
        }
        if (unix != null) {
            unix.awaitTermination();
        }
        if (tcp != null) {
            tcp.awaitTermination();
        }
    }

    private static void awaitOrForce(Server server, long deadlineNanos) {
        if (server == null) {
            return;
        }
        try {
            long left = deadlineNanos - System.nanoTime();
            if (!server.awaitTermination(Math.max(left, 0), TimeUnit.NANOSECONDS)) {
                server.shutdownNow();
                if (!server.awaitTermination(FORCED_STOP_MILLIS, TimeUnit.MILLISECONDS)) {
                    LOG.warn("gRPC server did not terminate within {} ms of being forced", FORCED_STOP_MILLIS);
                }
            }
        } catch (InterruptedException e) {
            server.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }

    private static void shutdownGroup(EventLoopGroup group) {
        if (group == null) {
            return;
        }
        group.shutdownGracefully(0, FORCED_STOP_MILLIS, TimeUnit.MILLISECONDS)
                .awaitUninterruptibly(2 * FORCED_STOP_MILLIS, TimeUnit.MILLISECONDS);
    }
}
