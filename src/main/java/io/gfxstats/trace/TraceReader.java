package io.gfxstats.trace;

import java.io.IOException;
import java.io.InputStream;
import java.io.PushbackInputStream;
import java.util.function.LongConsumer;
import java.util.zip.GZIPInputStream;

/**
 * Streams ftrace text ({@code hitrace --trace_dump}, atrace, {@code .ftrace}/{@code .systrace}),
 * plain or gzip, and hands every user-marker line to a {@link MarkerSink}. Memory stays bounded by
 * the longest line: the file is read in blocks of {@link #BLOCK_BYTES} and nothing is kept.
 *
 * <p>Row grammar (spec 2.1): {@code <TASK>-<TID> (<TGID>) [<CPU>] <FLAGS> <SEC>.<FRAC>: <EVENT>: <PAYLOAD>}.
 * The TGID column and the flags may be missing; the TGID may be dashes; the task may contain spaces
 * and dashes (it ends at the last {@code -<digits>}); lines may start with spaces or tabs and end in
 * CRLF; fractions have any number of digits up to 9. Only {@code tracing_mark_write} and
 * {@code print} rows are decoded further; every other row costs one scan to its end.
 */
public final class TraceReader {
    static final int BLOCK_BYTES = 1 << 20;
    /** A longer line is not trace text (markers are cut at 512 characters by hitrace). */
    static final int MAX_LINE_BYTES = 16 << 20;
    private static final byte[] TRACING_MARK_WRITE = MarkerLine.ascii("tracing_mark_write");
    private static final byte[] PRINT = MarkerLine.ascii("print");
    private static final byte[] CLOCK_SYNC = MarkerLine.ascii("trace_event_clock_sync");

    private final String source;
    private final MarkerSink sink;
    private final MarkerLine marker = new MarkerLine();
    private long eventLines;
    private long markerLines;
    private long droppedMarkers;
    private long firstTs = Long.MAX_VALUE;
    private long lastTs = Long.MIN_VALUE;

    private TraceReader(String source, MarkerSink sink) {
        this.source = source;
        this.sink = sink;
    }

    /** What a read found besides the markers it delivered. */
    public record Stats(long eventLines, long markerLines, long droppedMarkers, long firstTs, long lastTs) {
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
        TraceReader reader = new TraceReader(source, sink);
        CountingInputStream counted = new CountingInputStream(in);
        PushbackInputStream pushback = new PushbackInputStream(counted, 2);
        int b0 = pushback.read();
        int b1 = b0 < 0 ? -1 : pushback.read();
        if (b1 >= 0) {
            pushback.unread(b1);
        }
        if (b0 >= 0) {
            pushback.unread(b0);
        }
        InputStream text = b0 == 0x1f && b1 == 0x8b ? new GZIPInputStream(pushback, 1 << 16) : pushback;
        reader.readAll(text, counted, progress);
        return new Stats(reader.eventLines, reader.markerLines, reader.droppedMarkers, reader.firstTs, reader.lastTs);
    }

    private void readAll(InputStream in, CountingInputStream counted, LongConsumer progress)
            throws IOException, TraceFormatException {
        byte[] buf = new byte[BLOCK_BYTES];
        int len = 0;
        long lineNumber = 0;
        boolean checkedBinary = false;
        while (true) {
            int n = in.readNBytes(buf, len, buf.length - len);
            boolean eof = n < buf.length - len;
            if (!checkedBinary && len + n > 0) {
                checkBinary(buf, len + n);
                checkedBinary = true;
            }
            len += n;
            int start = 0;
            int nl;
            while ((nl = indexOfNewline(buf, start, len)) >= 0) {
                lineNumber++;
                line(buf, start, nl, lineNumber);
                start = nl + 1;
            }
            if (eof) {
                if (start < len) {
                    lineNumber++;
                    line(buf, start, len, lineNumber);
                }
                if (progress != null) {
                    progress.accept(counted.count);
                }
                return;
            }
            if (start == 0 && len == buf.length) {
                if (buf.length >= MAX_LINE_BYTES) {
                    throw new TraceFormatException(source + ":" + (lineNumber + 1) + ": line longer than "
                            + (MAX_LINE_BYTES >> 20) + " MiB: not trace text");
                }
                buf = java.util.Arrays.copyOf(buf, buf.length * 2);
            } else {
                System.arraycopy(buf, start, buf, 0, len - start);
                len -= start;
            }
            if (progress != null) {
                progress.accept(counted.count);
            }
        }
    }

