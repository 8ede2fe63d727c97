package io.gfxstats.matrix;

import io.gfxstats.frame.FrameInfo;

/**
 * Tencent Matrix's per-frame dropped-frame rule and levels, as static methods over primitives so
 * the client's per-frame path can call them without allocating, boxing or locking.
 *
 * <p>The 2.1 rule (Matrix 2.1.0, FrameMetrics path): with the refresh rate {@code r} as a float
 * and the frame interval {@code I = 1e9 / r} in float, a frame whose FrameMetrics
 * {@code TOTAL_DURATION} is {@code T} nanoseconds dropped {@code max(0, (T - I) / I)} frames,
 * computed in float ({@code T} converted to float first, as Java's binary promotion does), and
 * its level counts {@code Math.round} of that. The legacy rule (Matrix 0.8 to 2.0.2, Looper
 * path) is the long division {@code span / interval}. Levels use the lower bounds 3/9/24/42
 * (inclusive, tested from FROZEN down) unless configured otherwise; Matrix never scales them
 * with the refresh rate, the {@link MatrixMode#TIME} levels do (our extension).
 *
 * <p>Frames with any FrameMetrics duration below 0 or at least {@code 2^62 - 1} are outliers
 * Matrix 2.1 leaves out ({@link #isValidDuration}); callers leave them out of the Matrix
 * counters only, never out of Android's.
 */
public final class MatrixRule {
    public static final int BEST = 0;
    public static final int NORMAL = 1;
    public static final int MIDDLE = 2;
    public static final int HIGH = 3;
    public static final int FROZEN = 4;
    public static final int LEVEL_COUNT = 5;

    public static final int DEFAULT_NORMAL = 3;
    public static final int DEFAULT_MIDDLE = 9;
    public static final int DEFAULT_HIGH = 24;
    public static final int DEFAULT_FROZEN = 42;

    /** Durations at or above this ({@code Long.MAX_VALUE >>> 1 = 2^62 - 1}) are outliers. */
    public static final long INVALID_DURATION_FROM = Long.MAX_VALUE >>> 1;

    /** Matrix's fallback refresh rate when the display reports none. */
    public static final float DEFAULT_REFRESH_HZ = 60f;

    /** Nanoseconds per second, the numerator of every interval and fps of Matrix 2.1. */
    public static final float NANOS_PER_SECOND = 1_000_000_000f;

    /** What {@link #droppedFrames(MatrixMode, FrameInfo, float, boolean)} returns for an outlier frame. */
    public static final int INVALID = -1;

    private static final String[] LEVEL_NAMES = {"BEST", "NORMAL", "MIDDLE", "HIGH", "FROZEN"};

    private MatrixRule() {
    }

    /** Whether Matrix 2.1 accepts one FrameMetrics duration: {@code 0 <= d < 2^62 - 1}. */
    public static boolean isValidDuration(long nanos) {
        return nanos >= 0 && nanos < INVALID_DURATION_FROM;
    }

    /**
     * Whether all nine durations Matrix 2.1 checks (UNKNOWN_DELAY .. TOTAL, see
     * {@link FrameMetric}) are valid for a frame with a full FrameInfo.
     */
    public static boolean frameMetricsValid(FrameInfo frame) {
        for (int m = 0; m <= FrameMetric.TOTAL; m++) {
            if (!isValidDuration(FrameMetric.value(frame, m))) {
                return false;
            }
        }
        return true;
    }

    /**
     * The refresh rate Matrix would see for a frame: {@code configuredHz} when positive (a
     * display's reported rate), else {@code 1e9 / FrameInterval} in float, else 60 Hz.
     */
    public static float refreshHz(long frameIntervalNanos, float configuredHz) {
        if (configuredHz > 0f) {
            return configuredHz;
        }
        if (frameIntervalNanos > 0) {
            return NANOS_PER_SECOND / frameIntervalNanos;
        }
        return DEFAULT_REFRESH_HZ;
    }

    /** The frame interval {@code 1e9 / r} in float, as Matrix 2.1 computes it. */
    public static float intervalNanos(float refreshHz) {
        return NANOS_PER_SECOND / refreshHz;
    }

