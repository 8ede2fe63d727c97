package io.gfxstats.timeline;

/** Whether the frame's token still had its prediction (FrameTimeline's PredictionState). */
public enum Prediction {
    VALID("valid"), EXPIRED("expired"), NONE("none");

    private final String json;

    Prediction(String json) {
        this.json = json;
    }

    public String json() {
        return json;
    }
}
