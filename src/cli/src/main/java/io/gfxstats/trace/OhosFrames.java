package io.gfxstats.trace;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * OpenHarmony frames as trace_streamer's frame filter makes them (spec 3.3, with the quirks of 3.7
 * and the code's side of 3.8): open frames per thread, app frames registered per (app pid, transaction
 * index), RenderService frames linked by {@code ProcessCommandUni [pid,index]}, GPU intervals on the
 * oldest open frame, flag 2 for what is still open at the end.
 *
 * <p>Threads and processes are given by their internal ids (see {@link TraceParser}); the caller
 * decides which events reach which rule.
 */
final class OhosFrames {
    private static final long INVALID = FrameTable.INVALID;
    private static final long INVALID32 = FrameTable.INVALID32;

    static final class Frame {
        final long startTs;
        long expectedEnd = INVALID;
        long endTs = INVALID;
        boolean gpuEnd = true;
        long vsyncId = INVALID32;
        long frameQueueStart = INVALID;
        boolean vsyncEnd;
        boolean isRender;
        long frameNum = INVALID32;
        int row = -1;
        int expectedRow = -1;
        boolean isEnd;
        long nowKey = INVALID;
        /** The raw {@code now} of a ReceiveVsync frame (for the clock-offset fallback). */
        long now = INVALID;

        Frame(long startTs) {
            this.startTs = startTs;
        }
    }

    private final FrameTable table = new FrameTable();
    /** Open frames per internal thread id, oldest first. */
    private final Map<Integer, List<Frame>> open = new HashMap<>();
    /** App frames per (main-thread internal id, transaction index). */
    private final Map<Integer, Map<Long, Frame>> byIndex = new HashMap<>();
    /** Per thread, the least (ReceiveVsync B ts - now): a clock sample once the thread composes. */
    private final Map<Integer, Long> minStartMinusNowByThread = new HashMap<>();
    private final Set<Integer> composingThreads = new HashSet<>();
    private long[] scratch = new long[8];
    private long[] scratchExpected = new long[8];

    FrameTable table() {
        return table;
    }

    private List<Frame> openOf(int itid) {
        return open.computeIfAbsent(itid, k -> new ArrayList<>(4));
    }

    private Frame last(int itid) {
        List<Frame> frames = open.get(itid);
        return frames == null || frames.isEmpty() ? null : frames.get(frames.size() - 1);
    }

    /** Rule 1: a valid ReceiveVsync B (the caller has rejected zero values). */
    void receiveVsync(long ts, int ipid, int itid, long now, long expectedEnd, long vsyncId, long callstack) {
        Frame f = new Frame(ts);
        f.nowKey = now;
        f.now = now;
        f.expectedEnd = expectedEnd;
        f.vsyncId = vsyncId;
        f.row = table.append(ts, ipid, itid, vsyncId, callstack);
        f.expectedRow = table.appendExpected(now, expectedEnd, ipid, itid, vsyncId, callstack);
        openOf(itid).add(f);
        if (now != INVALID) {
            minStartMinusNowByThread.merge(itid, ts - now, Math::min);
        }
    }

    /** Rule 2: OnVsyncEvent B on a thread that is not its process's main thread. */
    void parallelFrame(long ts, int ipid, int itid, long callstack) {
        Frame f = new Frame(ts);
        f.row = table.append(ts, ipid, itid, INVALID32, callstack);
        openOf(itid).add(f);
    }

    /** Rule 3: UIVsyncTask B on a non-main thread; {@code mainItid} is its process's main thread. */
    void uiVsyncTask(int itid, int mainItid, long vsyncId, long timestamp) {
        Frame f = last(itid);
        if (f == null) {
            return;
        }
        f.vsyncId = vsyncId;
        f.nowKey = timestamp;
        table.setVsync(f.row, vsyncId);
        f.expectedEnd = table.expectedEndOf(mainItid, vsyncId);
    }

    /** Rule 4, forms (a)/(b): the current thread's last open frame gets the index. */
    void transaction(int itid, int appMainItid, long index) {
        Frame f = last(itid);
        if (f == null || f.isEnd) {
            return;
        }
        f.frameNum = index;
        table.setFrameNum(f.row, index);
        register(appMainItid, index, f);
    }

    /** Rule 4, form (c): the open frame of {@code senderItid} whose key is {@code timestamp}. */
    void transactionAt(int senderItid, int appMainItid, long index, long timestamp) {
        List<Frame> frames = open.get(senderItid);
        if (frames == null || frames.isEmpty()) {
            return;
        }
        for (int i = 0; i < frames.size(); i++) {
            Frame f = frames.get(i);
            if (f.nowKey == timestamp) {
                f.frameNum = index;
                table.setFrameNum(f.row, index);
                if (f.isEnd) {
                    frames.remove(i);
                }
                register(appMainItid, index, f);
                return;
            }
        }
    }

