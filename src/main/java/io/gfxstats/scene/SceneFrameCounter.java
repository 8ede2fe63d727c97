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
        long total = d[FrameMetric.TOTAL];
        if (total <= 0) {
            return;
        }
        long interval = frame.get(FrameInfo.FRAME_INTERVAL);
        countMatrix(total, interval, legacy ? legacyDropped(frame, total, interval) : -1, sink);
        for (int m = 0; m < FrameMetric.TOTAL; m++) {
            if (d[m] != 0) {
                sink.addSceneSum(SceneGroup.STAGE_BASE + m, d[m]);
            }
        }
        long gpu = FrameMetric.value(frame, FrameMetric.GPU);
        if (gpu > 0 && frame.get(FrameInfo.COMMAND_SUBMISSION_COMPLETED) > 0) {
            sink.addSceneSum(SceneGroup.STAGE_BASE + FrameMetric.GPU, gpu);
        }
    }

    /** A frame known by its main times only: TOTAL is its one stage. */
    public void count(long intendedVsync, long frameCompleted, long frameIntervalNanos, StripeWriter sink) {
        long total = frameCompleted - intendedVsync;
        if (total <= 0 || !MatrixRule.isValidDuration(total) || intendedVsync <= 0) {
            return;
        }
        int dropped = legacy ? MatrixRule.legacyDroppedFrames(total,
                frameIntervalNanos > 0 ? frameIntervalNanos : (long) interval(frameIntervalNanos)) : -1;
        countMatrix(total, frameIntervalNanos, dropped, sink);
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

    /** Matrix's interval I (float ns) for a frame interval, cached for the last one seen. */
    private float interval(long frameInterval) {
        if (frameInterval != cachedInterval) {
            cachedInterval = frameInterval;
            refreshHz = MatrixRule.refreshHz(frameInterval, configuredHz);
            intervalNanos = MatrixRule.intervalNanos(refreshHz);
            refreshMilliHz = Math.round(refreshHz * 1000.0);
        }
        return intervalNanos;
    }
}
