package io.gfxstats.client;

import io.gfxstats.frame.FrameInfo;
import io.gfxstats.frame.ModernJankTracker;

import java.lang.ref.Cleaner;

/**
 * Counts the frames of one window or surface. Create with {@link StatsSession#newTracker()}.
 *
 * <p>Confined to one thread at a time (the window's render thread): it keeps jank state between
 * frames and counts with plain stores. Recording allocates nothing and never blocks or waits
 * for a lock (the only exception being the log line of a frame of 700 ms or more, if the session
 * logs them). Trackers of different windows may record concurrently.
 *
 * <p>Close it on its recording thread when the window goes away; its counts stay. A tracker that
 * is dropped without close is cleaned up (counts kept) after it became unreachable.
 */
public final class WindowTracker implements AutoCloseable {
    private final StatsSession session;
    private final TrackerState state;
    private final long defaultIntervalNanos;
    /** The rules when they are the modern ones, which count a frame from its times directly. */
    private final ModernJankTracker modern;
    /** The frame handed to other rules by the times-only {@link #record(long, long, long, long, long)}. */
    private final FrameInfo scratch;
    Cleaner.Cleanable cleanable;

    WindowTracker(StatsSession session, TrackerState state, long defaultIntervalNanos) {
        this.session = session;
        this.state = state;
        this.defaultIntervalNanos = defaultIntervalNanos;
        this.modern = state.rules instanceof ModernJankTracker m ? m : null;
        this.scratch = modern == null ? new FrameInfo() : null;
    }

    /**
     * Counts one finished frame given with all its timestamps. Frames whose total time
     * (IntendedVsync to FrameCompleted) is not positive are ignored, as on Android.
     *
     * @throws IllegalStateException if this tracker or its session is closed
     */
    public void record(FrameInfo frame) {
        TrackerState s = state;
        if (s.epoch != session.epoch) {
            session.onEpochChange(s);
        }
        s.rules.finishFrame(frame, s.stripe);
    }

    /**
     * Counts one frame of a renderer that knows only these times (CLOCK_MONOTONIC nanoseconds):
     *
     * @param intendedVsync      the vsync the frame was meant for
     * @param vsync              when the frame's work actually started
     * @param frameCompleted     when the CPU side finished and handed the frame to the GPU/display
     * @param gpuCompleted       when the GPU finished the frame; pass {@code frameCompleted} if
     *                           unknown (GPU time is then recorded as 0 ms)
     * @param frameIntervalNanos the frame interval the frame was produced for; 0 or negative: the
     *                           session's display refresh interval
     *
     * <p>The deadline is {@code intendedVsync + frameInterval}; the frame is janky when the GPU
     * finished after it. Cause counters that need the stage timestamps (slow UI thread, bitmap
     * uploads, draw commands) are not counted; missed vsync is. GPU time is
     * {@code gpuCompleted - frameCompleted}.
     */
    public void record(long intendedVsync, long vsync, long frameCompleted, long gpuCompleted,
                       long frameIntervalNanos) {
        long interval = frameIntervalNanos > 0 ? frameIntervalNanos : defaultIntervalNanos;
        if (modern != null) {
            TrackerState s = state;
            if (s.epoch != session.epoch) {
                session.onEpochChange(s);
            }
            modern.finishFrame(intendedVsync, vsync, frameCompleted, gpuCompleted, interval, s.stripe);
            return;
        }
        record(scratch.setMainTimes(intendedVsync, vsync, frameCompleted, gpuCompleted, interval));
    }

    /** Stops this tracker; its counts stay in the session's buffer. Call on the recording thread. Idempotent. */
    @Override
    public void close() {
        cleanable.clean();
    }
}
