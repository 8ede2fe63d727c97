package io.gfxstats.framestats;

import io.gfxstats.frame.FrameInfo;
import io.gfxstats.matrix.MatrixRule;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Maps the columns of one framestats header onto modern {@link FrameInfo} fields by name, so
 * both the 23-column and the 16-column layouts (and any future reordering) are read the same way.
 *
 * <p>Devices print the FrameInterval and FrameStartTime header names swapped relative to the
 * data, so those two columns are not trusted by name: {@link #resolveInterval(List)} decides from
 * the values which one holds the interval.
 */
final class ColumnMapping {
    /** A plausible frame interval is well under one second; a start time is a monotonic timestamp. */
    static final long MAX_PLAUSIBLE_INTERVAL_NANOS = 1_000_000_000L;

    private static final int[] MODERN_REQUIRED = {
        FrameInfo.FLAGS, FrameInfo.INTENDED_VSYNC, FrameInfo.VSYNC, FrameInfo.FRAME_DEADLINE,
        FrameInfo.SYNC_QUEUED, FrameInfo.SYNC_START, FrameInfo.ISSUE_DRAW_COMMANDS_START,
        FrameInfo.SWAP_BUFFERS, FrameInfo.FRAME_COMPLETED, FrameInfo.GPU_COMPLETED,
        FrameInfo.SWAP_BUFFERS_COMPLETED,
    };
    private static final int[] ANDROID9_REQUIRED = {
        FrameInfo.FLAGS, FrameInfo.INTENDED_VSYNC, FrameInfo.VSYNC, FrameInfo.SYNC_QUEUED,
        FrameInfo.SYNC_START, FrameInfo.ISSUE_DRAW_COMMANDS_START, FrameInfo.FRAME_COMPLETED,
    };

    private final String[] names;
    private final int[] target;
    private final ColumnSet columnSet;
    private final int namedIntervalColumn;
    private final int namedStartTimeColumn;
    private final int gpuCompletedColumn;

    private ColumnMapping(String[] names, int[] target, ColumnSet columnSet, int namedInterval, int namedStart,
                          int gpuCompleted) {
        this.names = names;
        this.target = target;
        this.columnSet = columnSet;
        this.namedIntervalColumn = namedInterval;
        this.namedStartTimeColumn = namedStart;
        this.gpuCompletedColumn = gpuCompleted;
    }

    /** Whether a line is a framestats header (it names the Flags column first). */
    static boolean isHeader(String line) {
        return line.startsWith("Flags,");
    }

    /** Splits a CSV line, dropping the empty field after the trailing comma devices print. */
    static String[] split(String line) {
        String[] parts = line.split(",", -1);
        int n = parts.length;
        if (n > 0 && parts[n - 1].isBlank()) {
            n--;
        }
        String[] out = new String[n];
        for (int i = 0; i < n; i++) {
            out[i] = parts[i].trim();
        }
        return out;
    }

    static ColumnMapping parseHeader(String line, String source, int lineNo) throws FramestatsFormatException {
        String[] names = split(line);
        int[] target = new int[names.length];
        Set<String> seen = new HashSet<>();
        int namedInterval = -1;
        int namedStart = -1;
        int gpu = -1;
        boolean[] present = new boolean[FrameInfo.FIELD_COUNT];
        for (int c = 0; c < names.length; c++) {
            String name = names[c];
            if (name.isEmpty()) {
                throw new FramestatsFormatException(source, lineNo, "header column " + (c + 1) + " has no name");
            }
            if (!seen.add(name)) {
                throw new FramestatsFormatException(source, lineNo, "header names column " + name + " twice");
            }
            // Unknown names (OldestInputEvent/NewestInputEvent of Android 8/9, columns of newer
            // releases) map to no field: the trackers cannot use them.
            int field = FrameInfo.fieldOf(name);
            target[c] = field;
            if (field >= 0) {
                present[field] = true;
            }
            if (field == FrameInfo.FRAME_INTERVAL) {
                namedInterval = c;
            } else if (field == FrameInfo.FRAME_START_TIME) {
                namedStart = c;
            } else if (field == FrameInfo.GPU_COMPLETED) {
                gpu = c;
            }
        }
        ColumnSet set = present[FrameInfo.FRAME_DEADLINE] ? ColumnSet.MODERN : ColumnSet.ANDROID9;
        List<String> missing = new ArrayList<>();
        for (int field : set == ColumnSet.MODERN ? MODERN_REQUIRED : ANDROID9_REQUIRED) {
            if (!present[field]) {
                missing.add(FrameInfo.name(field));
            }
        }
        if (set == ColumnSet.MODERN && namedInterval < 0 && namedStart < 0) {
            missing.add(FrameInfo.name(FrameInfo.FRAME_INTERVAL));
        }
        if (!missing.isEmpty()) {
            throw new FramestatsFormatException(source, lineNo,
                    "framestats header lacks column" + (missing.size() > 1 ? "s " : " ") + String.join(", ", missing));
        }
        return new ColumnMapping(names, target, set, namedInterval, namedStart, gpu);
    }

    int width() {
        return names.length;
    }

    String name(int column) {
        return names[column];
    }

    ColumnSet columnSet() {
        return columnSet;
    }

    /**
     * The header column that holds the frame interval: of the columns named FrameInterval and
     * FrameStartTime, the one with more plausible interval values (0 < v < 1 s); on a tie (for
     * example no rows), the one named FrameInterval. -1 when the header has neither.
     */
    int resolveInterval(List<long[]> rows) {
        int[] tally = new int[2];
        for (long[] row : rows) {
            tallyInterval(row, tally);
        }
        return intervalColumn(tally);
    }

    /** Adds a row's votes to {@code tally}: [0] for the column named FrameInterval, [1] for FrameStartTime. */
    void tallyInterval(long[] row, int[] tally) {
        if (namedIntervalColumn < 0 || namedStartTimeColumn < 0) {
            return;
        }
        if (plausibleInterval(row[namedIntervalColumn])) {
            tally[0]++;
        }
        if (plausibleInterval(row[namedStartTimeColumn])) {
            tally[1]++;
        }
    }

    /** The interval column for a tally of votes ({@link #resolveInterval(List)}'s rule). */
    int intervalColumn(int[] tally) {
        if (namedIntervalColumn < 0 || namedStartTimeColumn < 0) {
            return namedIntervalColumn >= 0 ? namedIntervalColumn : namedStartTimeColumn;
        }
        return tally[1] > tally[0] ? namedStartTimeColumn : namedIntervalColumn;
    }

    private static boolean plausibleInterval(long v) {
        return v > 0 && v < MAX_PLAUSIBLE_INTERVAL_NANOS;
    }

    /**
     * Copies a row (values in header order) into a modern field array, putting the value of
     * {@code intervalColumn} into FrameInterval and that of the other interval/start-time
     * candidate into FrameStartTime.
     */
    long[] toFields(long[] row, int intervalColumn) {
        long[] fields = new long[FrameInfo.FIELD_COUNT];
        for (int c = 0; c < row.length; c++) {
            int field = target[c];
            if (c == intervalColumn) {
                field = FrameInfo.FRAME_INTERVAL;
            } else if (c == namedIntervalColumn || c == namedStartTimeColumn) {
                field = FrameInfo.FRAME_START_TIME;
            }
            if (field >= 0) {
                fields[field] = row[c];
            }
        }
        return fields;
    }

    /**
     * The interval column for one row on its own (a live stream has no rows ahead to vote with):
     * the column named FrameInterval if its value is a plausible interval, else the one named
     * FrameStartTime if that one's is, else the one named FrameInterval.
     */
    int resolveInterval(long[] row) {
        if (namedIntervalColumn < 0 || namedStartTimeColumn < 0) {
            return namedIntervalColumn >= 0 ? namedIntervalColumn : namedStartTimeColumn;
        }
        return !plausibleInterval(row[namedIntervalColumn]) && plausibleInterval(row[namedStartTimeColumn])
                ? namedStartTimeColumn : namedIntervalColumn;
    }

    /** As {@link #toFields} into a reused frame, without allocating. */
    FrameInfo load(long[] row, int intervalColumn, FrameInfo into) {
        for (int f = 0; f < FrameInfo.FIELD_COUNT; f++) {
            into.set(f, 0);
        }
        for (int c = 0; c < names.length; c++) {
            int field = target[c];
            if (c == intervalColumn) {
                field = FrameInfo.FRAME_INTERVAL;
            } else if (c == namedIntervalColumn || c == namedStartTimeColumn) {
                field = FrameInfo.FRAME_START_TIME;
            }
            if (field >= 0) {
                into.set(field, row[c]);
            }
        }
        return into;
    }

    /** {@link #isComplete(long[])} for a loaded frame. */
    boolean isComplete(FrameInfo frame) {
        long completed = frame.get(FrameInfo.FRAME_COMPLETED);
        long intended = frame.get(FrameInfo.INTENDED_VSYNC);
        long span = completed - intended;
        boolean overflow = ((completed ^ intended) & (completed ^ span)) < 0;
        if (overflow || span <= 0 || span >= FramestatsBlock.MAX_FRAME_SPAN_NANOS) {
            return false;
        }
        return gpuCompletedColumn < 0 || frame.get(FrameInfo.GPU_COMPLETED) > 0;
    }

    /**
     * Whether Matrix 2.1 would have been given this frame and kept it on its total: the frame was
     * delivered (GpuCompleted set, where the column exists) and its TOTAL_DURATION is valid for
     * Matrix ({@code 0 <= T < 2^62 - 1}), which includes the totals of 0 ns and of an hour or more
     * that {@link #isComplete(long[])} leaves out of Android's replay.
     */
    boolean isMatrixFrame(long[] fields) {
        long completed = fields[FrameInfo.FRAME_COMPLETED];
        long intended = fields[FrameInfo.INTENDED_VSYNC];
        long span = completed - intended;
        boolean overflow = ((completed ^ intended) & (completed ^ span)) < 0;
        if (overflow || !MatrixRule.isValidDuration(span)) {
            return false;
        }
        return gpuCompletedColumn < 0 || fields[FrameInfo.GPU_COMPLETED] > 0;
    }

    /**
     * Whether a row describes a finished frame. Frames still in flight when the dump was taken
     * carry 0 or garbage in their completion columns.
     */
    boolean isComplete(long[] fields) {
        long completed = fields[FrameInfo.FRAME_COMPLETED];
        long intended = fields[FrameInfo.INTENDED_VSYNC];
        long span = completed - intended;
        boolean overflow = ((completed ^ intended) & (completed ^ span)) < 0;
        if (overflow || span <= 0 || span >= FramestatsBlock.MAX_FRAME_SPAN_NANOS) {
            return false;
        }
        return gpuCompletedColumn < 0 || fields[FrameInfo.GPU_COMPLETED] > 0;
    }
}
