package io.gfxstats.client;

import io.gfxstats.frame.FrameInfo;
import io.gfxstats.timeline.Thresholds;
import io.gfxstats.timeline.recorder.TimelineRecorder;
import io.gfxstats.timeline.TimelineSink;

import java.lang.ref.Cleaner;

/**
 * Counts the frames of one window or surface. Create with {@link StatsSession#newTracker()}.
 *
 * <p>Confined to one thread at a time (the window's render thread). Recording appends the
 * frame's times to the tracker's ring ({@link FrameRing}: a few plain stores and one release
 * store; no allocation, no lock, no system call, no wait), and the session's drain thread
 * counts it shortly after (docs/architecture.md, "Recording a frame"): the jank
 * rules, scenes and Matrix levels run there, so a frame shows in the counts after the next
 * drain, within about 50 ms, or at once after {@link StatsSession#flush()}. If the drain falls
 * a whole ring ({@value FrameRing#DEFAULT_CAPACITY} frames) behind, further frames are dropped
 * and counted ({@link StatsSession#droppedFrames()}). Trackers of different windows may record
 * concurrently.
 *
 * <p>Close it on its recording thread when the window goes away; its counts stay. A tracker that
 * is dropped without close is cleaned up (its ring counted, counts kept) after it became unreachable.
 */
public final class WindowTracker implements AutoCloseable {
    private final StatsSession session;
    private final FrameRing ring;
    /** The counting side; not referenced by the ring, so this tracker can become unreachable. */
    private final TrackerDrain drain;
    private final Cleanup cleanup;
    Cleaner.Cleanable cleanable;
    /** Counts FrameTimeline counters into the timeline's own stripe (it follows handovers). */
    private final TimelineSink timelineSink = this::countTimeline;
    private TimelineRecorder timeline;
    private TrackerState timelineState;

    WindowTracker(StatsSession session, TrackerDrain drain) {
        this.session = session;
        this.drain = drain;
        this.ring = drain.ring;
        this.cleanup = new Cleanup(session, drain);
    }

    /** What closes a tracker, by its owner or by the cleaner; holds no reference to the tracker. */
    static final class Cleanup implements Runnable {
        private final StatsSession session;
        private final TrackerDrain drain;
        /** The timeline's state once {@link #timeline()} was called; set by the recording thread. */
        volatile TrackerState timelineState;

        Cleanup(StatsSession session, TrackerDrain drain) {
            this.session = session;
            this.drain = drain;
        }

        @Override
        public void run() {
            // Frames still in the ring first, then the stripe goes back to the session.
            session.drain.remove(drain, "tracker closed");
            session.counts.closeTracker(drain.state);
            TrackerState t = timelineState;
            if (t != null) {
                session.counts.closeTracker(t);
            }
        }
    }

    Runnable cleanup() {
        return cleanup;
    }

    /**
     * Sets the scene (screen, level, app state) of this window's frames from now on: frames
     * whose intended vsync is at or after {@code System.nanoTime()} now (CLOCK_MONOTONIC, the
     * frames' clock). A frame that was intended before the switch but finishes after it still
     * belongs to the previous scene (attribution by intended vsync, like JankStats' state
     * intervals, not Matrix's scene read when the frame completes). Call on the tracker's
     * thread; takes the session lock the first time a name is used, and the drain lock, counting
     * this tracker's frames recorded so far first (so the switch applies to exactly the frames
     * recorded after it whose intended vsync is at or after the switch). Names: 1..120 UTF-8
     * bytes, no control characters; beyond {@link SceneOptions#maxScenes()} names, frames go to
     * "(other)". {@code null} returns to the session's default scene.
     */
    public void setScene(String scene) {
        setScene(scene, System.nanoTime());
    }

    /** As {@link #setScene(String)}, in effect for frames intended at or after {@code sinceNanos}. */
    public void setScene(String scene, long sinceNanos) {
        int slot = scene == null ? -1 : session.sceneSlot(scene);
        SessionDrain d = session.drain;
        d.lock.lock();
        try {
            d.drainLocked(drain, false);
            if (scene == null) {
                // Back to following the session's default, for every frame recorded from now on.
                drain.ownScene = null;
                return;
            }
            int before = drain.currentScene().slotFor(sinceNanos - 1);
            drain.ownScene = new SceneSwitch(slot, sinceNanos, before);
        } finally {
            d.lock.unlock();
        }
    }

    /**
     * Counts one finished frame given with all its timestamps (copied into the ring). Frames
     * whose total time (IntendedVsync to FrameCompleted) is not positive are ignored, as on Android.
     *
     * @throws IllegalStateException if this tracker or its session is closed
     */
    public void record(FrameInfo frame) {
        ring.put(frame);
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
     *
     * @throws IllegalStateException if this tracker or its session is closed
     */
    public void record(long intendedVsync, long vsync, long frameCompleted, long gpuCompleted,
                       long frameIntervalNanos) {
        ring.put(intendedVsync, vsync, frameCompleted, gpuCompleted, frameIntervalNanos);
    }

    /**
     * Frames of this tracker recorded and not yet counted by the drain (a snapshot, racy while it
     * records): for tests, benchmarks and diagnostics. Any thread.
     */
    public long pendingFrames() {
        return ring.pending();
    }

    /**
     * FrameTimeline for this window (docs/frametimeline.md): commit each frame with its token,
     * predictions and work times, then feed its Wayland presentation feedback; the frames are
     * classified in client-only mode, or joined with a cooperating compositor's display frames
     * when the recorder is in compositor mode ({@link TimelineRecorder#joinCompositor}, kept
     * joined across daemon restarts by {@link CompositorLink}), and counted into the session's
     * buffer with the other counters (saved in the day files, shown by
     * {@code gfxstats dump --frametimeline}). Created
     * on first call (Android 16's thresholds, 16 frames awaiting feedback, the compositor budget
     * refresh - 1 ms); same thread rules as {@link #record}: it allocates nothing and takes no lock.
     */
    public TimelineRecorder timeline() {
        TimelineRecorder t = timeline;
        if (t == null) {
            // The timeline counts on the calling thread, not through the ring, into a stripe of its
            // own: the drain thread writes the tracker's stripe, and a stripe has one writer.
            TrackerState ts = session.counts.addTracker(drain.state.rules);
            timelineState = ts;
            cleanup.timelineState = ts;
            t = new TimelineRecorder(Thresholds.ANDROID_16_LEGACY, timelineSink, TimelineRecorder.DEFAULT_CAPACITY, 0);
            timeline = t;
        }
        return t;
    }

    private void countTimeline(int counter) {
        TrackerState s = timelineState;
        if (s.epoch != session.counts.epoch) {
            session.counts.onEpochChange(s);
        }
        s.stripe.incrementTimeline(counter);
    }

    /** Stops this tracker; its counts stay in the session's buffer. Call on the recording thread. Idempotent. */
    @Override
    public void close() {
        cleanable.clean();
    }
}
