package io.gfxstats.trace;

/**
 * A thread seen in a marker line. Besides its identity it carries its own B/E slice stack and the
 * vsync slices it remembers, worked by {@link SliceStacks}: one lookup per line finds both.
 */
public final class ThreadInfo {
    final int itid;
    final int tid;
    int ipid;
    String name;
    long[] stackIds = new long[8];
    Object[] stackTags = new Object[8];
    int depth;
    long[] remembered = new long[4];
    int rememberedCount;
    /** Whether an E closed one of its slices (trace_streamer's per-thread slice flag). */
    boolean closedSlice;
    /** Its last sched_process_exit, -1 without one ({@link Scheduling}). */
    long endTs = -1;
    /** trace_streamer's switch_count: 1 once sched_switch switched it out after an earlier state ({@link Scheduling}). */
    int switchCount;

    ThreadInfo(int itid, int tid) {
        this.itid = itid;
        this.tid = tid;
    }

    public int itid() {
        return itid;
    }

    public int tid() {
        return tid;
    }

    public int ipid() {
        return ipid;
    }

    public String name() {
        return name;
    }

    /** The time of its last sched_process_exit, -1 when the trace has none. */
    public long endTs() {
        return endTs;
    }

    /** trace_streamer's switch_count of the thread: 0 or 1 (see {@link Scheduling}). */
    public int switchCount() {
        return switchCount;
    }

    /** Whether an E closed one of its slices. */
    public boolean closedSlice() {
        return closedSlice;
    }
}
