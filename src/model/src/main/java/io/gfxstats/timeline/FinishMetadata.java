package io.gfxstats.timeline;

/** Whether a frame's work finished by its deadline (FrameReadyMetadata). */
public enum FinishMetadata {
    ON_TIME("on_time"), LATE("late"), UNKNOWN("unknown");

    private final String json;

    FinishMetadata(String json) {
        this.json = json;
    }

    public String json() {
        return json;
    }
}