    private void checkBinary(byte[] buf, int len) throws TraceFormatException {
        int limit = Math.min(len, 4096);
        for (int i = 0; i < limit; i++) {
            if (buf[i] == 0) {
                throw new TraceFormatException(source + ": binary data, not trace text (binary .htrace and"
                        + " Perfetto protobuf traces are not supported; capture text with hitrace or atrace)");
            }
        }
    }

    private static final java.lang.invoke.VarHandle LONGS =
            java.lang.invoke.MethodHandles.byteArrayViewVarHandle(long[].class, java.nio.ByteOrder.LITTLE_ENDIAN);
    private static final long NEWLINES = 0x0A0A_0A0A_0A0A_0A0AL;
    private static final long ONES = 0x0101_0101_0101_0101L;
    private static final long HIGHS = 0x8080_8080_8080_8080L;

    /**
     * The next '\n' in [from, to), or -1: eight bytes at a time (the lowest byte that becomes zero
     * after XOR with '\n' is found exactly by the classic has-zero-byte test), since finding line
     * ends is most of the work for lines that are not markers.
     */
    static int indexOfNewline(byte[] buf, int from, int to) {
        int i = from;
        for (; i + 8 <= to; i += 8) {
            long x = (long) LONGS.get(buf, i) ^ NEWLINES;
            long t = (x - ONES) & ~x & HIGHS;
            if (t != 0) {
                return i + (Long.numberOfTrailingZeros(t) >>> 3);
            }
        }
        for (; i < to; i++) {
            if (buf[i] == '\n') {
                return i;
            }
        }
        return -1;
    }

    private static int indexOf(byte[] buf, byte b, int from, int to) {
        for (int i = from; i < to; i++) {
            if (buf[i] == b) {
                return i;
            }
        }
        return -1;
    }

    private static boolean isDigit(byte b) {
        return b >= '0' && b <= '9';
    }

    private static boolean isBlank(byte b) {
        return b == ' ' || b == '\t';
    }

    /** Parses one line [start, end) (without its '\n'). */
    private void line(byte[] b, int start, int end, long lineNumber) throws TraceFormatException {
        if (end > start && b[end - 1] == '\r') {
            end--;
        }
        int p = start;
        while (p < end && isBlank(b[p])) {
            p++;
        }
        if (p >= end || b[p] == '#') {
            return;
        }
        // The CPU column: '[' after a blank, digits, ']'.
        int bracket = -1;
        for (int i = p + 1; i < end; i++) {
            if (b[i] == '[' && isBlank(b[i - 1])) {
                int j = i + 1;
                while (j < end && isDigit(b[j])) {
                    j++;
                }
                if (j > i + 1 && j < end && b[j] == ']') {
                    bracket = i;
                    break;
                }
            }
        }
        if (bracket < 0) {
            malformedUnlessMarker(b, start, end, lineNumber);
            return;
        }
        int left = bracket - 1;
        while (left > p && isBlank(b[left])) {
            left--;
        }
        int rowTgid = -1;
        if (b[left] == ')') {
            int open = left - 1;
            while (open > p && b[open] != '(') {
                open--;
            }
            if (b[open] != '(') {
                malformedUnlessMarker(b, start, end, lineNumber);
                return;
            }
            rowTgid = parseTgid(b, open + 1, left);
            left = open - 1;
            while (left > p && isBlank(b[left])) {
                left--;
            }
        }
        // left is the last byte of "<task>-<tid>"
        int d = left;
        while (d >= p && isDigit(b[d])) {
            d--;
        }
        if (d == left || d < p || b[d] != '-') {
            malformedUnlessMarker(b, start, end, lineNumber);
            return;
        }
        int tid = parseInt(b, d + 1, left + 1);
        int taskStart = p;
        int taskEnd = d;
        // after "[cpu]": optional flags token, then the timestamp "<sec>.<frac>:"
        int q = indexOf(b, (byte) ']', bracket, end) + 1;
        while (q < end && isBlank(b[q])) {
            q++;
        }
        int tokEnd = q;
        while (tokEnd < end && !isBlank(b[tokEnd])) {
            tokEnd++;
        }
        if (!looksLikeTimestamp(b, q, tokEnd)) {
            q = tokEnd;
            while (q < end && isBlank(b[q])) {
                q++;
            }
            tokEnd = q;
            while (tokEnd < end && !isBlank(b[tokEnd])) {
                tokEnd++;
            }
            if (!looksLikeTimestamp(b, q, tokEnd)) {
                malformedUnlessMarker(b, start, end, lineNumber);
                return;
            }
        }
        long ts = parseTimestamp(b, q, tokEnd - 1, lineNumber);
        eventLines++;
        if (ts < firstTs) {
            firstTs = ts;
        }
        if (ts > lastTs) {
            lastTs = ts;
        }
        // event name up to ':'
        int e = tokEnd;
        while (e < end && isBlank(b[e])) {
            e++;
        }
        int colon = indexOf(b, (byte) ':', e, end);
        if (colon < 0) {
            return;
        }
        if (!equalsAt(b, e, colon, TRACING_MARK_WRITE) && !equalsAt(b, e, colon, PRINT)) {
            return;
        }
        int payload = colon + 1;
        if (payload < end && b[payload] == ' ') {
            payload++;
        }
        markerLines++;
        if (!decodePayload(b, payload, end)) {
            droppedMarkers++;
            return;
        }
        MarkerLine m = marker;
        m.buf = b;
        m.lineNumber = lineNumber;
        m.taskStart = taskStart;
        m.taskEnd = taskEnd;
        m.tid = tid;
        m.rowTgid = rowTgid;
        m.ts = ts;
        sink.marker(m);
    }

