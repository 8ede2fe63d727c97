package io.gfxstats.timeline;

/**
 * One client frame as the client knows it at commit time: its token and the predicted and
 * actual times of its work (CLOCK_MONOTONIC ns). Mutable and reusable: fill one per thread and
 * hand it to {@link TimelineRecorder#commit(TimelineFrame)}, which copies it.
 */
public final class TimelineFrame {
    long token;
    long predictedStart;
    long predictedEnd;
    long predictedPresent;
    long actualStart;
    long actualEnd;
    Prediction prediction = Prediction.VALID;

    /** Sets the token (any value unique among the frames awaiting feedback, e.g. a frame counter). */
    public TimelineFrame token(long token) {
        this.token = token;
        return this;
    }

    /** The expected start, deadline and expected present; the prediction becomes valid. */
    public TimelineFrame predicted(long start, long end, long present) {
        this.predictedStart = start;
        this.predictedEnd = end;
        this.predictedPresent = present;
        this.prediction = Prediction.VALID;
        return this;
    }

    /** No prediction for this frame (Android: no vsync id); it is counted but not classified. */
    public TimelineFrame noPrediction() {
        this.prediction = Prediction.NONE;
        return this;
    }

    /** When the frame's work started, and when it was ready: max(commit, GPU completion). */
    public TimelineFrame actual(long start, long end) {
        this.actualStart = start;
        this.actualEnd = end;
        return this;
    }

    public long token() {
        return token;
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

    public long actualEnd() {
        return actualEnd;
    }

    public Prediction prediction() {
        return prediction;
    }
}
