package io.gfxstats.stats;

/**
 * One flat numbering of every counter of a ProfileData. The in-memory model, the mapped buffer
 * and the harvest marks of day files all store counters in this order, so converting between
 * them is a loop over indices, never a field-by-field copy.
 *
 * <pre>
 *   0                      total frames
 *   1                      janky frames
 *   2                      janky frames (legacy)
 *   3 .. 9                 JankType counters, in JankType order
 *   10 .. 163              CPU histogram, 154 buckets (57 fast + 97 slow)
 *   164 .. 189             GPU histogram, 26 buckets
 * </pre>
 */
public final class Counters {
    public static final int TOTAL_FRAMES = 0;
    public static final int JANKY_FRAMES = TOTAL_FRAMES + 1;
    public static final int JANKY_FRAMES_LEGACY = JANKY_FRAMES + 1;
    public static final int JANK_TYPE_BASE = JANKY_FRAMES_LEGACY + 1;
    public static final int CPU_BUCKET_BASE = JANK_TYPE_BASE + JankType.COUNT;
    public static final int GPU_BUCKET_BASE = CPU_BUCKET_BASE + Histograms.CPU_BUCKETS;
    public static final int COUNT = GPU_BUCKET_BASE + Histograms.GPU_BUCKETS;

    private Counters() {
    }

    public static int cpuBucket(int index) {
        return CPU_BUCKET_BASE + index;
    }

    public static int gpuBucket(int index) {
        return GPU_BUCKET_BASE + index;
    }

    /** The counter a CPU (total frame) duration in nanoseconds is counted in. */
    public static int cpuCounterForNanos(long durationNanos) {
        return CPU_BUCKET_BASE + Histograms.cpuBucketIndex(durationNanos);
    }

    /** The counter a GPU duration in nanoseconds is counted in. */
    public static int gpuCounterForNanos(long durationNanos) {
        return GPU_BUCKET_BASE + Histograms.gpuBucketIndex(durationNanos);
    }
}
