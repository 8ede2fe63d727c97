package io.gfxstats.palette;

import io.gfxstats.palette.ColourTable.Row;
import io.gfxstats.stats.JankType;
import java.util.List;

/**
 * One colour per jank cause, wherever a cause is drawn (the report's frame charts; docs/cli.md
 * lists them). A cause is a kind, not a degree, so these are distinct hues, none of them a step of
 * {@link Severity}'s green-to-red scale and none the blue of the frame-time line they sit on.
 */
public final class CauseColour {
    /**
     * The key of a janky frame with none of the causes: it only missed its deadline (its row's
     * label says so, where Android's counter of the same name counts every such frame).
     */
    public static final JankType DEADLINE_ONLY = JankType.MISSED_DEADLINE;

    /** Each of {@link JankType#STAGE_CAUSES}, and {@link #DEADLINE_ONLY}. */
    public static final ColourTable<JankType> COLOURS = new ColourTable<>(List.of(
            cause(JankType.MISSED_VSYNC, "#8e44ad"),
            cause(JankType.SLOW_UI_THREAD, "#e67e22"),
            cause(JankType.SLOW_BITMAP_UPLOAD, "#16a085"),
            cause(JankType.SLOW_DRAW, "#d4329a"),
            new Row<>(DEADLINE_ONLY, "Deadline missed only", "#6d4c41", ColourTable.NO_XTERM)));

    private CauseColour() {
    }

    private static Row<JankType> cause(JankType cause, String hex) {
        return new Row<>(cause, cause.label(), hex, ColourTable.NO_XTERM);
    }
}
