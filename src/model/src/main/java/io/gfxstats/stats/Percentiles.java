package io.gfxstats.stats;

/**
 * The percentile rule of Android's dumps, in 64-bit arithmetic (Android's 32-bit version
 * overflows past about 21.7 million frames).
 */
public final class Percentiles {
    private Percentiles() {
    }

    /**
     * @param percentile 0..100
     * @param total      the frame count the percentile is taken of (for the CPU histogram, the
     *                   summary's total frames, not the bucket sum)
     * @param labels     bucket labels, ascending
     * @param counts     bucket counts, same length as labels
     * @return the label of the first bucket, walking down from the highest, at which the frames
     *         above the percentile position are used up; 0 if none
     */
    public static int of(int percentile, long total, int[] labels, long[] counts) {
        return of(percentile, total, labels, counts, 0);
    }

    /** As {@link #of(int, long, int[], long[])} with counts read from {@code counts[offset..]}. */
    public static int of(int percentile, long total, int[] labels, long[] counts, int offset) {
        long pos = percentile * total / 100;
        long remaining = total - pos;
        for (int i = labels.length - 1; i >= 0; i--) {
            remaining -= counts[offset + i];
            if (remaining <= 0) {
                return labels[i];
            }
        }
        return 0;
    }
}
