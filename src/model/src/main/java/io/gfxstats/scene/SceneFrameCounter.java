package io.gfxstats.scene;

import io.gfxstats.buffer.SceneGroup;
import io.gfxstats.buffer.StripeWriter;
import io.gfxstats.frame.FrameInfo;
import io.gfxstats.matrix.FrameMetric;
import io.gfxstats.matrix.MatrixLevels;
import io.gfxstats.matrix.MatrixMode;
import io.gfxstats.matrix.MatrixRule;

/**
 * Counts one tracker's frames into the selected scene of its stripe with Matrix's per-frame
 * values ({@link MatrixRule}): dropped frames and level, their sums, Σ max(T, I), the refresh
 * rate and the FrameMetrics stage durations. The Android counters of the scene are counted by
 * the stripe itself (it mirrors them into the selected scene).
 *
 * <p>Per frame it allocates nothing and takes no lock; the refresh rate and interval of the
 * last frame interval seen are cached, so a frame costs one float division (plus one when the
 * interval changes). Confined to the tracker's thread.
 */
public final class SceneFrameCounter {
    private static final long Q20 = 1L << 20;

    private final MatrixMode mode;
    private final MatrixLevels levels;
    private final float configuredHz;
    private final boolean legacy;
    private final boolean timeMode;
    private long cachedInterval = Long.MIN_VALUE;
    private float refreshHz;
    private float intervalNanos;
    private long refreshMilliHz;
    /**
     * What the 2.1 rule gives every frame whose total T is at most the interval I (compared as
     * Java compares a long with a float, T widened to float): (T - I) / I is then zero or
     * negative, so the frame dropped 0 frames (Math.max(0f, -0f) is 0f), its level is the level
     * of 0, its dropped-frame sums add 0, and max(T, I) is I.
     */
    private int onTimeLevel;
    private long onTimeCostNanos;
    /**
     * The largest T with {@code T <= I} as Java compares them, so that the per-frame test is one
     * integer comparison; 0 in the legacy mode, whose dropped frames come from another span.
     */
    private long onTimeMaxTotal;
    private final long[] stages = new long[FrameMetric.COUNT];

    public SceneFrameCounter(MatrixMode mode, MatrixLevels levels, float configuredHz) {
        this.mode = mode;
        this.levels = levels;
        this.configuredHz = configuredHz;
        this.legacy = mode == MatrixMode.LEGACY;
        this.timeMode = mode == MatrixMode.TIME;
    }

    /** A frame given with all its timestamps; the stripe has its scene selected. */
    public void count(FrameInfo frame, StripeWriter sink) {
        long[] d = stages;
        for (int m = 0; m < FrameMetric.TOTAL + 1; m++) {
            long v = FrameMetric.value(frame, m);
            if (!MatrixRule.isValidDuration(v)) {
                return; // Matrix 2.1 drops the whole frame (an outlier, e.g. garbage FrameMetrics)
            }
            d[m] = v;
        }
        // A total of 0 is valid for Matrix 2.1 (0 <= d < 2^62 - 1): it counts as a frame that dropped
        // nothing, although Android's counters leave it out (docs/scenes.md, "Frames Matrix counts").
        long total = d[FrameMetric.TOTAL];
        long interval = frame.get(FrameInfo.FRAME_INTERVAL);
        countMatrix(total, interval, legacy ? legacyDropped(frame, total, interval) : -1, sink);
        for (int m = 0; m < FrameMetric.TOTAL; m++) {
            if (d[m] != 0) {
                sink.addSceneSum(SceneGroup.STAGE_BASE + m, d[m]);
            }
        }
        // Matrix 2.1 adds GPU_DURATION unchecked (it is not one of the nine durations it filters), so
        // a GPU duration of 0 or below counts too, as in the offline replay (Matrix21Slice).
        long gpu = FrameMetric.value(frame, FrameMetric.GPU);
        if (gpu != 0) {
            sink.addSceneSum(SceneGroup.STAGE_BASE + FrameMetric.GPU, gpu);
        }
    }

    /**
     * A frame known by its main times only: TOTAL is its one stage. A total of 0 counts, as
     * Matrix 2.1 counts it; a negative one or one of 2^62 - 1 ns or more does not.
     */
    public void count(long intendedVsync, long frameCompleted, long frameIntervalNanos, StripeWriter sink) {
        long total = frameCompleted - intendedVsync;
        if (!MatrixRule.isValidDuration(total) || intendedVsync <= 0) {
            return;
        }
        countCounted(total, frameIntervalNanos, sink);
    }

    /**
     * Makes {@link #onTimeMaxTotal}, {@link #onTimeLevel}, {@link #onTimeCostNanos} and
     * {@link #refreshMilliHz} those of {@code frameIntervalNanos}, for a tracker that adds the
     * values of frames within one interval itself ({@link io.gfxstats.buffer.StripeView}, for the client's per-frame path).
     */
    public void useInterval(long frameIntervalNanos) {
        if (frameIntervalNanos != cachedInterval) {
            intervalChanged(frameIntervalNanos);
        }
    }

    /**
     * The largest total (ns) of a counted frame that drops nothing at the interval last given:
     * such a frame's Matrix values are the other on-time constants. 0 in the legacy mode (its
     * dropped frames come from another span).
     */
    public long onTimeMaxTotal() {
        return onTimeMaxTotal;
    }

