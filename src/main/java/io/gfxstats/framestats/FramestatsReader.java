package io.gfxstats.framestats;

import io.gfxstats.stats.Pipeline;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
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

    private final String source;
    private final List<FramestatsBlock> blocks = new ArrayList<>();

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

    private FramestatsReader(String source) {
        this.source = source;
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
        FramestatsReader reader = new FramestatsReader(source);
        reader.readAll(in instanceof BufferedReader b ? b : new BufferedReader(in));
        return List.copyOf(reader.blocks);
    }

    private void readAll(BufferedReader in) throws IOException, FramestatsFormatException {
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

    private void sectionLine(String line, int lineNo) throws FramestatsFormatException {
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
            return;
        }
        if (trimmed.equals(SECTION_MARKER)) {
            finishSection();
            sectionLine = -1;
            resetWindow();
            return;
        }
        rows.add(parseRow(trimmed, lineNo));
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

    private void finishSection() {
        int intervalColumn = mapping.resolveInterval(rows);
        List<long[]> complete = new ArrayList<>(rows.size());
        for (long[] row : rows) {
            long[] fields = mapping.toFields(row, intervalColumn);
            if (mapping.isComplete(fields)) {
                complete.add(fields);
            }
        }
        String name = window != null ? window : viewRoot != null ? viewRoot : process != null ? process : source;
        DeviceStats device = stats == null ? null : stats.build();
        blocks.add(new FramestatsBlock(name, process, mapping.columnSet(), headerLine, rows.size(),
                complete.toArray(new long[0][]), device, pipeline));
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
