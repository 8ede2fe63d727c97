package io.gfxstats.trace;

/**
 * One frame of the frames model (spec 7.2), OpenHarmony or Android. Times are trace-clock
 * nanoseconds (expected times after the clock offset); {@link #UNKNOWN} where there is no value.
 *
 * @param role         {@code app} (ReceiveVsync frame), {@code parallel} (OnVsyncEvent frame off the
 *                     main thread), {@code render} (RenderService frame), {@code android} (doFrame)
 * @param flag         0 on time, 1 janky, 2 invalid/empty, 3 abnormal render start, 255 unfinished;
 *                     for linked frames the FrameTimeline jank of spec 3.5
 * @param actualRow    the frame_slice row of the frame's actual slice, -1 for Android frames
 */
public record TraceFrame(String role, String process, int pid, int tid, long vsyncId, long frameIndex,
                         long appStart, long appEnd, long expectedStart, long expectedEnd,
                         long renderStart, long renderEnd, long renderExpectedStart, long renderExpectedEnd,
                         long gpuDur, long timelineStart, long timelineEnd, long period, int flag,
                         String jankReason, boolean linked, int actualRow) {
    public static final long UNKNOWN = Long.MIN_VALUE;

    /** Frame time: timeline end - timeline start, UNKNOWN while unfinished. */
    public long frameTime() {
        return timelineEnd == UNKNOWN || timelineStart == UNKNOWN ? UNKNOWN : timelineEnd - timelineStart;
    }

    public boolean empty() {
        return flag == FrameTable.FLAG_INVALID;
    }

    public boolean finished() {
        return frameTime() != UNKNOWN && flag != FrameTable.FLAG_NONE;
    }

    /** Counted in statistics: finished and not empty. */
    public boolean counted() {
        return finished() && !empty();
    }

    public boolean janky() {
        return flag == FrameTable.FLAG_JANKY;
    }
}
