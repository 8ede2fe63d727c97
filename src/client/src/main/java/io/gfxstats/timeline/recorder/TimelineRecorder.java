package io.gfxstats.timeline.recorder;

import io.gfxstats.timeline.FinishMetadata;
import io.gfxstats.timeline.FrameTimelineClassifier;
import io.gfxstats.timeline.JankType;
import io.gfxstats.timeline.Prediction;
import io.gfxstats.timeline.PresentMetadata;
import io.gfxstats.timeline.PresentState;
import io.gfxstats.timeline.Severity;
import io.gfxstats.timeline.SurfaceFrame;
import io.gfxstats.timeline.Thresholds;
import io.gfxstats.timeline.TimelineCounters;
import io.gfxstats.timeline.TimelineFrame;
import io.gfxstats.timeline.TimelineSink;
import io.gfxstats.timeline.feed.DisplayOutcome;
import io.gfxstats.timeline.feed.DisplayOutcomes;
import io.gfxstats.timeline.wayland.PresentationFeedback;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * FrameTimeline for a Linux client without compositor data (client-only mode, spec 6.3): frames
 * are committed with their token, predictions and actual work times, and classified when their
 * presentation feedback arrives (typically 1-3 frames later) as SurfaceFrames with display jank
 * None, then counted into a {@link TimelineSink}. A late present the app is not to blame for
 * (Android would say SurfaceFlinger Scheduling or Prediction Error) is also counted as "late,
 * display side unknown", so nobody reads it as a compositor fact.
 *
 * <p>Up to {@link #capacity()} frames await feedback; committing one more gives the oldest up as
 * "present unknown" (jank Unknown). Feedback for a token that is not pending (given up, or
 * never committed) is ignored. A presentation without the vsync flag (tearing) is "present
 * unknown" too; one whose timestamp is an estimate (neither hw_clock nor hw_completion) never
 * gives Prediction Error, Unknown instead. Buffer stuffing is judged with an estimated latch
 * time: the previous frame's present minus the compositor budget, and only when the previous
 * frame was due no later than this one (Android 17's "due last frame" test).
 *
 * <p><b>Compositor mode</b> ({@link #joinCompositor}): with the daemon's display-frame ring of a
 * cooperating compositor, a presented frame is classified with the real display jank of the
 * compositor frame shown at the same (output, MSC), read from the ring. When that outcome is not
 * there yet the frame waits (still holding its slot) and is looked up again on every later call;
 * after the join wait has passed in presentation time, or when its slot is needed, it is
 * classified in client-only mode after all. {@link #flush()} settles every waiting frame.
 *
 * <p>Confined to one thread, the render thread that also dispatches the Wayland events;
 * allocation-free and lock-free after construction.
 */
public final class TimelineRecorder {
    /** Frames that may await feedback at once, by default. */
    public static final int DEFAULT_CAPACITY = 16;
    /** How long (presentation time) a presented frame waits for its compositor frame, by default. */
    public static final long DEFAULT_JOIN_WAIT_NANOS = 100_000_000L;
    private static final long ONE_MS = 1_000_000L;

    private final FrameTimelineClassifier classifier;
    private final TimelineSink sink;
    private final long compositorBudgetNanos;
    private final SurfaceFrame work = new SurfaceFrame();
    private final PendingFrames slots;
    private DisplayOutcomes outcomes;
    private long joinWaitNanos = DEFAULT_JOIN_WAIT_NANOS;
    private final DisplayOutcome outcome = new DisplayOutcome();
    private long lastPresented = Long.MIN_VALUE;
    private long joined;
    private long unjoined;
    private long previousPredictedPresent = Long.MIN_VALUE;
    private long previousPresent = Long.MIN_VALUE;
    private long lastMsc;

    /**
     * @param thresholds            classification thresholds (Android 16's by default)
     * @param sink                  where the counters go
     * @param capacity              frames that may await feedback at once
     * @param compositorBudgetNanos the compositor's time before a vsync for the latch estimate; 0:
     *                              SurfaceFlinger's default, refresh - 1 ms
     */
    public TimelineRecorder(Thresholds thresholds, TimelineSink sink, int capacity, long compositorBudgetNanos) {
        if (capacity < 1 || capacity > 1024) {
            throw new IllegalArgumentException("capacity must be 1..1024, got " + capacity);
        }
        this.classifier = new FrameTimelineClassifier(thresholds);
        this.sink = Objects.requireNonNull(sink, "sink");
        this.slots = new PendingFrames(capacity);
        this.compositorBudgetNanos = compositorBudgetNanos;
    }

    public TimelineRecorder(TimelineSink sink) {
        this(Thresholds.ANDROID_16_LEGACY, sink, DEFAULT_CAPACITY, 0);
    }

    public int capacity() {
        return slots.capacity;
    }

    /** Frames committed and not yet classified (awaiting feedback, or their compositor frame). */
    public int pending() {
        return slots.pending();
    }

    /**
     * Compositor mode: join presented frames with the compositor frames the daemon publishes in
     * {@code ring} ({@code null}: back to client-only mode), waiting up to {@code joinWaitNanos}
     * of presentation time for a frame's compositor frame. Call on the recorder's thread, not per
     * frame (it settles the frames waiting for the previous ring first).
     */
    public void joinCompositor(DisplayOutcomes ring, long joinWaitNanos) {
        if (joinWaitNanos < 0) {
            throw new IllegalArgumentException("join wait must not be negative: " + joinWaitNanos);
        }
        flush();
        this.outcomes = ring;
        this.joinWaitNanos = joinWaitNanos;
    }

    /** Compositor mode with {@link #DEFAULT_JOIN_WAIT_NANOS}. */
    public void joinCompositor(DisplayOutcomes ring) {
        joinCompositor(ring, DEFAULT_JOIN_WAIT_NANOS);
    }

    /** Presented frames classified with their compositor frame (compositor mode). */
    public long joined() {
        return joined;
    }

    /** Presented frames that waited for their compositor frame in vain and were classified client-only. */
    public long unjoined() {
        return unjoined;
    }

    /** Presented frames still waiting for their compositor frame. */
    public int awaitingDisplay() {
        return slots.awaitingCount;
    }

    /**
     * Looks up the frames waiting for their compositor frame again; those waiting longer than the
     * join wait before {@code nowNanos} (presentation clock) are classified client-only. Called by
     * every feedback; call it yourself when feedback stops (e.g. the window is idle).
     */
    public void poll(long nowNanos) {
        PendingFrames p = slots;
        if (p.awaitingCount == 0) {
            return;
        }
        for (int slot = 0; slot < p.capacity; slot++) {
            if (!p.awaiting[slot]) {
                continue;
            }
            if (outcomes != null && outcomes.find(p.outputAt[slot], p.mscAt[slot], outcome)) {
                countJoined(slot, outcome);
            } else if (nowNanos - p.presentedAt[slot] > joinWaitNanos) {
                countUnjoined(slot);
            }
        }
    }

    /** Classifies every frame still waiting for its compositor frame, client-only (e.g. before closing). */
    public void flush() {
        PendingFrames p = slots;
        if (p.awaitingCount == 0) {
            return;
        }
        for (int slot = 0; slot < p.capacity; slot++) {
            if (p.awaiting[slot]) {
                if (outcomes != null && outcomes.find(p.outputAt[slot], p.mscAt[slot], outcome)) {
                    countJoined(slot, outcome);
                } else {
                    countUnjoined(slot);
                }
            }
        }
    }

    /** Commits a frame (copied); its feedback is expected later by token. */
    public void commit(TimelineFrame f) {
        PendingFrames p = slots;
        int slot = p.next;
        if (p.used[slot]) {
            if (p.awaiting[slot]) {
                countUnjoined(slot);
            } else {
                countUnknownPresent(slot);
            }
        }
        p.store(f);
    }

    /**
     * The frame with {@code token} was presented at {@code presentedNanos}
     * ({@link PresentationFeedback#timestampNanos}) on a display refreshing every
     * {@code refreshNanos} (0: unknown), with presentation-time {@code flags} and the output's
     * {@code msc} (0 if none). Returns false when the token is not pending.
     */
    public boolean presented(long frameToken, long presentedNanos, long refreshNanos, int flags, long msc) {
        return presented(frameToken, presentedNanos, refreshNanos, flags, msc, 0);
    }

    /**
     * As {@link #presented(long, long, long, int, long)}, on {@code output}: the wl_registry
     * global name of the wl_output of the feedback's {@code sync_output} event, which is how the
     * compositor names the output too. In compositor mode the frame is joined with the compositor
     * frame at ({@code output}, {@code msc}) (see {@link #joinCompositor}).
     */
    public boolean presented(long frameToken, long presentedNanos, long refreshNanos, int flags, long msc,
                             long output) {
        PendingFrames p = slots;
        int slot = p.find(frameToken);
        if (slot < 0) {
            return false;
        }
        lastMsc = msc;
        if (presentedNanos > lastPresented) {
            lastPresented = presentedNanos;
        }
        if (!PresentationFeedback.isVsynced(flags)) {
            countUnknownPresent(slot);
            if (p.awaitingCount != 0) {
                poll(lastPresented);
            }
            return true;
        }
        long latch = latchEstimate(slot, refreshNanos);
        previousPredictedPresent = p.predictedPresent[slot];
        previousPresent = presentedNanos;
        DisplayOutcomes ring = outcomes;
        if (ring == null || msc == 0) {
            countClientOnly(slot, presentedNanos, refreshNanos, flags, latch);
        } else {
            p.presented(slot, presentedNanos, refreshNanos, flags, latch, output, msc);
            if (ring.find(output, msc, outcome)) {
                countJoined(slot, outcome);
            } else {
                p.await(slot);
            }
        }
        if (p.awaitingCount != 0) {
            poll(lastPresented);
        }
        return true;
    }

    /** Presented, with all of Wayland's flags for a measured, vsynced presentation. */
    public boolean presented(long frameToken, long presentedNanos, long refreshNanos) {
        return presented(frameToken, presentedNanos, refreshNanos, PresentationFeedback.KIND_VSYNC
                | PresentationFeedback.KIND_HW_CLOCK | PresentationFeedback.KIND_HW_COMPLETION, 0);
    }

    /** The frame with {@code token} was never shown ({@code discarded}); returns false when not pending. */
    public boolean discarded(long frameToken, long refreshNanos) {
        PendingFrames p = slots;
        int slot = p.find(frameToken);
        if (slot < 0) {
            return false;
        }
        p.release(slot);
        SurfaceFrame sf = p.fill(slot, work, PresentState.DROPPED, latchEstimate(slot, refreshNanos));
        classifier.classify(sf, p.predictedPresent[slot], JankType.NONE, refreshNanos, refreshNanos);
        TimelineCounters.count(sink, sf, false);
        if (p.awaitingCount != 0) {
            poll(lastPresented);
        }
        return true;
    }

    /**
     * One slot of the frames awaiting classification, as {@link #state()} gives it and
     * {@link #restore} takes it: the committed frame (its prediction valid or none), and, while it
     * awaits its compositor frame, its presentation feedback.
     */
    public record Pending(boolean used, long token, boolean predicted, long predictedStart, long predictedEnd,
                          long predictedPresent, long actualStart, long actualEnd, boolean awaiting, int flags,
                          long presented, long refresh, long latch, long output, long msc) {
    }

    /**
     * What the recorder carries from one call to the next, besides its counts: the slots in
     * order, the oldest ({@code next}), the previous presentation (for the latch estimate), the
     * join wait and the newest present seen. A native client writes it into its checkpoint, and
     * the daemon continues from it after the client died (docs/buffer-format.md, "Ring group").
     */
    public record State(List<Pending> slots, int next, long previousPredictedPresent, long previousPresent,
                        long joinWaitNanos, long lastPresented) {
        public State {
            slots = List.copyOf(slots);
        }
    }

    /** This recorder's state now (see {@link State}). */
    public State state() {
        PendingFrames p = slots;
        List<Pending> out = new ArrayList<>(p.capacity);
        for (int i = 0; i < p.capacity; i++) {
            out.add(new Pending(p.used[i], p.token[i], p.prediction[i] == Prediction.VALID, p.predictedStart[i],
                    p.predictedEnd[i], p.predictedPresent[i], p.actualStart[i], p.actualEnd[i], p.awaiting[i],
                    p.flagsAt[i], p.presentedAt[i], p.refreshAt[i], p.latchAt[i], p.outputAt[i], p.mscAt[i]));
        }
        return new State(out, p.next, previousPredictedPresent, previousPresent, joinWaitNanos, lastPresented);
    }

    /**
     * Continues from {@code s}, another recorder's state with the same capacity, thresholds and
     * budget; compositor mode stays as this recorder has it (a frame awaiting its compositor frame
     * without a ring is settled client-only, as after a join wait).
     *
     * @throws IllegalArgumentException when {@code s} does not fit this recorder (capacity, the
     *                                  oldest slot, a free slot awaiting, a negative join wait)
     */
    public void restore(State s) {
        PendingFrames p = slots;
        if (s.slots().size() != p.capacity || s.next() < 0 || s.next() >= p.capacity || s.joinWaitNanos() < 0) {
            throw new IllegalArgumentException("recorder state of " + s.slots().size() + " slots (oldest " + s.next()
                    + ", join wait " + s.joinWaitNanos() + ") for a recorder of " + p.capacity);
        }
        for (Pending f : s.slots()) {
            if (f.awaiting() && !f.used()) {
                throw new IllegalArgumentException("a free slot awaits its compositor frame");
            }
        }
        int awaiting = 0;
        for (int i = 0; i < p.capacity; i++) {
            Pending f = s.slots().get(i);
            p.used[i] = f.used();
            p.token[i] = f.token();
            p.prediction[i] = f.predicted() ? Prediction.VALID : Prediction.NONE;
            p.predictedStart[i] = f.predictedStart();
            p.predictedEnd[i] = f.predictedEnd();
            p.predictedPresent[i] = f.predictedPresent();
            p.actualStart[i] = f.actualStart();
            p.actualEnd[i] = f.actualEnd();
            p.awaiting[i] = f.awaiting();
            p.flagsAt[i] = f.flags();
            p.presentedAt[i] = f.presented();
            p.refreshAt[i] = f.refresh();
            p.latchAt[i] = f.latch();
            p.outputAt[i] = f.output();
            p.mscAt[i] = f.msc();
            awaiting += f.awaiting() ? 1 : 0;
        }
        p.awaitingCount = awaiting;
        p.next = s.next();
        previousPredictedPresent = s.previousPredictedPresent();
        previousPresent = s.previousPresent();
        joinWaitNanos = s.joinWaitNanos();
        lastPresented = s.lastPresented();
    }

    /** The MSC of the last presentation fed back (0 before any, or when the output has none). */
    public long lastMsc() {
        return lastMsc;
    }

    /**
     * The compositor's last latch before this frame, estimated: the previous presented frame's
     * present minus the compositor budget, when that frame was due no later than this one; else 0.
     */
    private long latchEstimate(int slot, long refreshNanos) {
        long latch = 0;
        long refreshBudget = compositorBudgetNanos > 0 ? compositorBudgetNanos : Math.max(refreshNanos - ONE_MS, 0);
        if (previousPresent != Long.MIN_VALUE && previousPredictedPresent != Long.MIN_VALUE
                && previousPredictedPresent > slots.predictedPresent[slot] - classifier.thresholds().presentNs()) {
            latch = previousPresent - refreshBudget;
        }
        return Math.max(latch, 0);
    }

    /** Client-only mode: display jank None, with the heuristics for estimated timestamps. */
    private void countClientOnly(int slot, long presentedNanos, long refreshNanos, int flags, long latch) {
        PendingFrames p = slots;
        p.release(slot);
        SurfaceFrame sf = p.fill(slot, work, PresentState.PRESENTED, latch);
        classifier.classify(sf, presentedNanos, JankType.NONE, refreshNanos, refreshNanos);
        if (!PresentationFeedback.isMeasured(flags)) {
            sf.predictionErrorUnknown();
        }
        TimelineCounters.count(sink, sf, false);
    }

    /** A presented frame whose compositor frame did not come: client-only, with its kept feedback. */
    private void countUnjoined(int slot) {
        unjoined++;
        PendingFrames p = slots;
        countClientOnly(slot, p.presentedAt[slot], p.refreshAt[slot], p.flagsAt[slot], p.latchAt[slot]);
    }

    /** Compositor mode: the display frame's present, jank and periods (spec 3.2 under a DisplayFrame). */
    private void countJoined(int slot, DisplayOutcome d) {
        PendingFrames p = slots;
        p.release(slot);
        SurfaceFrame sf = p.fill(slot, work, PresentState.PRESENTED, p.latchAt[slot]);
        classifier.classify(sf, d.actualPresent(), d.jank(), d.refreshPeriod(), d.renderPeriod());
        TimelineCounters.count(sink, sf, true);
        joined++;
    }

    private void countUnknownPresent(int slot) {
        PendingFrames f = slots;
        f.release(slot);
        Prediction p = f.prediction[slot];
        if (p == Prediction.NONE) {
            TimelineCounters.count(sink, p, PresentState.PRESENTED, JankType.NONE, PresentMetadata.UNKNOWN,
                    FinishMetadata.UNKNOWN, Severity.NONE, 0, false, false);
            return;
        }
        FinishMetadata finish = f.actualEnd[slot] - f.predictedEnd[slot] > classifier.thresholds().deadlineNs()
                ? FinishMetadata.LATE : FinishMetadata.ON_TIME;
        TimelineCounters.count(sink, p, PresentState.PRESENTED, JankType.UNKNOWN, PresentMetadata.UNKNOWN, finish,
                Severity.UNKNOWN, 0, false, false);
    }
}
