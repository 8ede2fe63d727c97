package io.gfxstats.matrix;

import io.gfxstats.frame.FrameInfo;

/**
 * Android's FrameMetrics durations as differences of two FrameInfo fields (Android 12+
 * {@code FrameMetrics.DURATIONS}): {@code end - start}, no clamp and no sync-stall correction,
 * unlike {@link FrameInfo#duration}. Indices are Matrix 2.1's {@code FrameDuration} order, which
 * is also the order of the report's stage keys. One place for this table: the per-frame rule,
 * the offline reports and the stage averages all read it.
 */
public final class FrameMetric {
    public static final int UNKNOWN_DELAY = 0;
    public static final int INPUT_HANDLING = 1;
    public static final int ANIMATION = 2;
    public static final int LAYOUT_MEASURE = 3;
    public static final int DRAW = 4;
    public static final int SYNC = 5;
    public static final int COMMAND_ISSUE = 6;
    public static final int SWAP_BUFFERS = 7;
    public static final int TOTAL = 8;
    public static final int GPU = 9;
    public static final int COUNT = 10;

    private static final int[] START = {
        FrameInfo.INTENDED_VSYNC, FrameInfo.HANDLE_INPUT_START, FrameInfo.ANIMATION_START,
        FrameInfo.PERFORM_TRAVERSALS_START, FrameInfo.DRAW_START, FrameInfo.SYNC_START,
        FrameInfo.ISSUE_DRAW_COMMANDS_START, FrameInfo.SWAP_BUFFERS, FrameInfo.INTENDED_VSYNC,
        FrameInfo.COMMAND_SUBMISSION_COMPLETED,
    };
    private static final int[] END = {
        FrameInfo.HANDLE_INPUT_START, FrameInfo.ANIMATION_START, FrameInfo.PERFORM_TRAVERSALS_START,
        FrameInfo.DRAW_START, FrameInfo.SYNC_QUEUED, FrameInfo.ISSUE_DRAW_COMMANDS_START,
        FrameInfo.SWAP_BUFFERS, FrameInfo.SWAP_BUFFERS_COMPLETED, FrameInfo.FRAME_COMPLETED,
        FrameInfo.GPU_COMPLETED,
    };
    private static final String[] KEYS = {
        "UNKNOWN_DELAY_DURATION", "INPUT_HANDLING_DURATION", "ANIMATION_DURATION", "LAYOUT_MEASURE_DURATION",
        "DRAW_DURATION", "SYNC_DURATION", "COMMAND_ISSUE_DURATION", "SWAP_BUFFERS_DURATION", "TOTAL_DURATION",
        "GPU_DURATION",
    };

    private FrameMetric() {
    }

    /** The metric's value for one frame: {@code t[end] - t[start]}. */
    public static long value(FrameInfo frame, int metric) {
        return frame.get(END[metric]) - frame.get(START[metric]);
    }

    /** FrameMetrics' TOTAL_DURATION: FrameCompleted - IntendedVsync. */
    public static long total(FrameInfo frame) {
        return frame.get(FrameInfo.FRAME_COMPLETED) - frame.get(FrameInfo.INTENDED_VSYNC);
    }

    /** The report key of a metric, e.g. {@code TOTAL_DURATION}. */
    public static String key(int metric) {
        return KEYS[metric];
    }
}
