package io.gfxstats.framestats;

import io.gfxstats.frame.FrameInfo;

/**
 * Writes frames as an Android 12+ framestats capture (the 23 columns of {@code dumpsys gfxinfo
 * <package> framestats}), one window per block, for tests that read them back with
 * {@link FramestatsReader} or {@code gfxstats framestats}.
 */
public final class ModernCapture {
    /** Android's header; FrameInterval and FrameStartTime hold what their names say. */
    public static final String HEADER = "Flags,FrameTimelineVsyncId,IntendedVsync,Vsync,InputEventId,HandleInputStart,"
            + "AnimationStart,PerformTraversalsStart,DrawStart,FrameDeadline,FrameInterval,FrameStartTime,SyncQueued,"
            + "SyncStart,IssueDrawCommandsStart,SwapBuffers,FrameCompleted,DequeueBufferDuration,QueueBufferDuration,"
            + "GpuCompleted,SwapBuffersCompleted,DisplayPresentTime,CommandSubmissionCompleted,";
    private static final int[] FIELDS = {
        FrameInfo.FLAGS, FrameInfo.FRAME_TIMELINE_VSYNC_ID, FrameInfo.INTENDED_VSYNC, FrameInfo.VSYNC,
        FrameInfo.INPUT_EVENT_ID, FrameInfo.HANDLE_INPUT_START, FrameInfo.ANIMATION_START,
        FrameInfo.PERFORM_TRAVERSALS_START, FrameInfo.DRAW_START, FrameInfo.FRAME_DEADLINE, FrameInfo.FRAME_INTERVAL,
        FrameInfo.FRAME_START_TIME, FrameInfo.SYNC_QUEUED, FrameInfo.SYNC_START, FrameInfo.ISSUE_DRAW_COMMANDS_START,
        FrameInfo.SWAP_BUFFERS, FrameInfo.FRAME_COMPLETED, FrameInfo.DEQUEUE_BUFFER_DURATION,
        FrameInfo.QUEUE_BUFFER_DURATION, FrameInfo.GPU_COMPLETED, FrameInfo.SWAP_BUFFERS_COMPLETED,
        FrameInfo.DISPLAY_PRESENT_TIME, FrameInfo.COMMAND_SUBMISSION_COMPLETED,
    };

    private final StringBuilder text = new StringBuilder();

    /** Opens a window's block: its graphics-info line, window line and framestats header. */
    public ModernCapture window(int pid, String process, String window) {
        text.append("\n** Graphics info for pid ").append(pid).append(" [").append(process).append("] **\n\n")
                .append("Window: ").append(window).append('\n')
                .append("---PROFILEDATA---\n").append(HEADER).append('\n');
        return this;
    }

    /** One row of the open block. */
    public ModernCapture row(FrameInfo frame) {
        for (int field : FIELDS) {
            text.append(frame.get(field)).append(',');
        }
        text.append('\n');
        return this;
    }

    /** Closes the open block. */
    public ModernCapture end() {
        text.append("---PROFILEDATA---\n");
        return this;
    }

    @Override
    public String toString() {
        return text.toString();
    }
}
