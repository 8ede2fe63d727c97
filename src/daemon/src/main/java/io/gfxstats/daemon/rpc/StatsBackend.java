package io.gfxstats.daemon.rpc;

import io.gfxstats.rpc.v1.DumpRequest;
import io.gfxstats.rpc.v1.HealthResponse;
import io.gfxstats.rpc.v1.LiveSnapshot;
import io.gfxstats.rpc.v1.PullRequest;
import io.gfxstats.rpc.v1.PullResponse;
import io.gfxstats.rpc.v1.RegisterRequest;
import io.gfxstats.rpc.v1.ScenesRequest;
import io.gfxstats.rpc.v1.ScenesResponse;
import io.gfxstats.timeline.feed.DisplayFramePublisher;
import java.io.IOException;
import java.io.OutputStream;

/**
 * What the daemon provides to the gRPC service. Implementations must be thread-safe: calls
 * arrive concurrently. Refusals are reported by throwing {@link StatsException}; anything else
 * thrown is reported to the client as INTERNAL and logged.
 *
 * <p>{@link Caller#current()} tells every method where the call came from. The transport rules
 * (registration only over the Unix socket, token on TCP) are enforced before these methods run.
 */
public interface StatsBackend {
    /**
     * Registers the process {@code peer} (identity from SO_PEERCRED, never from the request).
     * Only called for Unix-socket callers with known credentials.
     */
    Registration register(PeerIdentity peer, RegisterRequest request) throws StatsException;

    /**
     * Writes the dump (dumpsys text or serialized GraphicsStatsServiceDumpProto) to {@code sink}.
     * The sink sends bounded chunks as they fill and blocks while the client is slow, so the
     * whole dump never needs to be held in memory. If the client goes away the sink throws
     * {@link java.io.IOException} and the backend should stop. Runs on a dump thread.
     */
    void dump(DumpRequest request, OutputStream sink) throws StatsException, IOException;

    PullResponse pull(PullRequest request) throws StatsException;

    HealthResponse health() throws StatsException;

    /** Scenes per (day, package, version, scene) (docs/scenes.md); read-only. */
    default ScenesResponse scenes(ScenesRequest request) throws StatsException {
        throw StatsException.unavailable("this server does not serve scenes", null);
    }

    /** One snapshot of the live buffers' cumulative counters for a Watch call; read-only, called every interval. */
    default LiveSnapshot liveSnapshot(String packageName) throws StatsException {
        throw StatsException.unavailable("this server does not serve live snapshots", null);
    }

    /**
     * Where the compositor frames of {@code peer} (identity from SO_PEERCRED) are classified and
     * published for the clients (compositor mode, docs/frametimeline.md); refuses with
     * PERMISSION_DENIED whoever may not feed. Only called for Unix-socket callers with known credentials.
     */
    default DisplayFramePublisher displayFramePublisher(PeerIdentity peer)
            throws StatsException {
        throw StatsException.unavailable("this server does not take a compositor feed", null);
    }
}
