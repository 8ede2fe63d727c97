package io.gfxstats.framestats;

import io.gfxstats.frame.FrameInfo;

/**
 * Framestats rows one at a time, as a live stream delivers them ({@code gfxstats record
 * --format framestats}): columns mapped by the header's names like {@link FramestatsReader}
 * does, the FrameInterval/FrameStartTime swap decided per row, and rows of frames still in
 * flight recognised. Reuses the caller's arrays: parsing allocates nothing.
 */
public final class FramestatsRowParser {
    /** The header assumed when a stream starts with rows: Android 12+'s 23 columns. */
    public static final String MODERN_HEADER;

    static {
        StringBuilder sb = new StringBuilder();
        for (int f = 0; f < FrameInfo.FIELD_COUNT; f++) {
            sb.append(f == 0 ? "" : ",").append(FrameInfo.name(f));
        }
        MODERN_HEADER = sb.toString();
    }

    private final ColumnMapping mapping;

    private FramestatsRowParser(ColumnMapping mapping) {
        this.mapping = mapping;
    }

    /** Whether a line is a framestats header (it names the Flags column first). */
    public static boolean isHeader(String line) {
        return ColumnMapping.isHeader(line.strip());
    }

    /** @throws FramestatsFormatException when the header lacks a column the rules need */
    public static FramestatsRowParser forHeader(String header, String source, int lineNo)
            throws FramestatsFormatException {
        return new FramestatsRowParser(ColumnMapping.parseHeader(header.strip(), source, lineNo));
    }

    /** Values a row must have. */
    public int width() {
        return mapping.width();
    }

    /** Which jank rules the columns call for (16 columns: Android 9's). */
    public ColumnSet columnSet() {
        return mapping.columnSet();
    }

    /**
     * Loads a row of {@link #width()} values in header order into {@code into}.
     *
     * @return false when the row is a frame still in flight (not counted, as in captures)
     */
    public boolean load(long[] row, FrameInfo into) {
        mapping.load(row, mapping.resolveInterval(row), into);
        return mapping.isComplete(into);
    }
}
