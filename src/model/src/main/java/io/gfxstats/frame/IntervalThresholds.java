package io.gfxstats.frame;

/**
 * The thresholds a tracker derives from a frame (or refresh) interval, computed once per
 * distinct interval instead of on every frame: recording a frame is on the rendering thread's
 * path, and the floating-point conversions cost more than the rest of the jank rules together.
 * Results are exactly those of the per-frame expressions.
 */
final class IntervalThresholds {
    private long interval = Long.MIN_VALUE;
    /** The largest gap that does not exceed a tenth of the interval as Java compares them. */
    private long tenthBound;
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
            tenthBound = tenthBound(interval);
            slowUiThread = (long) (0.5 * interval);
            slowBitmapUpload = (long) (0.2 * interval);
            slowDraw = (long) (0.75 * interval);
        }
        return this;
    }

    /** {@code gap > 0.1 * interval} as Java evaluates it (gap converted to double), in one integer comparison. */
    boolean exceedsTenth(long gap) {
        return gap > tenthBound;
    }

    /**
     * The largest long g with {@code (double) g <= 0.1 * interval}. Converting a long to double
     * never reverses an order, so {@code gap > bound} is exactly {@code gap > 0.1 * interval} for
     * every gap. Below 2^52 the bound is floor(0.1 * interval); beyond, several longs round to
     * the same double and a short search finds the last of them.
     */
    static long tenthBound(long interval) {
        double tenth = 0.1 * interval;
        long lo = (long) Math.floor(tenth); // |tenth| < 2^60: an exact long, and (double) lo <= tenth
        long step = Math.max(1, (long) Math.ulp(tenth));
        long hi = lo + step;
        while ((double) hi <= tenth) {
            lo = hi;
            hi += step;
        }
        while (hi - lo > 1) {
            long mid = lo + (hi - lo) / 2;
            if ((double) mid <= tenth) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return lo;
    }
}
