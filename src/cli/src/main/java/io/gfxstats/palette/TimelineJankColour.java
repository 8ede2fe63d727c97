package io.gfxstats.palette;

import io.gfxstats.timeline.JankType;

/**
 * One colour per FrameTimeline jank type (SurfaceFlinger's classification of a frame), for the
 * report's frame charts of Perfetto traces and frame logs. A frame with several types is marked by
 * the first of this order that it has: the app's own miss first, as Perfetto's jank tracks lead
 * with it, then SurfaceFlinger's, then the rest. Distinct hues, none of them a step of
 * {@link Severity} nor the blue of the frame-time line.
 */
public enum TimelineJankColour {
    APP_DEADLINE_MISSED(JankType.APP_DEADLINE_MISSED, "App deadline missed", "#d4329a"),
    SF_CPU_DEADLINE_MISSED(JankType.SF_CPU_DEADLINE_MISSED, "SurfaceFlinger CPU deadline missed", "#8e44ad"),
    SF_GPU_DEADLINE_MISSED(JankType.SF_GPU_DEADLINE_MISSED, "SurfaceFlinger GPU deadline missed", "#e67e22"),
    DISPLAY_HAL(JankType.DISPLAY_HAL, "Display HAL", "#16a085"),
    PREDICTION_ERROR(JankType.PREDICTION_ERROR, "Prediction error", "#b7950b"),
    SF_SCHEDULING(JankType.SF_SCHEDULING, "SurfaceFlinger scheduling", "#5d6d7e"),
    BUFFER_STUFFING(JankType.BUFFER_STUFFING | JankType.SF_STUFFING, "Buffer stuffing", "#00acc1"),
    DROPPED(JankType.DROPPED, "Dropped", "#6d4c41"),
    /** Unknown, or one of Android 16's types not listed above. */
    OTHER(JankType.ALL, "Other jank type", "#7f8c8d");

    private final int bits;
    private final String label;
    private final String hex;

    TimelineJankColour(int bits, String label, String hex) {
        this.bits = bits;
        this.label = label;
        this.hex = hex;
    }

    /** {@code #rrggbb}, for HTML. */
    public String hex() {
        return hex;
    }

    /** The name a legend shows. */
    public String label() {
        return label;
    }

    /** The mark of a frame with these jank bits ({@link JankType}), or null for a frame with none. */
    public static TimelineJankColour of(int jank) {
        if ((jank & JankType.ALL) == 0) {
            return null;
        }
        for (TimelineJankColour c : values()) {
            if ((jank & c.bits) != 0) {
                return c;
            }
        }
        return OTHER;
    }
}