    /** Matrix 2.1's dropped frames: {@code max(0, (T - I) / I)} in float. */
    public static float droppedFrames(long totalNanos, float intervalNanos) {
        return Math.max(0f, (totalNanos - intervalNanos) / intervalNanos);
    }

    /** The whole dropped frames a 2.1 level and sum count: {@code Math.round} (saturating). */
    public static int roundedDroppedFrames(float droppedFrames) {
        return Math.round(droppedFrames);
    }

    /** {@link #droppedFrames} then {@link #roundedDroppedFrames}, for one frame. */
    public static int droppedFrames21(long totalNanos, float refreshHz) {
        return Math.round(droppedFrames(totalNanos, intervalNanos(refreshHz)));
    }

    /**
     * The legacy rule: {@code span / interval} in long division (truncating towards zero), as an
     * int. Matrix casts the quotient to int unchecked; here it saturates, which differs only for
     * spans of years.
     */
    public static int legacyDroppedFrames(long spanNanos, long intervalNanos) {
        long q = spanNanos / intervalNanos;
        return (int) Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, q));
    }

    /**
     * One frame's whole dropped frames under {@code mode}, or {@link #INVALID} when Matrix 2.1
     * would leave the frame out. With {@code fullFrameInfo} the nine FrameMetrics durations are
     * checked, else (a frame known only by its main times) TOTAL alone. The legacy span is
     * IssueDrawCommandsStart - IntendedVsync (TOTAL when the frame has no IssueDrawCommandsStart)
     * over the frame's FrameInterval, else {@code (long) I}.
     */
    public static int droppedFrames(MatrixMode mode, FrameInfo frame, float refreshHz, boolean fullFrameInfo) {
        long total = FrameMetric.total(frame);
        if (fullFrameInfo ? !frameMetricsValid(frame) : !isValidDuration(total)) {
            return INVALID;
        }
        if (mode == MatrixMode.LEGACY) {
            long issue = frame.get(FrameInfo.ISSUE_DRAW_COMMANDS_START);
            long span = issue > 0 ? issue - frame.get(FrameInfo.INTENDED_VSYNC) : total;
            long interval = frame.get(FrameInfo.FRAME_INTERVAL);
            return legacyDroppedFrames(span, interval > 0 ? interval : (long) intervalNanos(refreshHz));
        }
        return droppedFrames21(total, refreshHz);
    }

    /** What one frame adds to Matrix 2.1's slice duration: {@code max(T, I)} in float. */
    public static float frameCostNanos(long totalNanos, float intervalNanos) {
        return Math.max(totalNanos, intervalNanos);
    }

    /** Level of whole dropped frames by the default bounds 3/9/24/42. */
    public static int level(int dropped) {
        return level(dropped, DEFAULT_NORMAL, DEFAULT_MIDDLE, DEFAULT_HIGH, DEFAULT_FROZEN);
    }

    /** Level of whole dropped frames by inclusive lower bounds, tested from FROZEN down. */
    public static int level(int dropped, int normal, int middle, int high, int frozen) {
        if (dropped >= frozen) {
            return FROZEN;
        }
        if (dropped >= high) {
            return HIGH;
        }
        if (dropped >= middle) {
            return MIDDLE;
        }
        if (dropped >= normal) {
            return NORMAL;
        }
        return BEST;
    }

    /**
     * Level with every bound scaled by {@code r / 60} and rounded (the {@link MatrixMode#TIME}
     * mode, our extension): a bound of b frames at 60 Hz becomes {@code round(b x r / 60)} frames
     * at r, about the same stall in time (3/9/24/42 become 6/18/48/84 at 120 Hz).
     */
    public static int timeLevel(int dropped, float refreshHz, int normal, int middle, int high, int frozen) {
        float scale = refreshHz / DEFAULT_REFRESH_HZ;
        return level(dropped, Math.round(normal * scale), Math.round(middle * scale), Math.round(high * scale),
                Math.round(frozen * scale));
    }

    /** What a frame adds to its level's dropped-frame sum: BEST adds {@code max(d, 0)}. */
    public static int sumContribution(int dropped) {
        return Math.max(dropped, 0);
    }

    /** The level's name as in Matrix's keys after {@code DROPPED_}. */
    public static String levelName(int level) {
        return LEVEL_NAMES[level];
    }
}
