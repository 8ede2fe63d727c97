package io.gfxstats.timeline;

/** When a frame was presented against its prediction (FramePresentMetadata). */
public enum PresentMetadata {
    ON_TIME("on_time"), LATE("late"), EARLY("early"), UNKNOWN("unknown");

    private final String json;

    PresentMetadata(String json) {
        this.json = json;
    }

    public String json() {
        return json;
    }
}
