package io.gfxstats.trace;

import java.util.Arrays;

/**
 * trace_streamer's {@code frame_slice}, {@code frame_maps} and {@code gpu_slice} rows (spec 3.6), as
 * the frame rules write them. Values follow trace_streamer's unsigned 64-bit arithmetic;
 * {@link #INVALID} (all bits set) stands for "unknown" and becomes NULL in every output.
 *
 * <p>Expected rows hold the raw {@code now}-clock values while parsing; {@link #finish} shifts them
 * by the clock offset, resolves the deferred on-time/janky flags (which compare a {@code now}-clock
 * deadline with a trace-clock end) and has {@link FrameDepths} compute the display depth.
 */
public final class FrameTable {
    public static final long INVALID = -1L;
    public static final long INVALID32 = 0xFFFF_FFFFL;
    public static final int FLAG_ON_TIME = 0;
    public static final int FLAG_JANKY = 1;
    public static final int FLAG_INVALID = 2;
    public static final int FLAG_ABNORMAL_START = 3;
    public static final int FLAG_NONE = 255;
    /** Ended, on-time or janky decided at {@link #finish}. */
    private static final int FLAG_PENDING = 254;
    public static final int TYPE_ACTUAL = 0;
    public static final int TYPE_EXPECTED = 1;

    private int size;
    private long[] ts = new long[64];
    private long[] dur = new long[64];
    private long[] vsync = new long[64];
    private int[] ipid = new int[64];
    private int[] itid = new int[64];
    private long[] callstack = new long[64];
    private String[] src = new String[64];
    private long[] dst = new long[64];
    private byte[] type = new byte[64];
    private int[] flag = new int[64];
    private int[] depth = new int[64];
    /** Per actual row: the raw deadline its end was compared with (INVALID: unknown). */
    private long[] deadline = new long[64];
    /** Not columns of trace_streamer: what the frames model needs besides them. */
    private boolean[] render = new boolean[64];
    private boolean[] endedByGpu = new boolean[64];
    private long[] frameNum = new long[64];
    private boolean finished;

    private final RowPairs maps = new RowPairs();
    private final RowPairs gpus = new RowPairs();

    int append(long ts, int ipid, int itid, long vsync, long callstack) {
        if (size == this.ts.length) {
            grow();
        }
        int r = size++;
        this.ts[r] = ts;
        this.ipid[r] = ipid;
        this.itid[r] = itid;
        this.vsync[r] = vsync;
        this.callstack[r] = callstack;
        this.dur[r] = INVALID;
        this.src[r] = "";
        this.dst[r] = INVALID;
        this.type[r] = TYPE_ACTUAL;
        this.flag[r] = FLAG_NONE;
        this.depth[r] = 0;
        this.deadline[r] = INVALID;
        this.render[r] = false;
        this.endedByGpu[r] = false;
        this.frameNum[r] = INVALID32;
        return r;
    }

    int appendExpected(long start, long end, int ipid, int itid, long vsync, long callstack) {
        int r = append(start, ipid, itid, vsync, callstack);
        type[r] = TYPE_EXPECTED;
        dur[r] = end - start;
        return r;
    }

    private void grow() {
        int n = ts.length * 2;
        ts = Arrays.copyOf(ts, n);
        dur = Arrays.copyOf(dur, n);
        vsync = Arrays.copyOf(vsync, n);
        ipid = Arrays.copyOf(ipid, n);
        itid = Arrays.copyOf(itid, n);
        callstack = Arrays.copyOf(callstack, n);
        src = Arrays.copyOf(src, n);
        dst = Arrays.copyOf(dst, n);
        type = Arrays.copyOf(type, n);
        flag = Arrays.copyOf(flag, n);
        depth = Arrays.copyOf(depth, n);
        deadline = Arrays.copyOf(deadline, n);
        render = Arrays.copyOf(render, n);
        endedByGpu = Arrays.copyOf(endedByGpu, n);
        frameNum = Arrays.copyOf(frameNum, n);
    }

    void markRender(int row) {
        render[row] = true;
    }

    void markEndedByGpu(int row) {
        endedByGpu[row] = true;
    }

    void setFrameNum(int row, long value) {
        frameNum[row] = value;
    }

    /** Whether the row's frame was marked by DoComposition (a RenderService frame). */
    public boolean isRender(int r) {
        return render[r];
    }

    /** Whether the row ended at a Frame queued F (after its ReceiveVsync E). */
    public boolean endedByGpu(int r) {
        return endedByGpu[r];
    }

    /** The transaction index (MarshRSTransactionData) of an app frame, INVALID32 when none. */
    public long frameNum(int r) {
        return frameNum[r];
    }

