package io.gfxstats.client;

import io.gfxstats.buffer.StripeWriter;
import io.gfxstats.frame.FrameInfo;
import io.gfxstats.frame.FrameTracker;
import io.gfxstats.frame.ModernJankTracker;
import io.gfxstats.scene.SceneFrameCounter;
import java.util.Objects;

/**
 * Counts frames exactly as a tracker's drain ({@link TrackerDrain}) does, from state given
 * explicitly instead of a live session: the rules (with their state between frames already
 * restored), the tracker's interval for frames recorded without one, the scene counter, and the
 * tracker's own and the session's default scene switch. The daemon uses it to count the entries
 * a killed native client left in its ring, from the client's last checkpoint
 * (docs/buffer-format.md, "Ring group"); the frames go through the same {@link TimesPath},
 * rules and {@link SceneFrameCounter} calls in the same order as in {@link TrackerDrain#times}
 * and {@link TrackerDrain#info}, so every count is the one the client would have made.
 * Confined to one thread.
 */
public final class CheckpointDrain {
    private final StripeWriter sink;
    private final FrameTracker rules;
    private final ModernJankTracker modern;
    private final TimesPath times;
    private final SceneFrameCounter scenes;
    private final long trackerIntervalNanos;
    private final SceneSwitch scene;
    private final FrameInfo scratch = new FrameInfo();

    /**
     * @param sink                 the stripe to count into
     * @param rules                the tracker's rules, their state restored
     * @param trackerIntervalNanos the interval of frames recorded without one (positive)
     * @param scenes               the scene counter, or null when the session counts no scenes
     * @param sceneSlot            the scene in effect since {@code sinceNanos} (the tracker's own
     *                             switch if it has one, else the session's default)
     * @param sinceNanos           when that scene took effect (frames' intended vsync)
     * @param previousSlot         the scene of frames intended before {@code sinceNanos}
     */
    public CheckpointDrain(StripeWriter sink, FrameTracker rules, long trackerIntervalNanos, SceneFrameCounter scenes,
                           int sceneSlot, long sinceNanos, int previousSlot) {
        if (trackerIntervalNanos <= 0) {
            throw new IllegalArgumentException("tracker interval must be positive: " + trackerIntervalNanos);
        }
        this.sink = Objects.requireNonNull(sink, "sink");
        this.rules = Objects.requireNonNull(rules, "rules");
        this.modern = rules instanceof ModernJankTracker m ? m : null;
        this.scenes = scenes;
        this.times = modern == null ? null : new TimesPath(modern, scenes);
        this.trackerIntervalNanos = trackerIntervalNanos;
        this.scene = new SceneSwitch(sceneSlot, sinceNanos, previousSlot);
    }

    /** A times-path entry: the five values as recorded. */
    public void times(long intendedVsync, long vsync, long frameCompleted, long gpuCompleted,
                      long frameIntervalNanos) {
        long interval = frameIntervalNanos > 0 ? frameIntervalNanos : trackerIntervalNanos;
        SceneFrameCounter sc = scenes;
        if (times != null) {
            times.record(sink, sc == null ? -1 : scene.slotFor(intendedVsync), intendedVsync, vsync, frameCompleted,
                    gpuCompleted, interval);
            return;
        }
        if (sc != null) {
            sink.selectScene(scene.slotFor(intendedVsync));
        }
        rules.finishFrame(scratch.clear().setMainTimes(intendedVsync, vsync, frameCompleted, gpuCompleted, interval),
                sink);
        if (sc != null) {
            sc.count(intendedVsync, frameCompleted, interval, sink);
        }
    }

    /** A FrameInfo entry: {@link FrameInfo#FIELD_COUNT} fields from {@code fields[base]}. */
    public void info(long[] fields, int base) {
        FrameInfo frame = scratch;
        for (int f = 0; f < FrameInfo.FIELD_COUNT; f++) {
            frame.set(f, fields[base + f]);
        }
        SceneFrameCounter sc = scenes;
        if (sc != null) {
            sink.selectScene(scene.slotFor(frame.get(FrameInfo.INTENDED_VSYNC)));
        }
        if (modern != null) {
            sink.countFrame(modern.classify(frame));
        } else {
            rules.finishFrame(frame, sink);
        }
        if (sc != null) {
            sc.count(frame, sink);
        }
    }
}
