package io.gfxstats.palette;

import io.gfxstats.stats.JankType;
import java.util.List;

/**
 * One colour per jank cause, wherever a cause is drawn (the report's frame charts; docs/cli.md
 * lists them). A cause is a kind, not a degree, so these are distinct hues, none of them a step of
 * {@link Severity}'s green-to-red scale and none the blue of the frame-time line they sit on.
 */
public enum CauseColour {
    MISSED_VSYNC(JankType.MISSED_VSYNC, "#8e44ad"),
    SLOW_UI_THREAD(JankType.SLOW_UI_THREAD, "#e67e22"),
    SLOW_BITMAP_UPLOAD(JankType.SLOW_BITMAP_UPLOAD, "#16a085"),
    SLOW_DRAW(JankType.SLOW_DRAW, "#d4329a"),
    /** A janky frame with none of the four causes: it only missed its deadline. */
    DEADLINE_ONLY(null, "#6d4c41");

    private final JankType cause;
    private final String hex;

    CauseColour(JankType cause, String hex) {
        this.cause = cause;
        this.hex = hex;
    }

    /** The cause, null for {@link #DEADLINE_ONLY}. */
    public JankType cause() {
        return cause;
    }

    /** {@code #rrggbb}, for HTML and SVG. */
    public String hex() {
        return hex;
    }

    /** The name a legend shows. */
    public String label() {
        return cause == null ? "Deadline missed only" : cause.label();
    }

    /** The colour of one of the four causes. */
    public static CauseColour of(JankType cause) {
        for (CauseColour c : values()) {
            if (c.cause == cause) {
                return c;
            }
        }
        throw new IllegalArgumentException(cause + " is not a jank cause");
    }

    /** The four causes, in the order a janky frame is marked by its first one. */
    public static List<JankType> causes() {
        return List.of(MISSED_VSYNC.cause, SLOW_UI_THREAD.cause, SLOW_BITMAP_UPLOAD.cause, SLOW_DRAW.cause);
    }
}
