package io.gfxstats.palette;

import io.gfxstats.matrix.MatrixRule;
import io.gfxstats.palette.ColourTable.Row;
import java.util.List;

/**
 * The one colour scale of gfxstats, from fine to bad: Matrix's five dropped-frame levels map onto
 * it one to one, and a janky percentage by {@link #ofJankPercent}. The report draws these hex
 * colours and {@code top} the same colours as xterm-256 codes: each hex value is exactly an xterm
 * cube colour, so a level or a jank band looks the same in the browser and in the terminal.
 */
public enum Severity {
    FINE,
    MINOR,
    MODERATE,
    SERIOUS,
    SEVERE;

    /**
     * Lower bounds, in percent of frames janky, of MINOR..SEVERE: below 5 % a user rarely notices
     * (the smooth synthetic profile runs at 2-3 %); from 40 % on most frames miss.
     */
    static final double[] JANK_PERCENT_FROM = {5, 10, 20, 40};

    /** The scale's colours, FINE first; labels are Matrix's level names, which map onto it one to one. */
    public static final ColourTable<Severity> COLOURS = new ColourTable<>(List.of(
            new Row<>(FINE, MatrixRule.levelName(MatrixRule.BEST), "#00af00", 34),
            new Row<>(MINOR, MatrixRule.levelName(MatrixRule.BEST + 1), "#87af00", 106),
            new Row<>(MODERATE, MatrixRule.levelName(MatrixRule.BEST + 2), "#d7af00", 178),
            new Row<>(SERIOUS, MatrixRule.levelName(MatrixRule.BEST + 3), "#d75f00", 166),
            new Row<>(SEVERE, MatrixRule.levelName(MatrixRule.FROZEN), "#d70000", 160)));

    /** {@code #rrggbb}, for HTML and SVG. */
    public String hex() {
        return COLOURS.of(this).hex();
    }

    /** The xterm-256 colour index of the same colour. */
    public int xterm256() {
        return COLOURS.of(this).xterm256();
    }

    /** The ANSI escape that sets this colour as the foreground. */
    public String ansiForeground() {
        return COLOURS.of(this).ansiForeground();
    }

    /** Matrix's level BEST..FROZEN. */
    public static Severity ofLevel(int matrixLevel) {
        if (matrixLevel < MatrixRule.BEST || matrixLevel > MatrixRule.FROZEN) {
            throw new IllegalArgumentException("no Matrix level " + matrixLevel);
        }
        return values()[matrixLevel - MatrixRule.BEST];
    }

    /** The band of a janky percentage (0..100); NaN (no frames) is FINE: nothing went wrong. */
    public static Severity ofJankPercent(double percent) {
        int band = 0;
        while (band < JANK_PERCENT_FROM.length && percent >= JANK_PERCENT_FROM[band]) {
            band++;
        }
        return values()[band];
    }

    /** The band's range as people read it, e.g. "5-10 %" or "40 % and more". */
    public String jankRange() {
        int i = ordinal();
        if (i == 0) {
            return "below " + fmt(JANK_PERCENT_FROM[0]) + " %";
        }
        if (i == JANK_PERCENT_FROM.length) {
            return fmt(JANK_PERCENT_FROM[i - 1]) + " % and more";
        }
        return fmt(JANK_PERCENT_FROM[i - 1]) + "-" + fmt(JANK_PERCENT_FROM[i]) + " %";
    }

    private static String fmt(double v) {
        return Long.toString(Math.round(v));
    }
}
