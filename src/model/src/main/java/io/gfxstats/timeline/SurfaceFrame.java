package io.gfxstats.timeline;

/**
 * One app frame on one layer (SurfaceFlinger's SurfaceFrame): inputs set by the caller, results
 * written by {@link FrameTimelineClassifier#classify(SurfaceFrame, DisplayFrame)}. Its actual
 * present is the present of the DisplayFrame it was latched in. Mutable and reusable.
 */
public final class SurfaceFrame {
    // inputs
    long token;
    Prediction prediction = Prediction.VALID;
    long predictedStart;
    long predictedEnd;
    long predictedPresent;
    long actualStart;
    long actualEnd;
    PresentState presentState = PresentState.PRESENTED;
    long lastLatchTime;
    /**
     * The expected present of the layer's previously latched frame (0: none). Read only by
     * Android 16 QPR2's {@code buffer_stuffing_fix} rule; not part of {@link #set}, whose callers
     * predate it.
     */
    long lastExpectedPresent;

    // results
    int jank;
    PresentMetadata present = PresentMetadata.UNKNOWN;
    FinishMetadata finish = FinishMetadata.UNKNOWN;
    Severity severity = Severity.NONE;
    long actualPresent;
    long deadlineDelta;
    boolean classified;

    /** Sets every input at once. */
    public SurfaceFrame set(long token, Prediction prediction, long predictedStart, long predictedEnd,
            long predictedPresent, long actualStart, long actualEnd, PresentState presentState, long lastLatchTime) {
        this.token = token;
        this.prediction = prediction;
        this.predictedStart = predictedStart;
        this.predictedEnd = predictedEnd;
        this.predictedPresent = predictedPresent;
        this.actualStart = actualStart;
        this.actualEnd = actualEnd;
        this.presentState = presentState;
        this.lastLatchTime = lastLatchTime;
        this.lastExpectedPresent = 0;
        return this;
    }

    /** Sets the expected present of the layer's previously latched frame (0: none); call after {@link #set}. */
    public SurfaceFrame lastExpectedPresent(long expectedPresent) {
        this.lastExpectedPresent = expectedPresent;
        return this;
    }

    public long token() {
        return token;
    }

    public Prediction prediction() {
        return prediction;
    }

    public long predictedPresent() {
        return predictedPresent;
    }

    public long predictedEnd() {
        return predictedEnd;
    }

    public PresentState presentState() {
        return presentState;
    }

    public int jank() {
        return jank;
    }

    /**
     * With estimated present times (no measured feedback), a missed prediction says nothing about the
     * app: a Prediction Error becomes Unknown.
     */
    public void predictionErrorUnknown() {
        if ((jank & JankType.PREDICTION_ERROR) != 0) {
            jank = (jank & ~JankType.PREDICTION_ERROR) | JankType.UNKNOWN;
        }
    }

    public PresentMetadata present() {
        return present;
    }

    public FinishMetadata finish() {
        return finish;
    }

    public Severity severity() {
        return severity;
    }

    /** The present time after classification (0 for a dropped frame). */
    public long actualPresent() {
        return actualPresent;
    }

    /** Actual end minus predicted end (-1 when not classifiable). */
    public long deadlineDelta() {
        return deadlineDelta;
    }

    /**
     * Whether the frame was classified and would be reported to TimeStats and jank listeners:
     * every frame with a token (prediction valid or expired).
     */
    public boolean reported() {
        return classified;
    }
}
