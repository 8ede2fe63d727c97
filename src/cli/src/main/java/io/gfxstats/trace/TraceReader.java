package io.gfxstats.trace;

import static io.gfxstats.trace.Ascii.contains;
import static io.gfxstats.trace.Ascii.equalsAt;
import static io.gfxstats.trace.Ascii.indexOf;
import static io.gfxstats.trace.Ascii.isBlank;

import java.io.IOException;
import java.io.InputStream;
import java.util.function.LongConsumer;

/**
 * Streams ftrace text ({@code hitrace --trace_dump}, atrace, {@code .ftrace}/{@code .systrace}),
 * plain or gzip, and hands every user-marker line to a {@link MarkerSink}. Memory stays bounded by
 * the longest line ({@link LineScanner}) and nothing is allocated per line: the row header
 * ({@link RowHeader}), the payload ({@link MarkerDecoder}) and the {@link MarkerLine} are reused.
 *
 * <p>Row grammar (spec 2.1): {@code <TASK>-<TID> (<TGID>) [<CPU>] <FLAGS> <SEC>.<FRAC>: <EVENT>: <PAYLOAD>}.
 * The TGID column and the flags may be missing; the TGID may be dashes; the task may contain spaces
 * and dashes (it ends at the last {@code -<digits>}); lines may start with spaces or tabs and end in
 * CRLF, CR CR LF or CR alone; fractions have any number of digits up to 9. A marker line without a
 * row header is skipped and counted ({@link Stats#skippedLines}); systrace HTML is read from its
 * trace-data blocks. Only {@code tracing_mark_write} and
 * {@code print} rows are decoded further, and {@code sched_switch} and {@code sched_process_exit} for
 * the thread table ({@link KernelDecoder}); every other row costs one scan to its end.
 */
public final class TraceReader {
    private static final byte[] TRACING_MARK_WRITE = MarkerLine.ascii("tracing_mark_write");
    private static final byte[] PRINT = MarkerLine.ascii("print");
    private static final byte[] SCHED_SWITCH = MarkerLine.ascii("sched_switch");
    private static final byte[] SCHED_PROCESS_EXIT = MarkerLine.ascii("sched_process_exit");

    private final String source;
    private final RowHeader header;
    private final MarkerLine marker = new MarkerLine();
    private static final byte[] HTML_DOCTYPE = MarkerLine.ascii("<!DOCTYPE html");
    private static final byte[] HTML = MarkerLine.ascii("<html");
    private static final byte[] TRACE_DATA = MarkerLine.ascii("<script class=\"trace-data\"");
    private static final byte[] SCRIPT_END = MarkerLine.ascii("</script>");

    /** Systrace HTML: null until the first line says, then whether rows are inside a trace-data block. */
    private Boolean html;
    private boolean inTraceData;
    private long skippedLines;
    private long firstSkippedLine;
    private long eventLines;
    private long markerLines;
    private long droppedMarkers;
    private long firstTs = Long.MAX_VALUE;
    private long lastTs = Long.MIN_VALUE;

    private final MarkerWindow window;
    /** Marker lines held to put them in timestamp order, by default. */
    public static final int SORT_WINDOW = MarkerWindow.LINES;
    /** The widest sort window. */
    public static final int MAX_SORT_WINDOW = MarkerWindow.MAX_LINES;

    private TraceReader(String source, MarkerSink sink, int sortWindow) {
        this.source = source;
        this.window = new MarkerWindow(sink, sortWindow);
        this.header = new RowHeader(source);
    }

    /** What a read found besides the markers it delivered. */
    public record Stats(long eventLines, long markerLines, long droppedMarkers, long firstTs, long lastTs,
            long skippedLines, long firstSkippedLine, long unsortedLines) {
        public boolean hasEvents() {
            return eventLines > 0;
        }
    }

    /**
     * Reads {@code in} to its end (gzip is recognised by its magic bytes). {@code progress}, if not
     * null, gets the number of bytes taken from {@code in} after every block.
     */
    public static Stats read(InputStream in, String source, MarkerSink sink, LongConsumer progress)
            throws IOException, TraceFormatException {
        return read(in, source, sink, progress, SORT_WINDOW);
    }

    /** As {@link #read(InputStream, String, MarkerSink, LongConsumer)}, sorting in a window of {@code sortWindow} lines. */
    public static Stats read(InputStream in, String source, MarkerSink sink, LongConsumer progress, int sortWindow)
            throws IOException, TraceFormatException {
        TraceReader reader = new TraceReader(source, sink, sortWindow);
        new LineScanner(source).scan(in, reader::line, progress);
        reader.window.finish();
        return new Stats(reader.eventLines, reader.markerLines, reader.droppedMarkers, reader.firstTs, reader.lastTs,
                reader.skippedLines, reader.firstSkippedLine, reader.window.late());
    }

