package io.gfxstats.matrix;

/**
 * One Matrix 2.0.x slice ({@code FrameTracer.FPSCollector}'s item), with its arithmetic: whole
 * dropped frames by the legacy long division, a slice cost in whole milliseconds that adds
 * {@code (d + 1) x interval_ms} and truncates on every frame (a {@code long += float}; 16 per
 * on-time frame at 60 Hz), and {@code fps = min(cap, 1000 x frames / cost)} in float. Not
 * thread-safe.
 */
public final class Matrix20Slice {
    private final MatrixLevels levels;
    private final int[] dropLevel = new int[MatrixRule.LEVEL_COUNT];
    private final int[] dropSum = new int[MatrixRule.LEVEL_COUNT];
    private int sumFrame;
    private long sumFrameCost;

    public Matrix20Slice(MatrixLevels levels) {
        this.levels = levels;
    }

    /** Adds one frame whose span (Matrix: message end - intended vsync) took {@code spanNanos}. */
    public void append(long spanNanos, long intervalNanos) {
        int dropped = MatrixRule.legacyDroppedFrames(spanNanos, intervalNanos);
        float intervalMillis = intervalNanos / 1e6f;
        // Matrix's `long += float`, spelled out: the sum goes through float and is truncated every frame.
        sumFrameCost = (long) (sumFrameCost + (dropped + 1) * intervalMillis);
        sumFrame++;
        int level = levels.level(dropped);
        dropLevel[level]++;
        dropSum[level] += MatrixRule.sumContribution(dropped);
    }

    /** Adds {@code frames} frames of {@code costMillis} in total, for checks of the fps formula. */
    void appendCost(int frames, long costMillis) {
        sumFrame += frames;
        sumFrameCost += costMillis;
        dropLevel[MatrixRule.BEST] += frames;
    }

    public int count() {
        return sumFrame;
    }

    /** The summed cost in whole milliseconds (Matrix reports once it reaches the time slice). */
    public long costMillis() {
        return sumFrameCost;
    }

    /** {@code min(cap, 1000f * frames / cost)} in float. */
    public float fps(float cap) {
        return Math.min(cap, 1000f * sumFrame / sumFrameCost);
    }

    public MatrixReport report(MatrixDevice device, String scene, String process, long timeMillis, float cap) {
        if (sumFrame == 0) {
            throw new IllegalStateException("empty slice");
        }
        return new MatrixReport(device, scene, dropLevel, dropSum, fps(cap), null, false, 0, 0, process, timeMillis);
    }
}
