package io.gfxstats.daemon.rpc;

import io.gfxstats.rpc.v1.BufferAssigned;
import java.util.Objects;
import java.util.function.Consumer;

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

    /** A registration that sends {@code assigned} and hands its end to {@code onEnd}. */
    static Registration of(BufferAssigned assigned, Consumer<EndReason> onEnd) {
        Objects.requireNonNull(assigned, "assigned");
        Objects.requireNonNull(onEnd, "onEnd");
        return new Registration() {
            @Override
            public BufferAssigned assigned() {
                return assigned;
            }

            @Override
            public void end(EndReason reason) {
                onEnd.accept(reason);
            }
        };
    }
}
