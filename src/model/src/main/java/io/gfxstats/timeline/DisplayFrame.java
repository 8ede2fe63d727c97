package io.gfxstats.timeline;

/**
 * One compositor frame (SurfaceFlinger's DisplayFrame): its inputs, set by the caller, and the
 * classification {@link FrameTimelineClassifier#classify(DisplayFrame, long)} writes into it.
 * Mutable and reusable, so that classifying allocates nothing.
 */
public final class DisplayFrame {
    /** {@link #actualPresent} of a present fence that never signalled or was invalid. */
    public static final long INVALID_PRESENT = -1;

    // inputs
    long token;
    Prediction prediction = Prediction.VALID;
    long predictedStart;
    long predictedEnd;
    long predictedPresent;
    long actualStart;
    long actualEnd;
    long actualPresent;
    boolean hasGpuFence;
    long gpuFenceTime;
    long refreshPeriod;
    long renderPeriod;

    // results
    int jank;
    PresentMetadata present = PresentMetadata.UNKNOWN;
    FinishMetadata finish = FinishMetadata.UNKNOWN;
    StartMetadata start = StartMetadata.UNKNOWN;
    Severity severity = Severity.NONE;
    long classifiedPresent;
    long deadlineDelta;
    long deltaToVsync;

    /** Sets every input at once; results are cleared by the next classification. */
    public DisplayFrame set(long token, Prediction prediction, long predictedStart, long predictedEnd,
            long predictedPresent, long actualStart, long actualEnd, long actualPresent,
            long refreshPeriod, long renderPeriod) {
        this.token = token;
        this.prediction = prediction;
        this.predictedStart = predictedStart;
        this.predictedEnd = predictedEnd;
        this.predictedPresent = predictedPresent;
        this.actualStart = actualStart;
        this.actualEnd = actualEnd;
        this.actualPresent = actualPresent;
        this.refreshPeriod = refreshPeriod;
        this.renderPeriod = renderPeriod;
        this.hasGpuFence = false;
        this.gpuFenceTime = 0;
        return this;
    }

    /** Sets the token alone. */
    public DisplayFrame token(long token) {
        this.token = token;
        return this;
    }

    /** The signal time of the GPU composition fence: the display used GPU (client) composition. */
    public DisplayFrame gpuFence(long signalTime) {
        this.hasGpuFence = true;
        this.gpuFenceTime = signalTime;
        return this;
    }

    /** No GPU composition for this frame. */
    public DisplayFrame noGpuFence() {
        this.hasGpuFence = false;
        this.gpuFenceTime = 0;
        return this;
    }

    public long token() {
        return token;
    }

    public Prediction prediction() {
        return prediction;
    }

    public long predictedStart() {
        return predictedStart;
    }

    public long predictedEnd() {
        return predictedEnd;
    }

    public long predictedPresent() {
        return predictedPresent;
    }

    public long actualStart() {
        return actualStart;
    }

    /** The GPU composition fence's signal time (meaningful when {@link #hasGpuFence()}). */
    public long gpuFenceTime() {
        return gpuFenceTime;
    }

    /** The present time as given (what the next frame's "previous present" is). */
    public long actualPresent() {
        return actualPresent;
    }

    public long actualEnd() {
        return actualEnd;
    }

    public long refreshPeriod() {
        return refreshPeriod;
    }

    public long renderPeriod() {
        return renderPeriod;
    }

    public boolean hasGpuFence() {
        return hasGpuFence;
    }

    /** The jank bits ({@link JankType}). */
    public int jank() {
        return jank;
    }

    public PresentMetadata present() {
        return present;
    }

    public FinishMetadata finish() {
        return finish;
    }

    public StartMetadata start() {
        return start;
    }

    public Severity severity() {
        return severity;
    }

    /** The present time after classification: the end time when the present was invalid. */
    public long classifiedPresent() {
        return classifiedPresent;
    }

    /** Finish (with GPU) minus predicted end; 0 when not classified. */
    public long deadlineDelta() {
        return deadlineDelta;
    }

    /** |present delta| modulo the refresh period; 0 when not classified. */
    public long deltaToVsync() {
        return deltaToVsync;
    }
}
