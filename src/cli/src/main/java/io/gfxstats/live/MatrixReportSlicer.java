package io.gfxstats.live;

import io.gfxstats.matrix.FrameMetric;
import io.gfxstats.matrix.MatrixDevice;
import io.gfxstats.matrix.MatrixReport;
import io.gfxstats.matrix.MatrixRule;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * Cuts live counters into Matrix 2.1 slices, one sequence per (package, version, scene): a slice
 * opens with its scene's first frame after the previous one closed, closes at the first snapshot
 * at least the slice length (10 s of wall time by default, Matrix's constant) after it opened, and
 * is reported only with more than 20 Matrix frames. Unlike Matrix 2.1 (one slice for all scenes,
 * labelled with its last frame's scene) every scene has slices of its own.
 *
 * <p>Snapshots bound the precision: a slice opens at the snapshot before its first frame and
 * closes at a snapshot, so its length is the slice length rounded up to the feed's interval. The
 * values come from integer sums (computed in double, then rounded to float where Matrix has a
 * float), so fps may differ from Matrix's frame-by-frame float sums in the last digits. Counters
 * that go down (their processes ended and left the feed) drop the open slice of that key.
 */
public final class MatrixReportSlicer {
    /** Matrix 2.1's slice: 10 s of wall time. */
    public static final long DEFAULT_SLICE_NANOS = 10_000_000_000L;

    private final long sliceNanos;
    private final Supplier<MatrixDevice> device;
    private final Map<LiveScene.Key, State> states = new HashMap<>();
    private LiveSnapshot previous;

    private static final class State {
        LiveScene base;
        LiveScene last;
        long openedNanos = -1;
    }

    public MatrixReportSlicer(long sliceNanos, Supplier<MatrixDevice> device) {
        if (sliceNanos <= 0) {
            throw new IllegalArgumentException("slice must be positive: " + sliceNanos);
        }
        this.sliceNanos = sliceNanos;
        this.device = device;
    }

    /** Takes the next snapshot; returns the reports of the slices it closes. */
    public List<MatrixReport> accept(LiveSnapshot snapshot) {
        List<MatrixReport> reports = new ArrayList<>();
        for (LiveScene now : snapshot.scenes()) {
            State s = states.get(now.key());
            if (s == null) {
                s = new State();
                // Frames counted before the first snapshot predate the watch: not ours to slice.
                s.base = previous == null ? now : LiveScene.zero(now.key(), now.stageSums() != null);
                s.last = s.base;
                states.put(now.key(), s);
            }
            if (now.minus(s.last) == null) {
                s.base = now;
                s.openedNanos = -1;
            }
            s.last = now;
            if (s.openedNanos < 0 && now.matrixFrames() > s.base.matrixFrames()) {
                s.openedNanos = previous != null ? previous.monotonicNanos() : snapshot.monotonicNanos();
            }
            if (s.openedNanos >= 0 && snapshot.monotonicNanos() - s.openedNanos >= sliceNanos) {
                LiveScene slice = now.minus(s.base);
                if (slice != null && slice.matrixFrames() > TopRow.MIN_MATRIX_FRAMES_EXCLUSIVE) {
                    reports.add(report(slice, snapshot.wallMillis(), device.get()));
                }
                s.base = now;
                s.openedNanos = -1;
            }
        }
        previous = snapshot;
        return reports;
    }

    /** The Matrix frames each open slice holds so far, by key (keys in order). */
    public Map<LiveScene.Key, Long> openFrames() {
        Map<LiveScene.Key, Long> open = new TreeMap<>();
        for (Map.Entry<LiveScene.Key, State> e : states.entrySet()) {
            State s = e.getValue();
            LiveScene slice = s.last.minus(s.base);
            if (s.openedNanos >= 0 && slice != null) {
                open.put(e.getKey(), slice.matrixFrames());
            }
        }
        return open;
    }

    /**
     * Closes every open slice (Matrix closes them when an Activity pauses; here, when the watch
     * ends), reporting those with more than 20 frames.
     */
    public List<MatrixReport> flush(long wallMillis) {
        List<MatrixReport> reports = new ArrayList<>();
        for (State s : states.values()) {
            LiveScene slice = s.last.minus(s.base);
            if (s.openedNanos >= 0 && slice != null && slice.matrixFrames() > TopRow.MIN_MATRIX_FRAMES_EXCLUSIVE) {
                reports.add(report(slice, wallMillis, device.get()));
            }
            s.base = s.last;
            s.openedNanos = -1;
        }
        return reports;
    }

    /** A Matrix report of one slice's counters. */
    public static MatrixReport report(LiveScene slice, long wallMillis, MatrixDevice device) {
        long n = slice.matrixFrames();
        int[] level = new int[MatrixRule.LEVEL_COUNT];
        int[] sum = new int[MatrixRule.LEVEL_COUNT];
        for (int l = 0; l < level.length; l++) {
            level[l] = (int) Math.min(Integer.MAX_VALUE, slice.levelCount(l));
            // Matrix sums dropped frames in an int that wraps (two frames of 2^31 - 1 print -2): so does this.
            sum[l] = (int) slice.levelSum(l);
        }
        float fps = (float) (1e9 / ((double) slice.costNanos() / n));
        long[] stages = slice.stageSums();
        long[] avg = null;
        if (stages != null) {
            avg = new long[FrameMetric.COUNT];
            for (int m = 0; m < avg.length; m++) {
                avg[m] = stages[m] / n;
            }
        }
        return new MatrixReport(device, slice.scene(), level, sum, fps, avg, stages != null,
                Math.round((float) (slice.droppedSum() / n)), (int) (float) (slice.refreshSum() / n),
                slice.packageName(), wallMillis);
    }
}
