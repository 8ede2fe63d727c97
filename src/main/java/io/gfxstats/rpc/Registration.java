package io.gfxstats.rpc;

import io.gfxstats.rpc.v1.BufferAssigned;

/**
 * One accepted registration, returned by {@link StatsBackend#register}. The service sends
 * {@link #assigned()} to the client, keeps the call open for as long as the client lives and
 * then calls {@link #end} exactly once.
 */
public interface Registration {
    /** The event sent to the client: the buffer it counts into. */
    BufferAssigned assigned();

    /**
     * The registration is over. Called exactly once per registration returned by the backend,
     * including when the client vanished before the assignment could be sent. Runs on a gRPC
     * thread: must not block for long. Exceptions are logged and otherwise ignored.
     */
    void end(EndReason reason);
}
