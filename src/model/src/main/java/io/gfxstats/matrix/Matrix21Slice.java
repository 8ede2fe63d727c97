package io.gfxstats.matrix;

import io.gfxstats.frame.FrameInfo;

/**
 * One Matrix 2.1 slice fed frame by frame, with Matrix's own arithmetic, so replayed reports are
 * bit for bit what Matrix would print: long sums of the FrameMetrics durations (long-divided at
 * the end), float sums of the dropped frames, of the refresh rates and of {@code max(T, I)} (in
 * frame order: float addition is not associative), level counts and sums of
 * {@code Math.round(dropped)}. Frames Matrix 2.1 leaves out (a duration below 0 or at least
 * {@code 2^62 - 1}) are refused. Not thread-safe.
 */
public final class Matrix21Slice {
    /** Matrix emits a slice only with more than this many frames. */
    public static final int MIN_FRAMES_EXCLUSIVE = 20;

    private final MatrixLevels levels;
    private final long[] durations = new long[FrameMetric.COUNT];
    private final int[] dropLevel = new int[MatrixRule.LEVEL_COUNT];
    private final int[] dropSum = new int[MatrixRule.LEVEL_COUNT];
    private float dropCount;
    private float refreshRate;
    private float totalDuration;
    private int count;
    private int refused;

    public Matrix21Slice(MatrixLevels levels) {
        this.levels = levels;
    }

    /**
     * Adds one frame with every FrameMetrics duration (a framestats row) at refresh rate
     * {@code refreshHz}. {@code modernMetrics}: the Android 12+ durations table (SWAP_BUFFERS to
     * SwapBuffersCompleted, GPU_DURATION); else the older one (SWAP_BUFFERS to FrameCompleted, no
     * GPU). Returns false, counting nothing, for a frame Matrix 2.1 leaves out.
     */
    public boolean append(FrameInfo frame, float refreshHz, boolean modernMetrics) {
        for (int m = FrameMetric.UNKNOWN_DELAY; m <= FrameMetric.TOTAL; m++) {
            if (!MatrixRule.isValidDuration(metric(frame, m, modernMetrics))) {
                refused++;
                return false;
            }
        }
        for (int m = FrameMetric.UNKNOWN_DELAY; m <= FrameMetric.TOTAL; m++) {
            durations[m] += metric(frame, m, modernMetrics);
        }
        if (modernMetrics) {
            durations[FrameMetric.GPU] += FrameMetric.value(frame, FrameMetric.GPU);
        }
        long total = FrameMetric.total(frame);
        float interval = MatrixRule.intervalNanos(refreshHz);
        float dropped = MatrixRule.droppedFrames(total, interval);
        dropCount += dropped;
        int whole = MatrixRule.roundedDroppedFrames(dropped);
        int level = levels.level(whole);
        dropLevel[level]++;
        dropSum[level] += MatrixRule.sumContribution(whole);
        refreshRate += refreshHz;
        totalDuration += MatrixRule.frameCostNanos(total, interval);
        count++;
        return true;
    }

    private static long metric(FrameInfo frame, int m, boolean modernMetrics) {
        if (!modernMetrics && m == FrameMetric.SWAP_BUFFERS) {
            return frame.get(FrameInfo.FRAME_COMPLETED) - frame.get(FrameInfo.SWAP_BUFFERS);
        }
        return FrameMetric.value(frame, m);
    }

    /** Frames counted. */
    public int count() {
        return count;
    }

    /** Frames refused by the outlier filter. */
    public int refused() {
        return refused;
    }

    /** Whether Matrix would emit this slice: more than 20 frames. */
    public boolean reportable() {
        return count > MIN_FRAMES_EXCLUSIVE;
    }

    /** The fps Matrix prints: {@code 1e9 / (Σ max(T, I) / n)}, all in float. */
    public float fps() {
        float avgDuration = totalDuration / count;
        return MatrixRule.NANOS_PER_SECOND / avgDuration;
    }

    /**
     * The report of the slice (whatever its size; check {@link #reportable()}).
     *
     * @param withGpu whether GPU_DURATION is printed (frames from Android 12+)
     */
    public MatrixReport report(MatrixDevice device, String scene, String process, long timeMillis, boolean withGpu) {
        if (count == 0) {
            throw new IllegalStateException("empty slice");
        }
        long[] avg = new long[FrameMetric.COUNT];
        for (int m = 0; m < avg.length; m++) {
            avg[m] = durations[m] / count;
        }
        float avgDropped = dropCount / count;
        float avgRefresh = refreshRate / count;
        return new MatrixReport(device, scene, dropLevel, dropSum, fps(), avg, withGpu,
                Math.round(avgDropped), (int) avgRefresh, process, timeMillis);
    }
}
