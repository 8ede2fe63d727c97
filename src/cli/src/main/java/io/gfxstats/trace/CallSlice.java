package io.gfxstats.trace;

/**
 * A slice that opened a frame (a B line of one of the frame prefixes), kept so that the SQLite
 * output can give the {@code callstack} row each {@code frame_slice.callstack_id} points at. Only
 * these slices are kept: every slice would make memory grow with the trace.
 */
public final class CallSlice {
    final long id;
    final long ts;
    final int itid;
    final String name;
    final int depth;
    final long parentId;
    /** The timestamp of its E, or -1 while it is open (and for good if it never closes). */
    long end = -1;

    CallSlice(long id, long ts, int itid, String name, int depth, long parentId) {
        this.id = id;
        this.ts = ts;
        this.itid = itid;
        this.name = name;
        this.depth = depth;
        this.parentId = parentId;
    }

    public long id() {
        return id;
    }

    public long ts() {
        return ts;
    }

    /** The slice's length, or -1 if its E never came. */
    public long dur() {
        return end < 0 ? -1 : end - ts;
    }

    /** The thread's internal id: trace_streamer's {@code callid} for a slice on a thread. */
    public int itid() {
        return itid;
    }

    public String name() {
        return name;
    }

    /** How many slices of its thread were open when it began. */
    public int depth() {
        return depth;
    }

    /** The id of the slice it began inside, or -1 at depth 0. */
    public long parentId() {
        return parentId;
    }
}
