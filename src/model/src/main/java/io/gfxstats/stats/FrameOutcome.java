package io.gfxstats.stats;

/**
 * What one frame adds to the {@link Counters}, packed into an int: the jank rules decide it
 * ({@code ModernJankTracker.classify}) and a writer counts it in one call. On the rendering
 * thread's path this keeps the rules' state and the counters' addresses apart without a call per
 * counter (docs/benchmarks.md, "Where the time goes"). Any sink counts an outcome with
 * {@link #countInto}; the mapped stripe has its own writer for the common shape.
 *
 * <pre>
 *  bits  0-7   CPU histogram bucket (when COUNTED)
 *  bits  8-15  GPU histogram bucket + 1 (0: no GPU time)
 *  bit  16     COUNTED: the frame counts (total frames and its CPU bucket)
 *  bits 17-18  High input latency, counted 0, 1 or 2 times (legacy and modern rule)
 *  bit  19     Janky frames (legacy)
 *  bit  20     Frame deadline missed (legacy)
 *  bit  21     Frame deadline missed
 *  bits 22-25  Missed Vsync, Slow UI thread, Slow bitmap uploads, Slow issue draw commands
 *  bit  26     Janky frames (set with bit 21 by the modern rule)
 * </pre>
 *
 * 0 ({@link #NONE}) counts nothing.
 */
public final class FrameOutcome {
    public static final int NONE = 0;
    public static final int CPU_MASK = 0xFF;
    public static final int GPU_SHIFT = 8;
    public static final int COUNTED = 1 << 16;
    public static final int LATENCY_SHIFT = 17;
    /** One count of High input latency; added (not or-ed) when both rules find it. */
    public static final int LATENCY_ONE = 1 << LATENCY_SHIFT;
    public static final int JANKY_LEGACY = 1 << 19;
    public static final int MISSED_DEADLINE_LEGACY = 1 << 20;
    public static final int MISSED_DEADLINE = 1 << 21;
    public static final int MISSED_VSYNC = 1 << 22;
    public static final int SLOW_UI_THREAD = 1 << 23;
    public static final int SLOW_BITMAP_UPLOAD = 1 << 24;
    public static final int SLOW_DRAW = 1 << 25;
    public static final int JANKY = 1 << 26;
    /** What the modern rule finds for a frame that missed its deadline: the miss makes it janky. */
    public static final int MISSED_AND_JANKY = MISSED_DEADLINE | JANKY;
    /** The stage causes of a missed deadline. */
    public static final int STAGES = MISSED_VSYNC | SLOW_UI_THREAD | SLOW_BITMAP_UPLOAD | SLOW_DRAW;
    /** The counters most frames leave alone; a writer can test them together. */
    public static final int RARE = JANKY_LEGACY | MISSED_DEADLINE_LEGACY | MISSED_DEADLINE | STAGES | JANKY;

    /** The counter of each rare bit, by bit position (the one place that maps them). */
    private static final int[] RARE_COUNTER = new int[Integer.SIZE];

    static {
        rare(JANKY_LEGACY, Counters.JANKY_FRAMES_LEGACY);
        rare(MISSED_DEADLINE_LEGACY, JankType.MISSED_DEADLINE_LEGACY.counter());
        rare(MISSED_DEADLINE, JankType.MISSED_DEADLINE.counter());
        rare(MISSED_VSYNC, JankType.MISSED_VSYNC.counter());
        rare(SLOW_UI_THREAD, JankType.SLOW_UI_THREAD.counter());
        rare(SLOW_BITMAP_UPLOAD, JankType.SLOW_BITMAP_UPLOAD.counter());
        rare(SLOW_DRAW, JankType.SLOW_DRAW.counter());
        rare(JANKY, Counters.JANKY_FRAMES);
    }

    private static void rare(int bit, int counter) {
        RARE_COUNTER[Integer.numberOfTrailingZeros(bit)] = counter;
    }

    private FrameOutcome() {
    }

    /** A counted frame in CPU bucket {@code cpuBucket} (0..{@link Histograms#CPU_BUCKETS}-1). */
    public static int counted(int cpuBucket) {
        return COUNTED | cpuBucket;
    }

    /** {@code outcome} with its GPU time in bucket {@code gpuBucket} (0..{@link Histograms#GPU_BUCKETS}-1). */
    public static int withGpu(int outcome, int gpuBucket) {
        return outcome | (gpuBucket + 1) << GPU_SHIFT;
    }

    public static boolean isCounted(int outcome) {
        return (outcome & COUNTED) != 0;
    }

    public static int cpuBucket(int outcome) {
        return outcome & CPU_MASK;
    }

    /** The GPU bucket, or -1 for a frame without GPU time. */
    public static int gpuBucket(int outcome) {
        return (outcome >>> GPU_SHIFT & 0xFF) - 1;
    }

    /** How many times the frame counts High input latency: 0, 1 or 2. */
    public static int latencyCount(int outcome) {
        return outcome >>> LATENCY_SHIFT & 3;
    }

    /**
     * Counts an outcome into any sink: total and CPU bucket first (a reader that sees a frame's
     * other counters then also sees its total), then jank counters, then the GPU bucket.
     */
    public static void countInto(int outcome, StatsSink sink) {
        if (isCounted(outcome)) {
            sink.increment(Counters.TOTAL_FRAMES);
            sink.increment(Counters.CPU_BUCKET_BASE + cpuBucket(outcome));
        }
        for (int n = latencyCount(outcome); n > 0; n--) {
            sink.increment(JankType.HIGH_INPUT_LATENCY.counter());
        }
        countRare(outcome, sink);
        int gpu = gpuBucket(outcome);
        if (gpu >= 0) {
            sink.increment(Counters.GPU_BUCKET_BASE + gpu);
        }
    }

    /**
     * The counter of the lowest rare bit set in {@code rareBits}: with
     * {@code for (int r = outcome & RARE; r != 0; r &= r - 1)} a writer visits each rare counter
     * of an outcome once, in bit order.
     */
    public static int lowestRareCounter(int rareBits) {
        return RARE_COUNTER[Integer.numberOfTrailingZeros(rareBits)];
    }

    /** The counters of the rare bits set in {@code outcome}. */
    public static void countRare(int outcome, StatsSink sink) {
        for (int r = outcome & RARE; r != 0; r &= r - 1) {
            sink.increment(lowestRareCounter(r));
        }
    }
}
