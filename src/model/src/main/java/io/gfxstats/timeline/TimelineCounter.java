package io.gfxstats.timeline;

/**
 * The FrameTimeline counters of one (package, version, day), in their one order: the elements of
 * the mapped buffer's FrameTimeline counter group, of {@link TimelineCounters} and of the
 * persisted {@code GfxstatsFrameTimeline} proto. New counters go at the end.
 */
public enum TimelineCounter {
    /** SurfaceFrames recorded, with or without a token. */
    FRAMES,
    /** Frames with a token (prediction valid or expired): TimeStats' totalTimelineFrames. */
    TIMELINE_FRAMES,
    /** Frames with a TimeStats janky reason (spec 3.3). */
    JANKY_FRAMES,
    JANK_DISPLAY_HAL,
    JANK_SF_CPU_DEADLINE_MISSED,
    JANK_SF_GPU_DEADLINE_MISSED,
    JANK_APP_DEADLINE_MISSED,
    JANK_PREDICTION_ERROR,
    JANK_SF_SCHEDULING,
    JANK_BUFFER_STUFFING,
    JANK_UNKNOWN,
    JANK_SF_STUFFING,
    JANK_DROPPED,
    JANK_NON_ANIMATING,
    JANK_APP_RESYNCED_JITTER,
    JANK_DISPLAY_NOT_ON,
    JANK_DISPLAY_MODE_CHANGE_IN_PROGRESS,
    JANK_DISPLAY_POWER_MODE_CHANGE_IN_PROGRESS,
    PRESENT_ON_TIME,
    PRESENT_LATE,
    PRESENT_EARLY,
    PRESENT_DROPPED,
    PRESENT_UNKNOWN,
    FINISH_ON_TIME,
    FINISH_LATE,
    FINISH_UNKNOWN,
    SEVERITY_NONE,
    SEVERITY_PARTIAL,
    SEVERITY_FULL,
    SEVERITY_UNKNOWN,
    PREDICTION_VALID,
    PREDICTION_EXPIRED,
    PREDICTION_NONE,
    /** Frames classified without the display side (client-only mode, spec 6.3). */
    DISPLAY_UNKNOWN_FRAMES,
    /**
     * Client-only frames presented late although the app finished on time: Android would call
     * them SurfaceFlinger Scheduling or Prediction Error, here the compositor/display side is
     * simply not known.
     */
    LATE_DISPLAY_UNKNOWN,
    PRESENT_DELAY_0,
    PRESENT_DELAY_1,
    PRESENT_DELAY_2,
    PRESENT_DELAY_3,
    PRESENT_DELAY_4,
    PRESENT_DELAY_5,
    PRESENT_DELAY_6,
    PRESENT_DELAY_7,
    PRESENT_DELAY_8,
    PRESENT_DELAY_9,
    PRESENT_DELAY_10,
    PRESENT_DELAY_11,
    PRESENT_DELAY_12,
    PRESENT_DELAY_13,
    PRESENT_DELAY_14;

    private static final TimelineCounter[] VALUES = values();

    /** How many counters there are. */
    public static final int COUNT = VALUES.length;

    /** The counter of jank bit number {@code index} (table order of {@link JankType}). */
    public static final int FIRST_JANK = JANK_DISPLAY_HAL.ordinal();
    public static final int FIRST_PRESENT_DELAY = PRESENT_DELAY_0.ordinal();

    /**
     * Upper bounds (inclusive, ms) of the present-delay histogram buckets: the delay of a
     * presented frame with a valid prediction, actual minus predicted present. The first bucket
     * holds frames on time or early; the last has no bound.
     */
    static final long[] PRESENT_DELAY_BOUNDS_MS = {0, 2, 4, 6, 8, 12, 17, 25, 34, 50, 67, 100, 150, 250};

    public static TimelineCounter of(int ordinal) {
        return VALUES[ordinal];
    }

    /** Number of present-delay buckets. */
    public static int presentDelayBuckets() {
        return PRESENT_DELAY_BOUNDS_MS.length + 1;
    }

    /** Label of present-delay bucket {@code i}, e.g. {@code "<=2ms"} or {@code ">250ms"}. */
    public static String presentDelayLabel(int i) {
        return i < PRESENT_DELAY_BOUNDS_MS.length ? "<=" + PRESENT_DELAY_BOUNDS_MS[i] + "ms"
                : ">" + PRESENT_DELAY_BOUNDS_MS[PRESENT_DELAY_BOUNDS_MS.length - 1] + "ms";
    }

    /** The bucket of a present delay in ns. */
    public static int presentDelayBucket(long delayNs) {
        long[] bounds = PRESENT_DELAY_BOUNDS_NS;
        for (int i = 0; i < bounds.length; i++) {
            if (delayNs <= bounds[i]) {
                return i;
            }
        }
        return bounds.length;
    }

    private static final long[] PRESENT_DELAY_BOUNDS_NS = new long[PRESENT_DELAY_BOUNDS_MS.length];

    static {
        for (int i = 0; i < PRESENT_DELAY_BOUNDS_NS.length; i++) {
            PRESENT_DELAY_BOUNDS_NS[i] = PRESENT_DELAY_BOUNDS_MS[i] * 1_000_000L;
        }
    }
}
