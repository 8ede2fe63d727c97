package io.gfxstats.timeline;

/** JankSeverityType: how far off the present was, against the render period. */
public enum Severity {
    UNKNOWN("unknown"), NONE("none"), PARTIAL("partial"), FULL("full");

    private final String json;

    Severity(String json) {
        this.json = json;
    }

    public String json() {
        return json;
    }
}
