package io.gfxstats.palette;

import io.gfxstats.palette.ColourTable.Row;
import io.gfxstats.timeline.JankType;
import java.util.List;

/**
 * One colour per FrameTimeline jank type (SurfaceFlinger's classification of a frame), for the
 * report's frame charts of Perfetto traces and frame logs. Keyed by the {@link JankType} bits a
 * row stands for; a frame with several types is marked by the first row it matches: the app's own
 * miss first, as Perfetto's jank tracks lead with it, then SurfaceFlinger's, then the rest.
 * Distinct hues, none of them a step of {@link Severity} nor the blue of the frame-time line.
 */
public final class TimelineJankColour {
    /** Unknown, or one of Android 16's types not listed before it. */
    public static final int OTHER = JankType.ALL;

    public static final ColourTable<Integer> COLOURS = new ColourTable<>(List.of(
            row(JankType.APP_DEADLINE_MISSED, "App deadline missed", "#d4329a"),
            row(JankType.SF_CPU_DEADLINE_MISSED, "SurfaceFlinger CPU deadline missed", "#8e44ad"),
            row(JankType.SF_GPU_DEADLINE_MISSED, "SurfaceFlinger GPU deadline missed", "#e67e22"),
            row(JankType.DISPLAY_HAL, "Display HAL", "#16a085"),
            row(JankType.PREDICTION_ERROR, "Prediction error", "#b7950b"),
            row(JankType.SF_SCHEDULING, "SurfaceFlinger scheduling", "#5d6d7e"),
            row(JankType.BUFFER_STUFFING | JankType.SF_STUFFING, "Buffer stuffing", "#00acc1"),
            row(JankType.DROPPED, "Dropped", "#6d4c41"),
            row(OTHER, "Other jank type", "#7f8c8d")));

    private TimelineJankColour() {
    }

    private static Row<Integer> row(int bits, String label, String hex) {
        return new Row<>(bits, label, hex, ColourTable.NO_XTERM);
    }

    /** The index in {@link #COLOURS} of the mark of a frame with these jank bits, or -1 for a frame with none. */
    public static int index(int jank) {
        if ((jank & JankType.ALL) == 0) {
            return -1;
        }
        List<Row<Integer>> rows = COLOURS.rows();
        for (int i = 0; i < rows.size(); i++) {
            if ((jank & rows.get(i).key()) != 0) {
                return i;
            }
        }
        return rows.size() - 1;
    }
}
