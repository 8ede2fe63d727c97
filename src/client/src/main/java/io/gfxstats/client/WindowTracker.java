package io.gfxstats.client;

import io.gfxstats.frame.FrameInfo;
import io.gfxstats.frame.ModernJankTracker;
import io.gfxstats.stats.FrameOutcome;
import io.gfxstats.timeline.Thresholds;
import io.gfxstats.timeline.recorder.TimelineRecorder;
import io.gfxstats.timeline.TimelineSink;
import io.gfxstats.buffer.StripeWriter;
import io.gfxstats.scene.SceneFrameCounter;

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
    /** The session's counts: compared by epoch on every frame, the move when it changed. */
    private final SessionCounts counts;
    private final TrackerState state;
    private final long defaultIntervalNanos;
    /** The rules when they are the modern ones, which count a frame from its times directly. */
    private final ModernJankTracker modern;
    /** The frame path of {@link #record(long, long, long, long, long)} under the modern rules; null under others. */
    private final TimesPath times;
    /** The frame handed to other rules by the times-only {@link #record(long, long, long, long, long)}. */
    private final FrameInfo scratch;
    /** Matrix values and stage sums per scene; null when the session counts no scenes. */
    private final SceneFrameCounter scenes;
    /** This tracker's own scene, or null to follow the session's default. */
    private SceneSwitch ownScene;
    Cleaner.Cleanable cleanable;
    /** Counts FrameTimeline counters into wherever this tracker counts now (its stripe follows handovers). */
    private final TimelineSink timelineSink = this::countTimeline;
    private TimelineRecorder timeline;

    WindowTracker(StatsSession session, TrackerState state, long defaultIntervalNanos) {
        this.session = session;
        this.counts = session.counts;
        this.state = state;
        this.defaultIntervalNanos = defaultIntervalNanos;
        this.modern = state.rules instanceof ModernJankTracker m ? m : null;
        this.scratch = modern == null ? new FrameInfo() : null;
        SceneOptions o = session.sceneOptions();
        this.scenes = o.enabled() ? new SceneFrameCounter(o.matrixMode(), o.matrixLevels(), o.refreshRateHz()) : null;
        this.times = modern == null ? null : new TimesPath(modern, scenes);
    }

    /**
     * Sets the scene (screen, level, app state) of this window's frames from now on: frames
     * whose intended vsync is at or after {@code System.nanoTime()} now (CLOCK_MONOTONIC, the
     * frames' clock). A frame that was intended before the switch but finishes after it still
     * belongs to the previous scene (attribution by intended vsync, like JankStats' state
     * intervals, not Matrix's scene read when the frame completes). Call on the tracker's
     * thread; takes the session lock only the first time a name is used. Names: 1..120 UTF-8
     * bytes, no control characters; beyond {@link SceneOptions#maxScenes()} names, frames go to
     * "(other)". {@code null} returns to the session's default scene.
     */
    public void setScene(String scene) {
        setScene(scene, System.nanoTime());
    }

    /** As {@link #setScene(String)}, in effect for frames intended at or after {@code sinceNanos}. */
    public void setScene(String scene, long sinceNanos) {
        int before = currentScene().slotFor(sinceNanos - 1);
        if (scene == null) {
            // Back to following the session's default, for every frame recorded from now on.
            ownScene = null;
            return;
        }
        ownScene = new SceneSwitch(session.sceneSlot(scene), sinceNanos, before);
    }

    private SceneSwitch currentScene() {
        SceneSwitch own = ownScene;
        return own != null ? own : session.defaultScene;
    }

    /**
     * Counts one finished frame given with all its timestamps. Frames whose total time
     * (IntendedVsync to FrameCompleted) is not positive are ignored, as on Android.
     *
     * @throws IllegalStateException if this tracker or its session is closed
     */
    public void record(FrameInfo frame) {
        TrackerState s = state;
        if (s.epoch != counts.epoch) {
            counts.onEpochChange(s);
        }
        StripeWriter sink = s.stripe;
        SceneFrameCounter sc = scenes;
        if (sc != null) {
            sink.selectScene(currentScene().slotFor(frame.get(FrameInfo.INTENDED_VSYNC)));
        }
        if (modern != null) {
            sink.countFrame(modern.classify(frame));
        } else {
            s.rules.finishFrame(frame, sink);
        }
        if (sc != null) {
            sc.count(frame, sink);
        }
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
        TrackerState s = state;
        if (s.epoch != counts.epoch) {
            counts.onEpochChange(s);
        }
        StripeWriter sink = s.stripe;
        SceneFrameCounter sc = scenes;
        TimesPath path = times;
        if (path != null) {
            path.record(sink, sc == null ? -1 : currentScene().slotFor(intendedVsync), intendedVsync, vsync,
                    frameCompleted, gpuCompleted, interval);
            return;
        }
        if (sc != null) {
            sink.selectScene(currentScene().slotFor(intendedVsync));
        }
        s.rules.finishFrame(scratch.setMainTimes(intendedVsync, vsync, frameCompleted, gpuCompleted, interval), sink);
        if (sc != null) {
            sc.count(intendedVsync, frameCompleted, interval, sink);
        }
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
            t = new TimelineRecorder(Thresholds.ANDROID_16_LEGACY, timelineSink, TimelineRecorder.DEFAULT_CAPACITY, 0);
            timeline = t;
        }
        return t;
    }

    private void countTimeline(int counter) {
        TrackerState s = state;
        if (s.epoch != counts.epoch) {
            counts.onEpochChange(s);
        }
        s.stripe.incrementTimeline(counter);
    }

    /** Stops this tracker; its counts stay in the session's buffer. Call on the recording thread. Idempotent. */
    @Override
    public void close() {
        cleanable.clean();
    }
}
