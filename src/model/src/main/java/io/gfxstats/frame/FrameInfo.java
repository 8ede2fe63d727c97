package io.gfxstats.frame;

import java.util.Arrays;

/**
 * One frame's timing: int64 CLOCK_MONOTONIC nanosecond timestamps plus a flags word, in the
 * modern (Android 12+) FrameInfo field order, which is also the column order of framestats
 * rows. Reused across frames by callers that must not allocate per frame.
 */
public final class FrameInfo {
    public static final int FLAGS = 0;
    public static final int FRAME_TIMELINE_VSYNC_ID = 1;
    public static final int INTENDED_VSYNC = 2;
    public static final int VSYNC = 3;
    public static final int INPUT_EVENT_ID = 4;
    public static final int HANDLE_INPUT_START = 5;
    public static final int ANIMATION_START = 6;
    public static final int PERFORM_TRAVERSALS_START = 7;
    public static final int DRAW_START = 8;
    public static final int FRAME_DEADLINE = 9;
    public static final int FRAME_START_TIME = 10;
    public static final int FRAME_INTERVAL = 11;
    public static final int SYNC_QUEUED = 12;
    public static final int SYNC_START = 13;
    public static final int ISSUE_DRAW_COMMANDS_START = 14;
    public static final int SWAP_BUFFERS = 15;
    public static final int FRAME_COMPLETED = 16;
    public static final int DEQUEUE_BUFFER_DURATION = 17;
    public static final int QUEUE_BUFFER_DURATION = 18;
    public static final int GPU_COMPLETED = 19;
    public static final int SWAP_BUFFERS_COMPLETED = 20;
    public static final int DISPLAY_PRESENT_TIME = 21;
    public static final int COMMAND_SUBMISSION_COMPLETED = 22;
    public static final int FIELD_COUNT = 23;

    /** Window visibility or layout changed. */
    public static final long FLAG_WINDOW_VISIBILITY_CHANGED = 1;
    /** Frame produced by a render-thread animation. */
    public static final long FLAG_RT_ANIMATION = 2;
    /** Drawn with lockHardwareCanvas: counted in the histogram, exempt from all jank accounting. */
    public static final long FLAG_SURFACE_CANVAS = 4;
    public static final long FLAG_SKIPPED_FRAME = 8;

    private static final String[] NAMES = {
        "Flags", "FrameTimelineVsyncId", "IntendedVsync", "Vsync", "InputEventId",
        "HandleInputStart", "AnimationStart", "PerformTraversalsStart", "DrawStart",
        "FrameDeadline", "FrameStartTime", "FrameInterval", "SyncQueued", "SyncStart",
        "IssueDrawCommandsStart", "SwapBuffers", "FrameCompleted", "DequeueBufferDuration",
        "QueueBufferDuration", "GpuCompleted", "SwapBuffersCompleted", "DisplayPresentTime",
        "CommandSubmissionCompleted",
    };

    private final long[] fields = new long[FIELD_COUNT];

    public long get(int field) {
        return fields[field];
    }

    public FrameInfo set(int field, long value) {
        fields[field] = value;
        return this;
    }

    /**
     * The frame a renderer that knows only its main times stands for: IntendedVsync, Vsync,
     * FrameDeadline = {@code intendedVsync + frameIntervalNanos}, FrameInterval, SwapBuffers =
     * FrameCompleted = SwapBuffersCompleted = {@code frameCompleted} and GpuCompleted. Other fields
     * are left as they are.
     */
    public FrameInfo setMainTimes(long intendedVsync, long vsync, long frameCompleted, long gpuCompleted,
            long frameIntervalNanos) {
        return set(INTENDED_VSYNC, intendedVsync)
                .set(VSYNC, vsync)
                .set(FRAME_DEADLINE, intendedVsync + frameIntervalNanos)
                .set(FRAME_INTERVAL, frameIntervalNanos)
                .set(SWAP_BUFFERS, frameCompleted)
                .set(FRAME_COMPLETED, frameCompleted)
                .set(SWAP_BUFFERS_COMPLETED, frameCompleted)
                .set(GPU_COMPLETED, gpuCompleted);
    }

    public long flags() {
        return fields[FLAGS];
    }

    public boolean hasFlag(long flag) {
        return (fields[FLAGS] & flag) != 0;
    }

    public FrameInfo clear() {
        Arrays.fill(fields, 0);
        return this;
    }

    public FrameInfo copyFrom(FrameInfo other) {
        System.arraycopy(other.fields, 0, fields, 0, FIELD_COUNT);
        return this;
    }

    /** Canonical name of a field, as in a framestats header. */
    public static String name(int field) {
        return NAMES[field];
    }

    /** Field index for a canonical name, or -1. */
    public static int fieldOf(String name) {
        for (int i = 0; i < FIELD_COUNT; i++) {
            if (NAMES[i].equals(name)) {
                return i;
            }
        }
        return -1;
    }

    /**
     * The duration between two fields, with Android's rules: nothing if the start is unset; the
     * time the UI thread stalled waiting for the render thread (SyncQueued to SyncStart) is
     * charged to the previous frame when the span crosses SyncQueued; never negative.
     */
    public long duration(int start, int end) {
        long gap = fields[end] - fields[start];
        if (fields[start] <= 0) {
            gap = 0;
        }
        if (end > SYNC_QUEUED && start < SYNC_QUEUED) {
            long stall = fields[SYNC_START] - fields[SYNC_QUEUED];
            if (stall > 0) {
                gap -= stall;
            }
        }
        return Math.max(gap, 0);
    }

    /** All fields as "Name=value" pairs on one line, for Davey reports. */
    public String describe() {
        StringBuilder sb = new StringBuilder(512);
        for (int i = 0; i < FIELD_COUNT; i++) {
            if (i > 0) {
                sb.append(", ");
            }
            sb.append(NAMES[i]).append('=').append(fields[i]);
        }
        return sb.toString();
    }
}
