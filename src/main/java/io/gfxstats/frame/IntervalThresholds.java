package io.gfxstats.frame;

/**
 * The thresholds a tracker derives from a frame (or refresh) interval, computed once per
 * distinct interval instead of on every frame: recording a frame is on the rendering thread's
 * path, and the floating-point conversions cost more than the rest of the jank rules together.
 * Results are exactly those of the per-frame expressions.
 */
final class IntervalThresholds {
    /** Below this, floor(0.1 * interval) is an exact long and the integer comparison is exact. */
    private static final long EXACT_LIMIT = 1L << 52;

    private long interval = Long.MIN_VALUE;
    private long tenthFloor;
    private boolean exact;
    long slowUiThread;
    long slowBitmapUpload;
    long slowDraw;

    IntervalThresholds(long interval) {
        update(interval);
    }

    /** Makes the thresholds those of {@code interval}; cheap when it did not change. */
    IntervalThresholds update(long interval) {
        if (interval != this.interval) {
            this.interval = interval;
            double tenth = 0.1 * interval;
            exact = interval > -EXACT_LIMIT && interval < EXACT_LIMIT;
            tenthFloor = (long) Math.floor(tenth);
            slowUiThread = (long) (0.5 * interval);
            slowBitmapUpload = (long) (0.2 * interval);
            slowDraw = (long) (0.75 * interval);
        }
        return this;
    }

    /**
     * {@code gap > 0.1 * interval} as Java evaluates it (gap converted to double). For an integer
     * gap and |0.1 * interval| < 2^52 this equals {@code gap > floor(0.1 * interval)}: a gap
     * beyond +-2^53 is on the same side of the threshold either way.
     */
    boolean exceedsTenth(long gap) {
        return exact ? gap > tenthFloor : gap > 0.1 * interval;
    }
}
