package io.gfxstats.timeline;

import io.gfxstats.timeline.wayland.PresentationFeedback;

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
 * <p>Confined to one thread, the render thread that also dispatches the Wayland events;
 * allocation-free and lock-free after construction.
 */
public final class TimelineRecorder {
    /** Frames that may await feedback at once, by default. */
    public static final int DEFAULT_CAPACITY = 16;
    private static final long ONE_MS = 1_000_000L;

    private final FrameTimelineClassifier classifier;
    private final TimelineSink sink;
    private final long compositorBudgetNanos;
    private final SurfaceFrame work = new SurfaceFrame();
    private final int capacity;
    private final boolean[] used;
    private final long[] token;
    private final long[] predictedStart;
    private final long[] predictedEnd;
    private final long[] predictedPresent;
    private final long[] actualStart;
    private final long[] actualEnd;
    private final Prediction[] prediction;
    /** Next slot to fill; slots are reused in commit order, so the slot at next is the oldest. */
    private int next;
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
        this.sink = java.util.Objects.requireNonNull(sink, "sink");
        this.capacity = capacity;
        this.compositorBudgetNanos = compositorBudgetNanos;
        used = new boolean[capacity];
        token = new long[capacity];
        predictedStart = new long[capacity];
        predictedEnd = new long[capacity];
        predictedPresent = new long[capacity];
        actualStart = new long[capacity];
        actualEnd = new long[capacity];
        prediction = new Prediction[capacity];
    }

    public TimelineRecorder(TimelineSink sink) {
        this(Thresholds.ANDROID_16_LEGACY, sink, DEFAULT_CAPACITY, 0);
    }

    public int capacity() {
        return capacity;
    }

    /** Frames committed and still awaiting feedback. */
    public int pending() {
        int n = 0;
        for (boolean u : used) {
            if (u) {
                n++;
            }
        }
        return n;
    }

    /** Commits a frame (copied); its feedback is expected later by token. */
    public void commit(TimelineFrame f) {
        int slot = next;
        if (used[slot]) {
            countUnknownPresent(slot);
        }
        used[slot] = true;
        token[slot] = f.token;
        predictedStart[slot] = f.predictedStart;
        predictedEnd[slot] = f.predictedEnd;
        predictedPresent[slot] = f.predictedPresent;
        actualStart[slot] = f.actualStart;
        actualEnd[slot] = f.actualEnd;
        prediction[slot] = f.prediction;
        next = slot + 1 == capacity ? 0 : slot + 1;
    }

    /**
     * The frame with {@code token} was presented at {@code presentedNanos}
     * ({@link PresentationFeedback#timestampNanos}) on a display refreshing every
     * {@code refreshNanos} (0: unknown), with presentation-time {@code flags} and the output's
     * {@code msc} (0 if none). Returns false when the token is not pending.
     */
    public boolean presented(long frameToken, long presentedNanos, long refreshNanos, int flags, long msc) {
        int slot = find(frameToken);
        if (slot < 0) {
            return false;
        }
        used[slot] = false;
        lastMsc = msc;
        if (!PresentationFeedback.isVsynced(flags)) {
            countUnknownPresent(slot);
            return true;
        }
        SurfaceFrame sf = fill(slot, PresentState.PRESENTED, refreshNanos);
        classifier.classify(sf, presentedNanos, JankType.NONE, refreshNanos, refreshNanos);
        if (!PresentationFeedback.isMeasured(flags) && (sf.jank & JankType.PREDICTION_ERROR) != 0) {
            sf.jank = (sf.jank & ~JankType.PREDICTION_ERROR) | JankType.UNKNOWN;
        }
        TimelineCounters.count(sink, sf, false);
        previousPredictedPresent = predictedPresent[slot];
        previousPresent = presentedNanos;
        return true;
    }

    /** Presented, with all of Wayland's flags for a measured, vsynced presentation. */
    public boolean presented(long frameToken, long presentedNanos, long refreshNanos) {
        return presented(frameToken, presentedNanos, refreshNanos, PresentationFeedback.KIND_VSYNC
                | PresentationFeedback.KIND_HW_CLOCK | PresentationFeedback.KIND_HW_COMPLETION, 0);
    }

    /** The frame with {@code token} was never shown ({@code discarded}); returns false when not pending. */
    public boolean discarded(long frameToken, long refreshNanos) {
        int slot = find(frameToken);
        if (slot < 0) {
            return false;
        }
        used[slot] = false;
        SurfaceFrame sf = fill(slot, PresentState.DROPPED, refreshNanos);
        classifier.classify(sf, predictedPresent[slot], JankType.NONE, refreshNanos, refreshNanos);
        TimelineCounters.count(sink, sf, false);
        return true;
    }

    /** The MSC of the last presentation fed back (0 before any, or when the output has none). */
    public long lastMsc() {
        return lastMsc;
    }

    private SurfaceFrame fill(int slot, PresentState state, long refreshNanos) {
        long latch = 0;
        long refreshBudget = compositorBudgetNanos > 0 ? compositorBudgetNanos : Math.max(refreshNanos - ONE_MS, 0);
        if (previousPresent != Long.MIN_VALUE && previousPredictedPresent != Long.MIN_VALUE
                && previousPredictedPresent > predictedPresent[slot] - classifier.thresholds().presentNs()) {
            latch = previousPresent - refreshBudget;
        }
        return work.set(token[slot], prediction[slot], predictedStart[slot], predictedEnd[slot], predictedPresent[slot],
                actualStart[slot], actualEnd[slot], state, Math.max(latch, 0));
    }

    private void countUnknownPresent(int slot) {
        used[slot] = false;
        Prediction p = prediction[slot];
        if (p == Prediction.NONE) {
            TimelineCounters.count(sink, p, PresentState.PRESENTED, JankType.NONE, PresentMetadata.UNKNOWN,
                    FinishMetadata.UNKNOWN, Severity.NONE, 0, false, false);
            return;
        }
        FinishMetadata finish = actualEnd[slot] - predictedEnd[slot] > classifier.thresholds().deadlineNs()
                ? FinishMetadata.LATE : FinishMetadata.ON_TIME;
        TimelineCounters.count(sink, p, PresentState.PRESENTED, JankType.UNKNOWN, PresentMetadata.UNKNOWN, finish,
                Severity.UNKNOWN, 0, false, false);
    }

    private int find(long frameToken) {
        // Newest first: feedback normally comes for recent frames.
        for (int i = 1; i <= capacity; i++) {
            int slot = next - i;
            if (slot < 0) {
                slot += capacity;
            }
            if (used[slot] && token[slot] == frameToken) {
                return slot;
            }
        }
        return -1;
    }
}
