package io.gfxstats.timeline;

/** Whether a SurfaceFrame's buffer reached the screen or was replaced before latch. */
public enum PresentState {
    PRESENTED("presented"), DROPPED("dropped"), UNKNOWN("unknown");

    private final String json;

    PresentState(String json) {
        this.json = json;
    }

    public String json() {
        return json;
    }
}