    /** The level of a frame that dropped nothing, at the interval last given. */
    public int onTimeLevel() {
        return onTimeLevel;
    }

    /** Matrix's max(T, I) of a frame that dropped nothing: I, at the interval last given. */
    public long onTimeCostNanos() {
        return onTimeCostNanos;
    }

    /** The refresh rate in milli-Hz at the interval last given. */
    public long refreshMilliHz() {
        return refreshMilliHz;
    }

    /** A valid frame longer than one interval (or any frame in the legacy mode). */
    private void countLate(long total, long frameIntervalNanos, StripeWriter sink) {
        int dropped = legacy ? MatrixRule.legacyDroppedFrames(total,
                frameIntervalNanos > 0 ? frameIntervalNanos : (long) interval(frameIntervalNanos)) : -1;
        countMatrix(total, frameIntervalNanos, dropped, sink);
    }

    /**
     * {@link #count(long, long, long, StripeWriter)} for a frame the Android rules counted, so
     * with a positive total and intended vsync: the per-frame path of a window tracker.
     */
    public void countCounted(long total, long frameIntervalNanos, StripeWriter sink) {
        useInterval(frameIntervalNanos);
        if (total <= onTimeMaxTotal) {
            // Most frames: within one interval the 2.1 rule drops nothing, so the division, the
            // rounding and the level are known without computing them (see onTimeLevel).
            sink.countMatrix(onTimeLevel, 0, onTimeCostNanos, 0, refreshMilliHz, total);
        } else if (MatrixRule.isValidDuration(total)) {
            countLate(total, frameIntervalNanos, sink);
        }
    }

    private int legacyDropped(FrameInfo frame, long total, long interval) {
        long issue = frame.get(FrameInfo.ISSUE_DRAW_COMMANDS_START);
        long span = issue > 0 ? issue - frame.get(FrameInfo.INTENDED_VSYNC) : total;
        return MatrixRule.legacyDroppedFrames(span, interval > 0 ? interval : (long) interval(interval));
    }

    private void countMatrix(long total, long frameInterval, int legacyDropped, StripeWriter sink) {
        float i = interval(frameInterval);
        float dropped = MatrixRule.droppedFrames(total, i);
        int whole = legacyDropped >= 0 ? legacyDropped : round(dropped);
        int level = timeMode ? levels.level(mode, whole, refreshHz) : levels.level(whole);
        sink.countMatrix(level, MatrixRule.sumContribution(whole), (long) MatrixRule.frameCostNanos(total, i),
                (long) (dropped * Q20), refreshMilliHz, total);
    }

    /**
     * {@code Math.round(d)} for the non-negative dropped frames, in three instructions instead
     * of Math.round's bit manipulation: a non-negative float plus 0.5 is exact in double (the
     * sum needs at most 26 significant bits), so truncating it is floor(d + 0.5), Math.round's
     * definition; from 2^31 on both give Integer.MAX_VALUE. {@code SceneFrameCounterTest}
     * compares the two over every float from 0.25 to 64, around every half up to 2^24 and at
     * random.
     */
    static int round(float nonNegative) {
        return (int) ((double) nonNegative + 0.5);
    }

    /**
     * The largest long T for which {@code T <= i} holds in Java (T widened to float, rounding to
     * nearest), for a positive {@code i}. Widening is monotonic and moves a long by at most half
     * an ulp of {@code i}, so the answer lies within one ulp of {@code (long) i}: a binary search
     * there takes one or two steps for display intervals, and is bounded for any float.
     */
    static long largestAtMost(float i) {
        if (i >= 0x1p63f) {
            return Long.MAX_VALUE;
        }
        long whole = (long) i;
        long ulp = Math.max(1, (long) Math.ulp(i));
        long lo = Math.max(0, whole - ulp); // <= i - ulp + 1: widens to at most i
        long hi = whole > Long.MAX_VALUE - ulp - 1 ? Long.MAX_VALUE : whole + ulp + 1; // widens above i
        while (hi - lo > 1) {
            long mid = lo + (hi - lo) / 2;
            if (mid <= i) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** Matrix's interval I (float ns) for a frame interval, cached for the last one seen. */
    private float interval(long frameInterval) {
        if (frameInterval != cachedInterval) {
            intervalChanged(frameInterval);
        }
        return intervalNanos;
    }

    /** Makes every per-interval value that of {@code frameInterval}. */
    private void intervalChanged(long frameInterval) {
        cachedInterval = frameInterval;
        refreshHz = MatrixRule.refreshHz(frameInterval, configuredHz);
        intervalNanos = MatrixRule.intervalNanos(refreshHz);
        // Truncated, not rounded: Matrix prints (int) of the mean rate, so a rate just below an integer
        // (1e9 / 8,333,334 ns = 119.99999 Hz) must stay below it in the milli-Hz sum (119 like Matrix, not 120).
        refreshMilliHz = (long) (refreshHz * 1000.0);
        onTimeLevel = timeMode ? levels.level(mode, 0, refreshHz) : levels.level(0);
        onTimeCostNanos = (long) MatrixRule.frameCostNanos(0, intervalNanos);
        onTimeMaxTotal = legacy ? 0 : largestAtMost(intervalNanos);
    }
}
