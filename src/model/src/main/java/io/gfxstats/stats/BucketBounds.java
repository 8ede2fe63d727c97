package io.gfxstats.stats;

import java.util.function.LongToIntFunction;

/**
 * The {@code le} of each of Android's buckets in seconds: the bucket's upper bound, which is
 * where the next bucket starts (a bucket labelled 6 ms holds 6.0 to 6.999 ms, so its bound is
 * 7 ms); the open-ended last bucket is {@code +Inf}. Derived from {@link Histograms}'s own
 * index functions, so the bounds cannot drift from how frames are counted.
 */
public final class BucketBounds {
    private static final double[] CPU = bounds(Histograms.CPU_BUCKETS, Histograms::cpuBucketIndex);
    private static final double[] GPU = bounds(Histograms.GPU_BUCKETS, Histograms::gpuBucketIndex);
    private static final double[] CPU_LOWER = lower(CPU);
    private static final double[] GPU_LOWER = lower(GPU);

    private BucketBounds() {
    }

    /** 154 upper bounds in seconds, the last {@code +Inf}. */
    public static double[] cpu() {
        return CPU.clone();
    }

    /** 26 upper bounds in seconds, the last {@code +Inf}. */
    public static double[] gpu() {
        return GPU.clone();
    }

    /** Lower bound in seconds of the CPU bucket at {@code index} (0 for the first). */
    public static double cpuLower(int index) {
        return CPU_LOWER[index];
    }

    public static double gpuLower(int index) {
        return GPU_LOWER[index];
    }

    private static double[] bounds(int buckets, LongToIntFunction index) {
        double[] upper = new double[buckets];
        int last = 0;
        // Whole milliseconds are enough: every bucket edge of Android's histograms is one.
        for (long ms = 0; last < buckets - 1; ms++) {
            int i = index.applyAsInt(ms * 1_000_000L);
            if (i != last) {
                if (i != last + 1) {
                    throw new IllegalStateException("bucket " + (last + 1) + " is empty at " + ms + " ms");
                }
                upper[last] = ms / 1000.0;
                last = i;
            }
        }
        upper[buckets - 1] = Double.POSITIVE_INFINITY;
        return upper;
    }

    private static double[] lower(double[] upper) {
        double[] lower = new double[upper.length];
        System.arraycopy(upper, 0, lower, 1, upper.length - 1);
        return lower;
    }
}
