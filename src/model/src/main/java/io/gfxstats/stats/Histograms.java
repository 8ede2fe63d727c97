package io.gfxstats.stats;

/**
 * Android's frame-time histogram geometry: bucket index for a duration and the label
 * ("render_millis") printed for each bucket.
 *
 * <p>CPU: 57 fast buckets (1 ms steps from 5 to 32, 2 ms steps to 48, 4 ms steps to 133) then
 * 97 slow buckets of 50 ms from 150 to 4950. GPU: 26 buckets, 1 ms each, the last open-ended.
 */
public final class Histograms {
    public static final int FAST_BUCKETS = 57;
    public static final int SLOW_BUCKETS = 97;
    public static final int CPU_BUCKETS = FAST_BUCKETS + SLOW_BUCKETS;
    public static final int GPU_BUCKETS = 26;

    static final int FAST_MIN_MILLIS = 5;
    static final int SLOW_START_MILLIS = 150;
    static final int SLOW_STEP_MILLIS = 50;
    /** Label of the open-ended last bucket of both histograms. */
    public static final int OPEN_END_LABEL = 4950;

    /** From this many milliseconds on, every duration is in the open-ended last bucket. */
    private static final int CPU_INDEX_LAST_MILLIS = SLOW_START_MILLIS + (SLOW_BUCKETS - 1) * SLOW_STEP_MILLIS;
    /** CPU bucket index (0..153, unsigned) by whole milliseconds 0..{@link #CPU_INDEX_LAST_MILLIS}. */
    private static final byte[] CPU_INDEX_BY_MILLIS = new byte[CPU_INDEX_LAST_MILLIS + 1];

    private static final int[] CPU_LABELS = new int[CPU_BUCKETS];
    private static final int[] GPU_LABELS = new int[GPU_BUCKETS];

    static {
        for (int i = 0; i < FAST_BUCKETS; i++) {
            CPU_LABELS[i] = fastLabel(i);
        }
        for (int i = 0; i < SLOW_BUCKETS; i++) {
            CPU_LABELS[FAST_BUCKETS + i] = SLOW_START_MILLIS + i * SLOW_STEP_MILLIS;
        }
        for (int i = 0; i < GPU_BUCKETS - 1; i++) {
            GPU_LABELS[i] = i + 1;
        }
        GPU_LABELS[GPU_BUCKETS - 1] = OPEN_END_LABEL;
        for (int ms = 0; ms <= CPU_INDEX_LAST_MILLIS; ms++) {
            CPU_INDEX_BY_MILLIS[ms] = (byte) cpuBucketIndexByArithmetic(ms * 1_000_000L);
        }
    }

    private Histograms() {
    }

    /** Upper end of the range held by fast bucket {@code i} (the inverse of the index folding). */
    private static int fastLabel(int i) {
        int folded = i + FAST_MIN_MILLIS;
        if (folded <= 32) {
            return folded;
        }
        if (folded <= 40) {
            return 32 + (folded - 32) * 2;
        }
        return 48 + (folded - 40) * 4 + 1;
    }

    /**
     * Index into the 154-bucket CPU histogram for a duration in nanoseconds. A table lookup by
     * whole milliseconds: every frame is counted here, and on a stream of varied durations the
     * branches of the folding arithmetic ({@link #cpuBucketIndexByArithmetic}) mispredict often.
     */
    public static int cpuBucketIndex(long durationNanos) {
        long ms = durationNanos / 1_000_000L;
        int i = ms <= 0 ? 0 : (int) Math.min(ms, CPU_INDEX_LAST_MILLIS);
        return CPU_INDEX_BY_MILLIS[i] & 0xFF;
    }

    /** The arithmetic the lookup table of {@link #cpuBucketIndex} is built from. */
    static int cpuBucketIndexByArithmetic(long durationNanos) {
        long ms = durationNanos / 1_000_000L;
        if (ms <= FAST_MIN_MILLIS) {
            return 0;
        }
        long x = ms;
        if (x > 48) {
            x = ((x - 48) >> 1) + 48;
        }
        if (x > 32) {
            x = ((x - 32) >> 1) + 32;
        }
        long fast = x - FAST_MIN_MILLIS;
        if (fast < FAST_BUCKETS) {
            return (int) fast;
        }
        // 136..149 ms land in the first slow bucket, as on Android (division truncates toward zero).
        long slow = (ms - SLOW_START_MILLIS) / SLOW_STEP_MILLIS;
        if (slow < 0) {
            slow = 0;
        } else if (slow > SLOW_BUCKETS - 1) {
            slow = SLOW_BUCKETS - 1;
        }
        return FAST_BUCKETS + (int) slow;
    }

    /** Index into the 26-bucket GPU histogram for a duration in nanoseconds (negative is invalid). */
    public static int gpuBucketIndex(long durationNanos) {
        long ms = durationNanos / 1_000_000L;
        return (int) Math.min(Math.max(ms, 0), GPU_BUCKETS - 1);
    }

    public static int cpuLabel(int index) {
        return CPU_LABELS[index];
    }

    public static int gpuLabel(int index) {
        return GPU_LABELS[index];
    }

    /** A copy of the 154 CPU labels. */
    public static int[] cpuLabels() {
        return CPU_LABELS.clone();
    }

    /** A copy of the 26 GPU labels. */
    public static int[] gpuLabels() {
        return GPU_LABELS.clone();
    }
}
