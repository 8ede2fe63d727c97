package io.gfxstats.live;

import io.gfxstats.matrix.MatrixRule;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * A numeric column of {@code top}'s table: its header, its text for a row, its least width (so
 * columns do not jump between refreshes) and its rank when the terminal is too narrow: columns of
 * the lowest rank are dropped first, and a column is shown whole or not at all.
 *
 * @param rank 0 for the columns never dropped
 */
record TopColumn(String header, int minWidth, int rank, Function<TopRow, String> text) {
    /** Display order; ranks say what goes first at 80 columns (the level detail, then mFPS). */
    static final List<TopColumn> ALL = List.of(
            new TopColumn("VER", 3, 10, r -> r.scene() == null ? Long.toString(r.versionCode()) : ""),
            new TopColumn("FPS", 6, 0, r -> num(r.fps())),
            new TopColumn("mFPS", 6, 4, r -> num(r.matrixFps())),
            new TopColumn("JANK%", 6, 0, r -> num(r.jankPercent())),
            new TopColumn("JANKY", 6, 9, r -> Long.toString(r.jankyFrames())),
            new TopColumn("FRAMES", 7, 6, r -> Long.toString(r.frames())),
            level("BEST", MatrixRule.BEST, 1),
            level("NORM", MatrixRule.NORMAL, 2),
            level("MID", MatrixRule.MIDDLE, 3),
            level("HIGH", MatrixRule.HIGH, 5),
            level("FROZ", MatrixRule.FROZEN, 7),
            new TopColumn("DROPPED", 7, 8, r -> Long.toString(r.dropped())));

    /**
     * Frames a package recorded but could not count because a recording ring was full: named apart
     * from DROPPED (Matrix's dropped frames of counted frames), blank on scene rows (a ring belongs
     * to a window, not a scene). Added only when a row has any, so a healthy screen keeps its
     * width; then never given up for width, as a loss must not be hidden.
     */
    static final TopColumn LOST = new TopColumn("LOST", 5, 0,
            r -> r.scene() == null ? Long.toString(r.ringDropped()) : "");

    private static TopColumn level(String header, int level, int rank) {
        return new TopColumn(header, 5, rank, r -> Long.toString(r.level(level)));
    }

    /** One decimal; "-" for a value that does not exist (no interval yet, no frames, Matrix's gate). */
    static String num(double v) {
        return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%.1f", v);
    }
}
