package io.gfxstats.daemon.rpc;

import io.gfxstats.rpc.SocketPaths;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * Everything the gRPC server needs; filled by the daemon's configuration loader.
 *
 * @param socket the Unix socket to listen on; its directory is created (mode 0750) if missing
 *     and must be owned by the daemon's user
 * @param tcp the optional TCP listener
 * @param dumpChunkBytes largest DumpChunk payload; dumps are streamed in chunks of at most this
 * @param maxConcurrentDumps dumps served at once; more are refused with RESOURCE_EXHAUSTED
 * @param shutdownGrace how long {@link GfxStatsServer#stop()} lets running calls finish
 * @param maxDumpsPerPeer dumps one peer (a process on the Unix socket, an address on TCP) may run at once
 * @param dumpStallTimeout how long a dump may wait for its client to read before it is cancelled
 * @param connections how many connections are kept open, in all and per peer
 */
public record ServerConfig(Path socket, TcpConfig tcp, int dumpChunkBytes, int maxConcurrentDumps,
        Duration shutdownGrace, int maxDumpsPerPeer, Duration dumpStallTimeout, ConnectionLimits connections) {
    public static final int DEFAULT_DUMP_CHUNK_BYTES = 64 * 1024;
    public static final int DEFAULT_MAX_CONCURRENT_DUMPS = 4;
    public static final Duration DEFAULT_SHUTDOWN_GRACE = Duration.ofSeconds(5);
    public static final int DEFAULT_MAX_DUMPS_PER_PEER = 2;
    public static final Duration DEFAULT_DUMP_STALL_TIMEOUT = Duration.ofSeconds(10);
    /** sun_path holds 108 bytes including the terminating NUL. */
    public static final int MAX_SOCKET_PATH_BYTES = SocketPaths.MAX_PATH_BYTES;

    public ServerConfig {
        Objects.requireNonNull(socket, "socket");
        Objects.requireNonNull(tcp, "tcp");
        Objects.requireNonNull(shutdownGrace, "shutdownGrace");
        if (dumpChunkBytes < 1024 || dumpChunkBytes > 1024 * 1024) {
            throw new IllegalArgumentException("dump chunk size must be 1 KiB..1 MiB: " + dumpChunkBytes);
        }
        if (maxConcurrentDumps < 1) {
            throw new IllegalArgumentException("max concurrent dumps must be >= 1: " + maxConcurrentDumps);
        }
        Objects.requireNonNull(dumpStallTimeout, "dumpStallTimeout");
        Objects.requireNonNull(connections, "connections");
        if (maxDumpsPerPeer < 1) {
            throw new IllegalArgumentException("max dumps per peer must be >= 1: " + maxDumpsPerPeer);
        }
        if (dumpStallTimeout.isNegative() || dumpStallTimeout.isZero()) {
            throw new IllegalArgumentException("dump stall timeout must be positive: " + dumpStallTimeout);
        }
        if (shutdownGrace.isNegative()) {
            throw new IllegalArgumentException("shutdown grace must not be negative: " + shutdownGrace);
        }
    }

    /** Unix socket only, default limits. */
    public static ServerConfig unixOnly(Path socket) {
        return new ServerConfig(socket, TcpConfig.disabled(), DEFAULT_DUMP_CHUNK_BYTES,
                DEFAULT_MAX_CONCURRENT_DUMPS, DEFAULT_SHUTDOWN_GRACE, DEFAULT_MAX_DUMPS_PER_PEER,
                DEFAULT_DUMP_STALL_TIMEOUT, ConnectionLimits.DEFAULTS);
    }

    public ServerConfig withTcp(TcpConfig newTcp) {
        return new ServerConfig(socket, newTcp, dumpChunkBytes, maxConcurrentDumps, shutdownGrace, maxDumpsPerPeer,
                dumpStallTimeout, connections);
    }

    public ServerConfig withMaxConcurrentDumps(int max) {
        return new ServerConfig(socket, tcp, dumpChunkBytes, max, shutdownGrace, Math.min(maxDumpsPerPeer, max),
                dumpStallTimeout, connections);
    }

    /** Dump limits: in total, per peer, and how long a dump may wait for its reader. */
    public ServerConfig withDumpLimits(int max, int perPeer, Duration stallTimeout) {
        return new ServerConfig(socket, tcp, dumpChunkBytes, max, shutdownGrace, perPeer, stallTimeout, connections);
    }

    public ServerConfig withConnectionLimits(ConnectionLimits limits) {
        return new ServerConfig(socket, tcp, dumpChunkBytes, maxConcurrentDumps, shutdownGrace, maxDumpsPerPeer,
                dumpStallTimeout, limits);
    }
}
