package io.gfxstats.timeline.perfetto;

/**
 * One FrameTimeline slice of a trace: an expected or actual DisplayFrame or SurfaceFrame, opened
 * by its start event and closed by the FrameEnd with the same cookie ({@link #dur} -1 while
 * unclosed). Enum fields keep the proto's numbers; {@link #jankType} is the proto bitmask.
 */
public final class FrameSlice {
    public enum Kind { EXPECTED_DISPLAY, ACTUAL_DISPLAY, EXPECTED_SURFACE, ACTUAL_SURFACE }

    /** Marker for an int field the event did not carry. */
    public static final int ABSENT = Integer.MIN_VALUE;

    Kind kind;
    long ts;
    long dur = -1;
    long cookie;
    long token;
    long displayFrameToken;
    int pid;
    String layerName;
    int presentType = ABSENT;
    boolean onTimeFinish;
    boolean gpuComposition;
    int jankType = ABSENT;
    int predictionType = ABSENT;
    int jankSeverityType = ABSENT;
    float presentDelayMillis = Float.NaN;
    /** {@code jank_severity_score} (Android 16+ SurfaceFlinger), 0 when the event has none, as Perfetto reads it. */
    float jankSeverityScore;

    public Kind kind() {
        return kind;
    }

    public long ts() {
        return ts;
    }

    public long dur() {
        return dur;
    }

    /** The end of a closed slice, or -1. */
    public long end() {
        return dur < 0 ? -1 : ts + dur;
    }

    /** The surface frame token of a surface slice; the display frame token of a display slice. */
    public long token() {
        return token;
    }

    /** The display frame a surface slice belongs to; for a display slice, its own token. */
    public long displayFrameToken() {
        return kind == Kind.EXPECTED_DISPLAY || kind == Kind.ACTUAL_DISPLAY ? token : displayFrameToken;
    }

    public int pid() {
        return pid;
    }

    public String layerName() {
        return layerName;
    }

    public int presentType() {
        return presentType;
    }

    public boolean onTimeFinish() {
        return onTimeFinish;
    }

    public boolean gpuComposition() {
        return gpuComposition;
    }

    public int jankType() {
        return jankType;
    }

    public int predictionType() {
        return predictionType;
    }

    public int jankSeverityType() {
        return jankSeverityType;
    }

    public float presentDelayMillis() {
        return presentDelayMillis;
    }

    public float jankSeverityScore() {
        return jankSeverityScore;
    }

    public boolean isSurface() {
        return kind == Kind.EXPECTED_SURFACE || kind == Kind.ACTUAL_SURFACE;
    }
}
