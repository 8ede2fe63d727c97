package io.gfxstats.client;

import io.gfxstats.buffer.ClientHealthGroup;
import io.gfxstats.buffer.StripeWriter;
import io.gfxstats.frame.FrameInfo;
import io.gfxstats.frame.ModernJankTracker;
import io.gfxstats.scene.SceneFrameCounter;

/**
 * The counting side of one {@link WindowTracker}: takes its frames out of its {@link FrameRing}
 * and runs the jank rules, scene attribution and Matrix levels into the tracker's stripe, as
 * {@code record} did on the recording thread before the ring. Everything here runs under the
 * session's drain lock ({@link SessionDrain}), by whichever thread holds it: the drain thread,
 * a flush, a scene change, a close. It holds no reference to the WindowTracker, so that the
 * tracker can become unreachable and be cleaned up (its ring drained first).
 */
final class TrackerDrain implements FrameRing.Consumer {
    private static final int RING_DROPPED = ClientHealthGroup.vectorIndex(ClientHealthGroup.RING_DROPPED);
    final FrameRing ring;
    private final StatsSession session;
    /** The session's counts: compared by epoch on every frame, the move when it changed. */
    private final SessionCounts counts;
    final TrackerState state;
    private final long defaultIntervalNanos;
    /** The rules when they are the modern ones, which count a frame from its times directly. */
    private final ModernJankTracker modern;
    /** The frame path of the times under the modern rules; null under others. */
    private final TimesPath times;
    /** The frame handed to the rules for FrameInfo entries, and for times under other rules. */
    private final FrameInfo scratch = new FrameInfo();
    /** Matrix values and stage sums per scene; null when the session counts no scenes. */
    private final SceneFrameCounter scenes;
    /** This tracker's own scene, or null to follow the session's default. */
    SceneSwitch ownScene;
    /** Drops already reported in the log. */
    long droppedLogged;
    /** Drops already counted into the stripe's client health group. */
    private long droppedCounted;

    TrackerDrain(StatsSession session, TrackerState state, long defaultIntervalNanos, int ringCapacity) {
        // A frame after the session closed lets go of the tracker's stripe (and so, for the last
        // one, of the mapping), on the tracker's thread as before the ring; idempotent.
        this.ring = new FrameRing(ringCapacity, session.options().countWhenRingFull() ? this::countOnCaller : null,
                () -> session.counts.closeTracker(state));
        this.session = session;
        this.counts = session.counts;
        this.state = state;
        this.defaultIntervalNanos = defaultIntervalNanos;
        this.modern = state.rules instanceof ModernJankTracker m ? m : null;
        SceneOptions o = session.sceneOptions();
        this.scenes = o.enabled() ? new SceneFrameCounter(o.matrixMode(), o.matrixLevels(), o.refreshRateHz()) : null;
        this.times = modern == null ? null : new TimesPath(modern, scenes);
    }

    /** The recording thread's way out of a full ring when the session counts rather than drops. */
    private void countOnCaller() {
        SessionDrain d = session.drain;
        d.lock.lock();
        try {
            d.drainLocked(this, false);
        } finally {
            d.lock.unlock();
        }
    }

    /**
     * Counts the frames the ring dropped since the last call into the tracker's stripe (client
     * health group), so the daemon shows them; the stripe's single writer is whoever drains.
     */
    void countDrops() {
        long dropped = ring.dropped();
        if (dropped != droppedCounted) {
            stripe().addElement(RING_DROPPED, dropped - droppedCounted);
            droppedCounted = dropped;
        }
    }

    /**
     * After a pass: the tracker moved to the session's current buffer even if no frame of it
     * comes ({@link SessionCounts#catchUp}; {@code wait} for the session lock or not).
     */
    void catchUp(boolean wait) {
        if (state.epoch != counts.epoch) {
            counts.catchUp(state, wait);
        }
    }

    SceneSwitch currentScene() {
        SceneSwitch own = ownScene;
        return own != null ? own : session.defaultScene;
    }

    /** The stripe to count into now, after moving to the session's current buffer if it changed. */
    private StripeWriter stripe() {
        TrackerState s = state;
        if (s.epoch != counts.epoch) {
            counts.onEpochChange(s);
        }
        return s.stripe;
    }

    @Override
    public void times(long intendedVsync, long vsync, long frameCompleted, long gpuCompleted,
                      long frameIntervalNanos) {
        long interval = frameIntervalNanos > 0 ? frameIntervalNanos : defaultIntervalNanos;
        StripeWriter sink = stripe();
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
        // Cleared first: the scratch frame also carries FrameInfo entries, whose other fields (flags,
        // stage times) must not leak into a frame known only by its times.
        state.rules.finishFrame(scratch.clear().setMainTimes(intendedVsync, vsync, frameCompleted, gpuCompleted,
                interval), sink);
        if (sc != null) {
            sc.count(intendedVsync, frameCompleted, interval, sink);
        }
    }

    @Override
    public void info(long[] infos, int base) {
        FrameInfo frame = scratch;
        for (int f = 0; f < FrameInfo.FIELD_COUNT; f++) {
            frame.set(f, infos[base + f]);
        }
        StripeWriter sink = stripe();
        SceneFrameCounter sc = scenes;
        if (sc != null) {
            sink.selectScene(currentScene().slotFor(frame.get(FrameInfo.INTENDED_VSYNC)));
        }
        if (modern != null) {
            sink.countFrame(modern.classify(frame));
        } else {
            state.rules.finishFrame(frame, sink);
        }
        if (sc != null) {
            sc.count(frame, sink);
        }
    }
}
