package io.gfxstats.timeline;

/**
 * When a DisplayFrame's work started against its prediction (FrameStartMetadata). Android never
 * assigns "on time": a start within the threshold stays {@link #UNKNOWN} (spec 3.4, quirk 5), so
 * this type has no such value.
 */
public enum StartMetadata {
    LATE("late"), EARLY("early"), UNKNOWN("unknown");

    private final String json;

    StartMetadata(String json) {
        this.json = json;
    }

    public String json() {
        return json;
    }
}
