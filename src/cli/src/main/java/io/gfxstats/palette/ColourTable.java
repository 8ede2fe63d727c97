package io.gfxstats.palette;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Colours by key, in a fixed order: the one lookup behind both palettes of gfxstats (the
 * {@link Severity} scale and the {@link CauseColour} hues), so a palette is a list of rows and
 * nothing else.
 *
 * @param <K> what a colour belongs to
 */
public final class ColourTable<K> {
    /** {@link Row#xterm256()} of a colour the terminal does not draw. */
    public static final int NO_XTERM = -1;

    /**
     * One colour.
     *
     * @param key      what it colours
     * @param label    the name a legend shows
     * @param hex      {@code #rrggbb}, for HTML and SVG
     * @param xterm256 the xterm-256 index of the same colour, or {@link #NO_XTERM}
     */
    public record Row<K>(K key, String label, String hex, int xterm256) {
        /** The ANSI escape that sets this colour as the foreground. */
        public String ansiForeground() {
            if (xterm256 == NO_XTERM) {
                throw new IllegalStateException(label + " has no terminal colour");
            }
            return "\u001b[38;5;" + xterm256 + "m";
        }
    }

    private final List<Row<K>> rows;

    ColourTable(List<Row<K>> rows) {
        Set<K> seen = new HashSet<>();
        for (Row<K> r : rows) {
            if (!seen.add(r.key())) {
                // Two colours for one key would make of() answer whichever comes first.
                throw new IllegalArgumentException(r.key() + " has two colours");
            }
        }
        this.rows = List.copyOf(rows);
    }

    /** The row of {@code key}. */
    public Row<K> of(K key) {
        for (Row<K> r : rows) {
            if (r.key().equals(key)) {
                return r;
            }
        }
        throw new IllegalArgumentException(key + " has no colour");
    }

    /** Every row, in the table's order. */
    public List<Row<K>> rows() {
        return rows;
    }

    /** Every key, in the table's order. */
    public List<K> keys() {
        List<K> keys = new ArrayList<>(rows.size());
        for (Row<K> r : rows) {
            keys.add(r.key());
        }
        return List.copyOf(keys);
    }
}