    /** Parses one line [start, end) (without its '\n'). */
    private void line(byte[] b, int start, int end, long lineNumber) throws TraceFormatException {
        // CR CR LF (a CRLF file converted again) ends in more than one CR.
        while (end > start && b[end - 1] == '\r') {
            end--;
        }
        int p = start;
        while (p < end && isBlank(b[p])) {
            p++;
        }
        if (p >= end) {
            return;
        }
        lineWithText(b, start, p, end, lineNumber);
    }

    private void lineWithText(byte[] b, int start, int p, int end, long lineNumber) throws TraceFormatException {
        if (html == null) {
            html = equalsIgnoringCase(b, p, end, HTML_DOCTYPE) || equalsIgnoringCase(b, p, end, HTML);
        }
        if (html) {
            // Systrace HTML: rows only inside <script class="trace-data"> blocks; the viewer's own
            // JavaScript around them mentions tracing_mark_write and is not trace text.
            if (!inTraceData) {
                inTraceData = contains(b, p, end, TRACE_DATA);
                return;
            }
            if (contains(b, p, end, SCRIPT_END)) {
                inTraceData = false;
                return;
            }
        }
        if (b[p] == '#') {
            return;
        }
        RowHeader h = header;
        if (!h.parse(b, p, end, lineNumber)) {
            malformedUnlessMarker(b, start, end, lineNumber);
            return;
        }
        long ts = h.ts;
        eventLines++;
        if (ts < firstTs) {
            firstTs = ts;
        }
        if (ts > lastTs) {
            lastTs = ts;
        }
        int e = h.eventStart;
        int colon = indexOf(b, (byte) ':', e, end);
        if (colon < 0) {
            return;
        }
        if (!equalsAt(b, e, colon, TRACING_MARK_WRITE) && !equalsAt(b, e, colon, PRINT)) {
            kernelRow(b, p, e, colon, end, lineNumber);
            return;
        }
        int payload = colon + 1;
        if (payload < end && b[payload] == ' ') {
            payload++;
        }
        markerLines++;
        MarkerLine m = marker;
        if (!MarkerDecoder.decode(b, payload, end, m)) {
            droppedMarkers++;
            return;
        }
        toWindow(m, b, p, end, lineNumber);
    }

    /**
     * The kernel rows the thread and process tables need (sched_switch, sched_process_exit) go into
     * the sort window with the markers; every other row is passed over.
     */
    private void kernelRow(byte[] b, int p, int e, int colon, int end, long lineNumber) throws TraceFormatException {
        boolean isSwitch = equalsAt(b, e, colon, SCHED_SWITCH);
        if (!isSwitch && !equalsAt(b, e, colon, SCHED_PROCESS_EXIT)) {
            return;
        }
        int args = colon + 1;
        while (args < end && b[args] == ' ') {
            args++;
        }
        MarkerLine m = marker;
        boolean ok = isSwitch ? KernelDecoder.schedSwitch(b, args, end, m) : KernelDecoder.processExit(b, args, end, m);
        if (!ok) {
            return;
        }
        toWindow(m, b, p, end, lineNumber);
    }

    /** Gives the decoded row {@code m} the current row header's fields and puts it in the sort window. */
    private void toWindow(MarkerLine m, byte[] b, int p, int end, long lineNumber) throws TraceFormatException {
        RowHeader h = header;
        m.buf = b;
        m.lineNumber = lineNumber;
        m.taskStart = h.taskStart;
        m.taskEnd = h.taskEnd;
        m.tid = h.tid;
        m.rowTgid = h.rowTgid;
        m.ts = h.ts;
        m.cpu = h.cpu;
        window.add(m, p, end);
    }

    /** A marker line without a row header is skipped and counted, as trace_streamer skips it. */
    private void malformedUnlessMarker(byte[] b, int start, int end, long lineNumber) {
        if (contains(b, start, end, TRACING_MARK_WRITE)) {
            if (skippedLines++ == 0) {
                firstSkippedLine = lineNumber;
            }
        }
    }

    private static boolean equalsIgnoringCase(byte[] b, int p, int end, byte[] prefix) {
        if (end - p < prefix.length) {
            return false;
        }
        for (int i = 0; i < prefix.length; i++) {
            if (Character.toLowerCase(b[p + i]) != Character.toLowerCase(prefix[i])) {
                return false;
            }
        }
        return true;
    }
}