    /** Ends an actual row: dur, and on-time/janky against {@code expectedEnd} unless flag 3 is set. */
    void setEnd(int row, long endTs, long expectedEnd) {
        dur[row] = endTs - ts[row];
        if (flag[row] != FLAG_ABNORMAL_START) {
            flag[row] = FLAG_PENDING;
            deadline[row] = expectedEnd;
        }
    }

    void setFlag(int row, int value) {
        flag[row] = value;
    }

    void setVsync(int row, long value) {
        vsync[row] = value;
    }

    void setDst(int row, long value) {
        dst[row] = value;
    }

    /**
     * Appends to the row's source list (spec 3.3 rule 6). One ProcessCommandUni gives the same text
     * either way; for a second one in the same frame (RenderService never emits two) upstream's code
     * at bddf1e3 overwrites the list instead: we follow the spec's wording, see docs/trace.md.
     */
    void setSrcs(int row, long[] rows, int count) {
        StringBuilder sb = new StringBuilder(src[row]);
        for (int i = 0; i < count; i++) {
            if (rows[i] != INVALID) {
                if (sb.length() > 0) {
                    sb.append(',');
                }
                sb.append(rows[i]);
            }
        }
        if (sb.length() > 0) {
            src[row] = sb.toString();
        }
    }

    /** A frame_maps row; linking to an expected row checks the render pickup (flag 3). */
    void appendMap(int srcRow, int dstRow) {
        maps.append(srcRow, dstRow);
        if (type[dstRow] == TYPE_EXPECTED) {
            long renderExpectedStart = ts[dstRow];
            long appExpectedEnd = ts[srcRow] + dur[srcRow];
            if (Math.abs(renderExpectedStart - appExpectedEnd) >= 1_000_000L) {
                flag[dstRow - 1] = FLAG_ABNORMAL_START;
            }
        }
    }

    void appendGpu(int frameRow, long gpuDuration) {
        gpus.append(frameRow, gpuDuration);
    }

    /** The end (ts + dur) of the latest row of {@code itid} whose vsync is {@code vsyncId}. */
    long expectedEndOf(int itid, long vsyncId) {
        for (int r = size - 1; r >= 0; r--) {
            if (vsync[r] == vsyncId && this.itid[r] == itid) {
                return ts[r] + dur[r];
            }
        }
        return INVALID;
    }

    /**
     * Applies the clock offset (added to every expected row's start), decides the pending flags,
     * marks {@code invalidRows} with flag 2 and computes the depth per (process, type) ({@link FrameDepths}).
     */
    void finish(long clockOffset, int[] invalidRows, int invalidCount) {
        if (finished) {
            throw new IllegalStateException("finished twice");
        }
        finished = true;
        for (int r = 0; r < size; r++) {
            if (type[r] == TYPE_EXPECTED && ts[r] != INVALID) {
                ts[r] += clockOffset;
            }
            if (flag[r] == FLAG_PENDING) {
                long end = ts[r] + dur[r];
                long d = deadline[r] == INVALID ? INVALID : deadline[r] + clockOffset;
                flag[r] = Long.compareUnsigned(d, end) >= 0 ? FLAG_ON_TIME : FLAG_JANKY;
            }
        }
        for (int i = 0; i < invalidCount; i++) {
            flag[invalidRows[i]] = FLAG_INVALID;
        }
        FrameDepths.assign(this);
    }

    void setDepth(int row, int value) {
        depth[row] = value;
    }

    public int size() {
        return size;
    }

    public long ts(int r) {
        return ts[r];
    }

    public long dur(int r) {
        return dur[r];
    }

    /** The end, or INVALID while the row has no duration. */
    public long end(int r) {
        return dur[r] == INVALID || ts[r] == INVALID ? INVALID : ts[r] + dur[r];
    }

    public long vsync(int r) {
        return vsync[r];
    }

    public int ipid(int r) {
        return ipid[r];
    }

    public int itid(int r) {
        return itid[r];
    }

    public long callstack(int r) {
        return callstack[r];
    }

    public String src(int r) {
        return src[r];
    }

    public long dst(int r) {
        return dst[r];
    }

    public int type(int r) {
        return type[r];
    }

    public int flag(int r) {
        return flag[r];
    }

    public int depth(int r) {
        return depth[r];
    }

    public int mapCount() {
        return maps.size();
    }

    public long mapSrc(int i) {
        return maps.first(i);
    }

    public long mapDst(int i) {
        return maps.second(i);
    }

    public int gpuCount() {
        return gpus.size();
    }

    public long gpuRow(int i) {
        return gpus.first(i);
    }

    public long gpuDur(int i) {
        return gpus.second(i);
    }
}
