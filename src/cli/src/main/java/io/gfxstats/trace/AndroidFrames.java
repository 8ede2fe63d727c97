package io.gfxstats.trace;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Android atrace frames (spec section 5): {@code Choreographer#doFrame <vsyncId>} on the UI thread
 * and {@code DrawFrames <vsyncId>} on the RenderThread of the same process, linked by
 * (payload pid, vsyncId). The payload pid is the key because in HarmonyOS traces of
 * Android-container apps it is the container's pid, the same on both threads, while the kernel TGID
 * differs.
 */
final class AndroidFrames {
    /** One doFrame or DrawFrames slice; end stays {@link FrameTable#INVALID} until its E. */
    static final class Slice {
        final int pid;
        final int tid;
        final long vsyncId;
        final long start;
        long end = FrameTable.INVALID;

        Slice(int pid, int tid, long vsyncId, long start) {
            this.pid = pid;
            this.tid = tid;
            this.vsyncId = vsyncId;
            this.start = start;
        }
    }

    /**
     * A doFrame, the DrawFrames of the same vsyncId (null if none) and when its vsync was: the
     * process's {@code Choreographer#onVsync} of that vsyncId, else the last {@code VSYNC-app} tick
     * before the doFrame, else {@link FrameTable#INVALID}.
     */
    record Frame(Slice doFrame, Slice drawFrames, long vsyncTime) {
    }

    private final List<Slice> doFrames = new ArrayList<>();
    /** When each vsync was delivered to the app: the start of {@code Choreographer#onVsync <vsyncId>}. */
    private final Map<Long, Long> onVsync = new HashMap<>();
    private final Map<Long, Slice> drawByKey = new HashMap<>();

    static final String DO_FRAME = "Choreographer#doFrame ";
    static final String DRAW_FRAMES = "DrawFrames ";
    static final String ON_VSYNC = "Choreographer#onVsync ";
    static final String VSYNC_APP = "VSYNC-app";
    /** When SurfaceFlinger's app vsync ticked (its VSYNC-app counter changes at every tick), in trace order. */
    private long[] vsyncApp = new long[64];
    private int vsyncAppCount;

    /** The vsyncId of a name {@code prefix<digits>}, or -1. */
    static long idAfter(String name, String prefix) {
        if (!name.startsWith(prefix) || name.length() == prefix.length() || name.length() - prefix.length() > 18) {
            return -1;
        }
        long v = 0;
        for (int i = prefix.length(); i < name.length(); i++) {
            char c = name.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            v = v * 10 + (c - '0');
        }
        return v;
    }

    Slice doFrame(int pid, int tid, long vsyncId, long ts) {
        Slice s = new Slice(pid, tid, vsyncId, ts);
        doFrames.add(s);
        return s;
    }

    Slice drawFrames(int pid, int tid, long vsyncId, long ts) {
        Slice s = new Slice(pid, tid, vsyncId, ts);
        drawByKey.putIfAbsent(key(pid, vsyncId), s);
        return s;
    }

    void onVsync(int pid, long vsyncId, long ts) {
        onVsync.putIfAbsent(key(pid, vsyncId), ts);
    }

    void vsyncApp(long ts) {
        if (vsyncAppCount == vsyncApp.length) {
            vsyncApp = Arrays.copyOf(vsyncApp, vsyncAppCount * 2);
        }
        vsyncApp[vsyncAppCount++] = ts;
    }

    /** The last VSYNC-app tick at or before {@code ts}, or {@link FrameTable#INVALID}. */
    private long lastVsyncAppTick(long ts, long[] sortedTicks) {
        int lo = 0;
        int hi = sortedTicks.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (sortedTicks[mid] <= ts) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo == 0 ? FrameTable.INVALID : sortedTicks[lo - 1];
    }

    private static long key(int pid, long vsyncId) {
        return ((long) pid << 40) ^ vsyncId;
    }

    List<Frame> frames() {
        long[] ticks = Arrays.copyOf(vsyncApp, vsyncAppCount);
        Arrays.sort(ticks);
        List<Frame> out = new ArrayList<>(doFrames.size());
        for (Slice d : doFrames) {
            Slice r = drawByKey.get(key(d.pid, d.vsyncId));
            // The app's own onVsync first; else SurfaceFlinger's last VSYNC-app tick before the doFrame.
            long vsync = onVsync.getOrDefault(key(d.pid, d.vsyncId), FrameTable.INVALID);
            if (vsync == FrameTable.INVALID) {
                vsync = lastVsyncAppTick(d.start, ticks);
            }
            out.add(new Frame(d, r != null && r.pid == d.pid && r.vsyncId == d.vsyncId ? r : null, vsync));
        }
        return out;
    }
}
