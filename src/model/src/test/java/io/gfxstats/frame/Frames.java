package io.gfxstats.frame;

/**
 * Hand-built frames for tracker scenarios. A frame starts on its intended vsync, spends
 * {@code ui} on the UI thread (vsync to SyncQueued, no stall before SyncStart), {@code rt} on the
 * render thread (SyncStart to SwapBuffers), and completes 0.5 ms after the swap; the GPU
 * finishes {@code gpu} after the swap. Its deadline is one interval after the intended vsync.
 * So total = ui + rt + 0.5 ms.
 */
final class Frames {
    static final long MS = 1_000_000L;
    static final long HZ60 = 16_666_667L;
    static final long HZ120 = 8_333_333L;

    private Frames() {
    }

    static FrameInfo frame(long intended, long interval, long ui, long rt, long gpu) {
        FrameInfo f = new FrameInfo();
        f.set(FrameInfo.FRAME_TIMELINE_VSYNC_ID, intended / 1000);
        f.set(FrameInfo.INTENDED_VSYNC, intended);
        f.set(FrameInfo.VSYNC, intended);
        f.set(FrameInfo.HANDLE_INPUT_START, intended + MS / 10);
        f.set(FrameInfo.ANIMATION_START, intended + 2 * MS / 10);
        f.set(FrameInfo.PERFORM_TRAVERSALS_START, intended + 3 * MS / 10);
        f.set(FrameInfo.DRAW_START, intended + 4 * MS / 10);
        f.set(FrameInfo.FRAME_DEADLINE, intended + interval);
        f.set(FrameInfo.FRAME_START_TIME, intended);
        f.set(FrameInfo.FRAME_INTERVAL, interval);
        long syncQueued = intended + ui;
        f.set(FrameInfo.SYNC_QUEUED, syncQueued);
        f.set(FrameInfo.SYNC_START, syncQueued);
        f.set(FrameInfo.ISSUE_DRAW_COMMANDS_START, syncQueued + 2 * MS / 10);
        long swap = syncQueued + rt;
        f.set(FrameInfo.SWAP_BUFFERS, swap);
        f.set(FrameInfo.FRAME_COMPLETED, swap + MS / 2);
        f.set(FrameInfo.DEQUEUE_BUFFER_DURATION, 50_000);
        f.set(FrameInfo.QUEUE_BUFFER_DURATION, 300_000);
        f.set(FrameInfo.GPU_COMPLETED, swap + gpu);
        f.set(FrameInfo.SWAP_BUFFERS_COMPLETED, swap + MS / 2);
        f.set(FrameInfo.DISPLAY_PRESENT_TIME, 0);
        f.set(FrameInfo.COMMAND_SUBMISSION_COMPLETED, swap);
        return f;
    }

    /** An on-time 60 Hz frame: 7.5 ms in total, 2 ms of GPU work. */
    static FrameInfo onTime(long intended) {
        return frame(intended, HZ60, 4 * MS, 3 * MS, 2 * MS);
    }

    /** A 60 Hz frame whose UI thread took 20 ms: 23.5 ms in total, GPU done 25 ms after vsync. */
    static FrameInfo slowUi(long intended) {
        return frame(intended, HZ60, 20 * MS, 3 * MS, 2 * MS);
    }
}
