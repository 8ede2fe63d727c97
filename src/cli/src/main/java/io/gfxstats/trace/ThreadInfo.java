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

    /** Whether an E closed one of its slices. */
    public boolean closedSlice() {
        return closedSlice;
    }
}
