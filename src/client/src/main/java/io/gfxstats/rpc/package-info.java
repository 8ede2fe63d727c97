/**
 * The daemon's gRPC endpoint and its client.
 *
 * <h2>Server</h2>
 * {@link io.gfxstats.daemon.rpc.GfxStatsServer} serves {@link io.gfxstats.daemon.rpc.GfxStatsService}, which
 * delegates to a {@link io.gfxstats.daemon.rpc.StatsBackend} (implemented by the daemon):
 * <ul>
 *   <li>Unix socket always (mode 0660, in a directory owned by the daemon's user). Each connection's
 *       SO_PEERCRED is captured by {@code PeerCredentialsNegotiator} and handed to the backend as a
 *       {@link io.gfxstats.daemon.rpc.PeerIdentity}; {@link io.gfxstats.daemon.rpc.Caller#current()} tells any
 *       backend method where its call came from.</li>
 *   <li>TCP optionally ({@link io.gfxstats.daemon.rpc.TcpConfig}): loopback by default; any other address
 *       requires TLS and a bearer token. Only Dump, Pull and Health are served over TCP; Register
 *       is refused with PERMISSION_DENIED.</li>
 *   <li>Register is a long-lived server stream: one BufferAssigned event, then open until the client
 *       goes; {@link io.gfxstats.daemon.rpc.Registration#end} runs exactly once.</li>
 *   <li>Dump streams chunks of at most {@link io.gfxstats.daemon.rpc.ServerConfig#dumpChunkBytes()} as the
 *       backend writes, held back by HTTP/2 flow control when the client reads slowly.</li>
 *   <li>{@link io.gfxstats.daemon.rpc.StatsException} kinds become INVALID_ARGUMENT, PERMISSION_DENIED,
 *       RESOURCE_EXHAUSTED, UNAVAILABLE or NOT_FOUND with the exception's message as description.</li>
 * </ul>
 *
 * <h2>Client</h2>
 * {@link io.gfxstats.rpc.GfxStatsClient#unix} / {@link io.gfxstats.rpc.GfxStatsClient#tcp}: deadlines
 * on the unary calls and Dump ({@link io.gfxstats.rpc.ClientOptions}; the long-lived streams
 * Register, Watch and FeedDisplayFrames have none), errors as
 * {@link io.gfxstats.rpc.GfxStatsClientException} with a one-line message.
 * {@link io.gfxstats.rpc.SocketPaths} resolves the socket both sides default to.
 */
package io.gfxstats.rpc;