    private void register(int appMainItid, long index, Frame f) {
        byIndex.computeIfAbsent(appMainItid, k -> new HashMap<>()).put(index, f);
    }

    /** Rule 5. */
    void doComposition(int itid) {
        Frame f = last(itid);
        if (f == null) {
            return;
        }
        f.isRender = true;
        table.markRender(f.row);
        composingThreads.add(itid);
    }

    /** Rule 6: {@code pairs} holds (app main-thread internal id, index) pairs. */
    void processCommand(int itid, long[] pairs, int pairCount) {
        Frame render = last(itid);
        if (render == null || render.vsyncEnd) {
            return;
        }
        if (scratch.length < pairCount) {
            scratch = new long[pairCount];
            scratchExpected = new long[pairCount];
        }
        int found = 0;
        for (int i = 0; i < pairCount; i++) {
            Map<Long, Frame> frames = byIndex.get((int) pairs[2 * i]);
            if (frames == null) {
                continue;
            }
            long index = pairs[2 * i + 1];
            Frame app = frames.get(index);
            if (app == null) {
                continue;
            }
            scratch[found] = app.row;
            scratchExpected[found] = app.expectedRow < 0 ? INVALID : app.expectedRow;
            found++;
            table.appendMap(app.row, render.row);
            if (app.expectedRow >= 0 && render.expectedRow >= 0) {
                table.appendMap(app.expectedRow, render.expectedRow);
            }
            table.setDst(app.row, render.row);
            if (app.expectedRow >= 0) {
                table.setDst(app.expectedRow, render.expectedRow < 0 ? INVALID : render.expectedRow);
            }
            if (app.endTs != INVALID) {
                frames.remove(index);
            }
        }
        if (found == 0) {
            return;
        }
        table.setSrcs(render.row, scratch, found);
        if (render.expectedRow >= 0) {
            table.setSrcs(render.expectedRow, scratchExpected, found);
        }
    }

    /** Rule 7: the E of a remembered ReceiveVsync/OnVsyncEvent slice on {@code itid}. */
    void endVsync(long ts, int itid) {
        List<Frame> frames = open.get(itid);
        if (frames == null || frames.isEmpty()) {
            return;
        }
        Frame f = frames.get(frames.size() - 1);
        f.vsyncEnd = true;
        if (f.isRender) {
            if (f.gpuEnd) {
                table.setEnd(f.row, ts, f.expectedEnd);
                f.endTs = ts;
                frames.remove(frames.size() - 1);
            }
        } else {
            if (f.isEnd) {
                return;
            }
            table.setEnd(f.row, ts, f.expectedEnd);
            if (f.frameNum != INVALID32) {
                frames.remove(frames.size() - 1);
            }
            f.isEnd = true;
            f.endTs = ts;
        }
    }

    /** Rule 8, S: returns whether a frame took it (otherwise its F is ignored). */
    boolean frameQueuedStart(long ts, int itid) {
        List<Frame> frames = open.get(itid);
        if (frames == null || frames.isEmpty()) {
            return false;
        }
        Frame f = frames.get(0);
        f.gpuEnd = false;
        f.frameQueueStart = ts;
        return true;
    }

    /** Rule 8, F. */
    void frameQueuedEnd(long ts, int itid) {
        List<Frame> frames = open.get(itid);
        if (frames == null || frames.isEmpty()) {
            return;
        }
        Frame f = frames.get(0);
        table.appendGpu(f.row, ts - f.frameQueueStart);
        f.gpuEnd = true;
        if (f.vsyncEnd) {
            f.endTs = ts;
            table.setEnd(f.row, ts, f.expectedEnd);
            table.markEndedByGpu(f.row);
            frames.remove(0);
        }
    }

    /**
     * The clock-offset fallback: min of (ReceiveVsync B ts - now) over every ReceiveVsync of the
     * threads that compose (DoComposition), named or not, with or without a DoComposition of its
     * own: each was logged after its vsync, so each is a bound; Long.MAX_VALUE without any.
     */
    long minRenderStartMinusNow() {
        long min = Long.MAX_VALUE;
        for (int itid : composingThreads) {
            min = Math.min(min, minStartMinusNowByThread.getOrDefault(itid, Long.MAX_VALUE));
        }
        return min;
    }

    /** Rule 9 and the table's finish. */
    FrameTable finish(long clockOffset) {
        int[] invalid = new int[16];
        int n = 0;
        for (List<Frame> frames : open.values()) {
            for (Frame f : frames) {
                if (f.isRender) {
                    break;
                }
                if (n + 2 > invalid.length) {
                    invalid = Arrays.copyOf(invalid, invalid.length * 2);
                }
                invalid[n++] = f.row;
                if (f.expectedRow >= 0) {
                    invalid[n++] = f.expectedRow;
                }
            }
        }
        table.finish(clockOffset, invalid, n);
        open.clear();
        byIndex.clear();
        return table;
    }
}
