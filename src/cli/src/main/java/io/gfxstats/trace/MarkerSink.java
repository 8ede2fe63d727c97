package io.gfxstats.trace;

/** Receives the user-marker lines of a trace, in file order. */
@FunctionalInterface
public interface MarkerSink {
    void marker(MarkerLine line) throws TraceFormatException;

    /**
     * A {@code sched_switch} or {@code sched_process_exit} row ({@link MarkerLine#phase()} is
     * {@link MarkerLine#SCHED_SWITCH} or {@link MarkerLine#PROCESS_EXIT}), in timestamp order with the
     * markers; ignored unless the sink needs threads' scheduling.
     */
    default void kernel(MarkerLine line) throws TraceFormatException {
        // most sinks read markers only
    }
}
