package io.gfxstats.framestats;

import io.gfxstats.stats.Pipeline;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads framestats from the output of {@code adb shell dumpsys gfxinfo <pkg> framestats} (any
 * number of processes and windows, 23- or 16-column rows) or from a bare framestats CSV (a
 * header line then rows).
 *
 * <p>In a dump, each {@code ---PROFILEDATA---} section becomes one {@link FramestatsBlock},
 * named by the "Window:" line before it and carrying the statistics block the device printed
 * between that line and the section. Everything else in the dump (view hierarchy, memory,
 * caches) is skipped. Columns are mapped by header name; rows of frames still in flight are
 * counted but not kept; a row that cannot be read fails the whole read with its line number, so
 * nothing is replayed from a half-understood file.
 */
public final class FramestatsReader {
    static final String SECTION_MARKER = "---PROFILEDATA---";
    private static final Pattern PROCESS = Pattern.compile("\\*\\* Graphics info for pid \\d+ \\[(.+)\\] \\*\\*");
    private static final Pattern VIEW_ROOT =
            Pattern.compile("\t(.+?)(?:/android\\.view\\.ViewRootImpl@[0-9a-fA-F]+)? \\(visibility=-?\\d+\\)");
    private static final String WINDOW = "Window: ";
    private static final String PIPELINE = "Pipeline=";

    /**
     * Told of each finished frame as soon as its row is read, for a live sink ({@code replay -}).
     * Frames come in input order; every frame belongs to the section last started.
     */
    public interface FrameListener {
        /** A {@code ---PROFILEDATA---} section (or a bare CSV) begins: a new window. */
        void sectionStarted(String name, ColumnSet columnSet, Pipeline pipeline) throws InterruptedException;

        /** A finished frame of the current section, as {@link io.gfxstats.frame.FrameInfo} fields. */
        void frame(long[] fields) throws InterruptedException;

        /** The current section ended. */
        void sectionFinished() throws InterruptedException;
    }

    private final String source;
    private final List<FramestatsBlock> blocks = new ArrayList<>();
    /** Null when reading whole blocks. */
    private final FrameListener listener;
    /** Streaming: the interval votes ({@link ColumnMapping#tallyInterval}) of the section's rows so far. */
    private final int[] intervalTally = new int[2];

    // Context of the section being approached or read.
    private String process;
    private Pipeline pipeline = Pipeline.UNKNOWN;
    private String window;
    private String viewRoot;
    private DeviceStatsParser stats;

    // The section being read.
    private int sectionLine = -1;
    private ColumnMapping mapping;
    private int headerLine;
    private final List<long[]> rows = new ArrayList<>();

    private FramestatsReader(String source, FrameListener listener) {
        this.source = source;
        this.listener = listener;
    }

    /** Reads a file; blocks without a window name are named by the file's name. */
    public static List<FramestatsBlock> read(Path file) throws IOException, FramestatsFormatException {
        try (InputStream in = Files.newInputStream(file)) {
            return read(in, file.getFileName().toString());
        }
    }

    /**
     * Reads a capture's bytes in whatever encoding saved them ({@link CaptureText}: UTF-8 or
     * UTF-16, with or without a byte-order mark); {@code source} names unnamed blocks and error
     * messages.
     */
    public static List<FramestatsBlock> read(InputStream in, String source) throws IOException, FramestatsFormatException {
        return read(CaptureText.reader(in), source);
    }

    /**
     * Reads framestats text. Returns no blocks when the text holds no framestats at all (for
     * example a gfxinfo dump taken without the {@code framestats} argument).
     */
    public static List<FramestatsBlock> read(Reader in, String source) throws IOException, FramestatsFormatException {
        FramestatsReader reader = new FramestatsReader(source, null);
        try {
            reader.readAll(in instanceof BufferedReader b ? b : new BufferedReader(in));
        } catch (InterruptedException e) {
            throw new AssertionError("no listener, nothing waits", e);
        }
        return List.copyOf(reader.blocks);
    }

    /**
     * Reads a capture line by line and hands each finished frame to {@code listener} as soon as
     * its row has been read (and the device's statistics blocks are skipped), so a capture fed
     * through a pipe is recorded while it arrives. Same rules as {@link #read(Reader, String)},
     * except that the FrameInterval/FrameStartTime swap is decided over the rows read so far
     * (for real captures that is the same from the first row on). A malformed row stops the read
     * with its line number; frames before it have been handed out.
     *
     * @return sections (windows) read
     */
    public static int stream(InputStream in, String source, FrameListener listener)
            throws IOException, FramestatsFormatException, InterruptedException {
        FramestatsReader reader = new FramestatsReader(source, Objects.requireNonNull(listener, "listener"));
        reader.readAll(new BufferedReader(CaptureText.reader(in)));
        return reader.sections;
    }

    private int sections;