    private void malformedUnlessMarker(byte[] b, int start, int end, long lineNumber) throws TraceFormatException {
        if (contains(b, start, end, TRACING_MARK_WRITE)) {
            throw new TraceFormatException(source + ":" + lineNumber
                    + ": a tracing_mark_write line without the ftrace row header"
                    + " '<task>-<tid> (<tgid>) [<cpu>] <flags> <sec>.<frac>: '");
        }
    }

    private static boolean contains(byte[] b, int start, int end, byte[] what) {
        outer:
        for (int i = start; i + what.length <= end; i++) {
            for (int k = 0; k < what.length; k++) {
                if (b[i + k] != what[k]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }

    private static boolean equalsAt(byte[] b, int from, int to, byte[] what) {
        if (to - from != what.length) {
            return false;
        }
        for (int i = 0; i < what.length; i++) {
            if (b[from + i] != what[i]) {
                return false;
            }
        }
        return true;
    }

    private static boolean looksLikeTimestamp(byte[] b, int from, int to) {
        if (to - from < 3 || b[to - 1] != ':' || !isDigit(b[from])) {
            return false;
        }
        boolean dot = false;
        for (int i = from; i < to - 1; i++) {
            if (b[i] == '.') {
                if (dot) {
                    return false;
                }
                dot = true;
            } else if (!isDigit(b[i])) {
                return false;
            }
        }
        return dot;
    }

    /** "<sec>.<frac>" in [from, to) as nanoseconds; fractions longer than 9 digits are cut. */
    private long parseTimestamp(byte[] b, int from, int to, long lineNumber) throws TraceFormatException {
        long sec = 0;
        int i = from;
        while (i < to && b[i] != '.') {
            sec = sec * 10 + (b[i] - '0');
            if (sec > 9_000_000_000L) {
                throw new TraceFormatException(source + ":" + lineNumber + ": timestamp out of range");
            }
            i++;
        }
        i++;
        long frac = 0;
        int digits = 0;
        for (; i < to && digits < 9; i++, digits++) {
            frac = frac * 10 + (b[i] - '0');
        }
        for (; digits < 9; digits++) {
            frac *= 10;
        }
        return sec * 1_000_000_000L + frac;
    }

    private static int parseTgid(byte[] b, int from, int to) {
        while (from < to && isBlank(b[from])) {
            from++;
        }
        while (to > from && isBlank(b[to - 1])) {
            to--;
        }
        if (from == to) {
            return -1;
        }
        for (int i = from; i < to; i++) {
            if (!isDigit(b[i])) {
                return -1;
            }
        }
        return parseInt(b, from, to);
    }

    private static int parseInt(byte[] b, int from, int to) {
        long v = 0;
        for (int i = from; i < to; i++) {
            v = v * 10 + (b[i] - '0');
            if (v > Integer.MAX_VALUE) {
                return -1;
            }
        }
        return (int) v;
    }

    /**
     * Decodes {@code P|pid|...} into {@link #marker} the way trace_streamer does; false when it would
     * drop the line (unknown phase, no name, unparsable value, clock sync markers).
     */
    private boolean decodePayload(byte[] b, int p, int end) {
        while (end > p && b[end - 1] == '\n') {
            end--;
        }
        if (p >= end || startsWith(b, p, end, CLOCK_SYNC)) {
            return false;
        }
        char phase = (char) b[p];
        if ("BECSFGH".indexOf(phase) < 0) {
            return false;
        }
        int len = end - p;
        if (len == 1 && phase != 'E') {
            return false;
        }
        if (len >= 2 && b[p + 1] != '|') {
            return false;
        }
        MarkerLine m = marker;
        m.phase = phase;
        int pidLen = 0;
        long pid = 0;
        for (int i = p + 2; i < end && b[i] != '|'; i++) {
            if (!isDigit(b[i])) {
                pid = -1;
                break;
            }
            pid = pid * 10 + (b[i] - '0');
            pidLen++;
            if (pid > Integer.MAX_VALUE) {
                pid = -1;
                break;
            }
        }
        if (pid < 0) {
            return false;
        }
        m.payloadPid = (int) pid;
        m.value = 0;
        int nameIndex = p + 3 + pidLen;
        switch (phase) {
            case 'E' -> {
                m.nameStart = m.nameEnd = Math.min(nameIndex, end);
                return true;
            }
            case 'B' -> {
                if (nameIndex >= end) {
                    return false;
                }
                int nameEnd = end;
                while (nameEnd > nameIndex && b[nameEnd - 1] == ' ') {
                    nameEnd--;
                }
                if (nameEnd == nameIndex) {
                    return false;
                }
                m.nameStart = nameIndex;
                m.nameEnd = nameEnd;
                return true;
            }
            case 'S', 'F', 'C' -> {
                int nameLength = 0;
                for (int i = nameIndex; i < end; i++) {
                    if (b[i] == ' ') {
                        nameLength = i - nameIndex;
                    }
                    if (b[i] == '|') {
                        nameLength = i - nameIndex;
                        break;
                    }
                }
                if (nameLength <= 0) {
                    return false;
                }
                int valueIndex = nameIndex + nameLength + 1;
                int valueEnd = indexOf(b, (byte) '|', valueIndex, end);
                if (valueEnd < 0) {
                    valueEnd = end;
                }
                if (!parseLong(b, valueIndex, valueEnd)) {
                    return false;
                }
                m.nameStart = nameIndex;
                m.nameEnd = nameIndex + nameLength;
                return true;
            }
            default -> {
                // G and H (track-async) are valid markers but carry nothing frames use.
                m.nameStart = m.nameEnd = Math.min(nameIndex, end);
                return true;
            }
        }
    }

    private boolean parseLong(byte[] b, int from, int to) {
        if (from >= to) {
            return false;
        }
        boolean negative = b[from] == '-';
        int i = negative ? from + 1 : from;
        if (i >= to) {
            return false;
        }
        long v = 0;
        for (; i < to; i++) {
            if (!isDigit(b[i])) {
                return false;
            }
            long next = v * 10 + (b[i] - '0');
            if (next < v) {
                return false;
            }
            v = next;
        }
        marker.value = negative ? -v : v;
        return true;
    }

    private static boolean startsWith(byte[] b, int from, int to, byte[] what) {
        return to - from >= what.length && equalsAt(b, from, from + what.length, what);
    }

    private static final class CountingInputStream extends java.io.FilterInputStream {
        long count;

        CountingInputStream(InputStream in) {
            super(in);
        }

        @Override
        public int read() throws IOException {
            int r = super.read();
            if (r >= 0) {
                count++;
            }
            return r;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int r = super.read(b, off, len);
            if (r > 0) {
                count += r;
            }
            return r;
        }
    }
}
