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
}
