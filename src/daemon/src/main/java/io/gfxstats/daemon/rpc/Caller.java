package io.gfxstats.daemon.rpc;

import io.grpc.Context;
import java.net.SocketAddress;
import java.util.Objects;

/**
 * The origin of the current call. Set by the server's interceptors before the service runs and
 * available to the backend through {@link #current()} (also inside {@link StatsBackend#dump},
 * which runs on a dump thread with the call's context).
 *
 * @param transport the listener the call arrived on
 * @param peer the kernel-reported identity of the connecting process; {@code null} over TCP
 * @param remoteAddress the peer's socket address as the transport reports it; may be {@code null}
 */
public record Caller(Transport transport, PeerIdentity peer, SocketAddress remoteAddress) {
    static final Context.Key<Caller> CONTEXT_KEY = Context.key("gfxstats-caller");

    public Caller {
        Objects.requireNonNull(transport, "transport");
        if (transport == Transport.TCP && peer != null) {
            throw new IllegalArgumentException("TCP callers have no peer credentials");
        }
    }

    /** The caller of the call running on this thread, or {@code null} outside a call. */
    public static Caller current() {
        return CONTEXT_KEY.get();
    }

    /** A short description for log lines. */
    public String describe() {
        if (transport == Transport.UNIX) {
            return peer == null ? "unix (no credentials)" : "unix " + peer;
        }
        return "tcp " + remoteAddress;
    }
}
