package io.gfxstats.trace;

import java.util.HashMap;
import java.util.Map;

/**
 * What {@code sched_switch} and {@code sched_process_exit} rows say about each thread, kept the way
 * trace_streamer's CPU filter keeps it for its thread table: one small entry per thread id, so memory
 * grows with the number of threads, not with the trace.
 *
 * <ul>
 * <li>{@code switch_count} is a flag, not a count: trace_streamer sets it to 1 when a thread that
 *     already has a thread-state row (from being switched in or out before) is switched out, and
 *     never adds to it. A thread switched out on another CPU at the very nanosecond it was switched
 *     in (a migration the buffers recorded twice) is not switched out.</li>
 * <li>{@code end_ts} is the time of the thread's last {@code sched_process_exit}.</li>
 * <li>Thread id 0 (the idle task) is trace_streamer's placeholder thread and gets neither.</li>
 * </ul>
 */
final class Scheduling {
    /** One thread's scheduling, as far as the tables need it. */
    private static final class State {
        boolean hasStateRow;
        boolean running;
        int cpu;
        long runningSince;
        boolean switchedOut;
        long exitTs = -1;
    }

    private final Map<Integer, State> byTid = new HashMap<>();

    void event(MarkerLine m) {
        if (m.phase == MarkerLine.PROCESS_EXIT) {
            state(m.payloadPid).exitTs = m.ts;
            return;
        }
        int prev = m.payloadPid;
        int next = (int) m.value;
        if (next != 0) {
            State s = state(next);
            s.hasStateRow = true;
            s.running = true;
            s.cpu = m.cpu;
            s.runningSince = m.ts;
        }
        if (prev != 0) {
            State s = state(prev);
            if (s.hasStateRow) {
                if (s.running && s.cpu != m.cpu && s.runningSince == m.ts) {
                    return;
                }
                s.switchedOut = true;
            }
            s.hasStateRow = true;
            s.running = false;
        }
    }

    /** Sets each thread's {@code endTs} and {@code switchCount} from what was seen. */
    void applyTo(Iterable<ThreadInfo> threads) {
        for (ThreadInfo t : threads) {
            State s = byTid.get(t.tid);
            if (s != null && t.tid != 0) {
                t.endTs = s.exitTs;
                t.switchCount = s.switchedOut ? 1 : 0;
            }
        }
    }

    private State state(int tid) {
        return byTid.computeIfAbsent(tid, k -> new State());
    }
}