    private void readAll(BufferedReader in) throws IOException, FramestatsFormatException, InterruptedException {
        boolean bareCsv = false;
        boolean first = true;
        int lineNo = 0;
        String line;
        while ((line = in.readLine()) != null) {
            lineNo++;
            line = stripCr(line);
            if (first && !line.isBlank()) {
                first = false;
                if (ColumnMapping.isHeader(line.strip())) {
                    // A bare CSV: the whole input is one section without markers.
                    bareCsv = true;
                    sectionLine = lineNo;
                }
            }
            if (sectionLine >= 0) {
                sectionLine(line, lineNo);
            } else {
                outsideLine(line, lineNo);
            }
        }
        if (bareCsv) {
            if (mapping != null) {
                finishSection();
            }
        } else if (sectionLine >= 0) {
            throw new FramestatsFormatException(source, sectionLine,
                    SECTION_MARKER + " section is never closed (truncated dump?)");
        }
    }

    private void outsideLine(String line, int lineNo) throws FramestatsFormatException {
        String trimmed = line.strip();
        if (trimmed.equals(SECTION_MARKER)) {
            sectionLine = lineNo;
            return;
        }
        Matcher m = PROCESS.matcher(trimmed);
        if (m.matches()) {
            process = m.group(1);
            pipeline = Pipeline.UNKNOWN;
            resetWindow();
            return;
        }
        if (trimmed.startsWith(PIPELINE)) {
            pipeline = pipelineOf(trimmed.substring(PIPELINE.length()));
            return;
        }
        if (line.startsWith(WINDOW)) {
            String name = line.substring(WINDOW.length()).strip();
            // A nameless window would be dropped by every dump writer; fall back to the next name.
            window = name.isEmpty() ? null : name;
            stats = new DeviceStatsParser(source);
            return;
        }
        m = VIEW_ROOT.matcher(line.stripTrailing());
        if (m.matches()) {
            viewRoot = m.group(1);
            return;
        }
        if (stats != null) {
            stats.offer(trimmed, lineNo);
        }
    }

    private void sectionLine(String line, int lineNo) throws FramestatsFormatException, InterruptedException {
        String trimmed = line.strip();
        if (trimmed.isEmpty()) {
            return;
        }
        if (mapping == null) {
            if (!ColumnMapping.isHeader(trimmed)) {
                throw new FramestatsFormatException(source, lineNo,
                        "expected the framestats header (Flags,IntendedVsync,...) after " + SECTION_MARKER);
            }
            mapping = ColumnMapping.parseHeader(trimmed, source, lineNo);
            headerLine = lineNo;
            sections++;
            if (listener != null) {
                Arrays.fill(intervalTally, 0);
                listener.sectionStarted(sectionName(), mapping.columnSet(), pipeline);
            }
            return;
        }
        if (trimmed.equals(SECTION_MARKER)) {
            finishSection();
            sectionLine = -1;
            resetWindow();
            return;
        }
        long[] row = parseRow(trimmed, lineNo);
        if (listener == null) {
            rows.add(row);
            return;
        }
        mapping.tallyInterval(row, intervalTally);
        long[] fields = mapping.toFields(row, mapping.intervalColumn(intervalTally));
        if (mapping.isComplete(fields)) {
            listener.frame(fields);
        }
    }

    private String sectionName() {
        return window != null ? window : viewRoot != null ? viewRoot : process != null ? process : source;
    }

    private long[] parseRow(String line, int lineNo) throws FramestatsFormatException {
        String[] values = ColumnMapping.split(line);
        if (values.length != mapping.width()) {
            throw new FramestatsFormatException(source, lineNo, "row has " + values.length
                    + " values, the header (line " + headerLine + ") has " + mapping.width() + " columns");
        }
        long[] row = new long[values.length];
        for (int c = 0; c < values.length; c++) {
            try {
                row[c] = Long.parseLong(values[c]);
            } catch (NumberFormatException e) {
                throw new FramestatsFormatException(source, lineNo,
                        "column " + mapping.name(c) + " holds '" + abbreviate(values[c]) + "', not an integer");
            }
        }
        return row;
    }

    private void finishSection() throws InterruptedException {
        if (listener != null) {
            mapping = null;
            listener.sectionFinished();
            return;
        }
        int intervalColumn = mapping.resolveInterval(rows);
        List<long[]> complete = new ArrayList<>(rows.size());
        List<long[]> matrix = new ArrayList<>(rows.size());
        for (long[] row : rows) {
            long[] fields = mapping.toFields(row, intervalColumn);
            if (mapping.isComplete(fields)) {
                complete.add(fields);
            }
            if (mapping.isMatrixFrame(fields)) {
                matrix.add(fields);
            }
        }
        String name = sectionName();
        DeviceStats device = stats == null ? null : stats.build();
        blocks.add(new FramestatsBlock(name, process, mapping.columnSet(), headerLine, rows.size(),
                complete.toArray(new long[0][]), matrix.toArray(new long[0][]), device, pipeline));
        rows.clear();
        mapping = null;
    }

    private void resetWindow() {
        window = null;
        viewRoot = null;
        stats = null;
    }

    private static Pipeline pipelineOf(String description) {
        if (description.contains("Vulkan")) {
            return Pipeline.VULKAN;
        }
        if (description.contains("OpenGL")) {
            return Pipeline.GL;
        }
        return Pipeline.UNKNOWN;
    }

    private static String stripCr(String line) {
        return line.endsWith("\r") ? line.substring(0, line.length() - 1) : line;
    }

    private static String abbreviate(String value) {
        return value.length() <= 40 ? value : value.substring(0, 37) + "...";
    }
}
