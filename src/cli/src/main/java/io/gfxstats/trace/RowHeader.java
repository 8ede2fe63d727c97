package io.gfxstats.trace;

import static io.gfxstats.trace.Ascii.indexOf;
import static io.gfxstats.trace.Ascii.isBlank;
import static io.gfxstats.trace.Ascii.isDigit;
import static io.gfxstats.trace.Ascii.parseInt;

import java.nio.charset.StandardCharsets;

/**
 * The ftrace row header {@code <TASK>-<TID> (<TGID>) [<CPU>] <FLAGS> <SEC>.<FRAC>: } of one line
 * (spec 2.1). One instance is reused for every line so that the reader allocates nothing per line;
 * its fields are valid until the next {@link #parse}.
 *
 * <p>The header is found from the CPU column outwards because the task may contain spaces and
 * dashes: the task ends at the last {@code -<digits>} before the optional TGID and the CPU column.
 */
final class RowHeader {
    private final String source;
    int taskStart;
    int taskEnd;
    int tid;
    /** -1 when the row prints dashes or has no TGID column. */
    int rowTgid;
    /** Nanoseconds of the trace clock. */
    long ts;
    /** Where the event name starts (after the timestamp and its blanks). */
    int eventStart;
    /** The CPU column. */
    int cpu;

    RowHeader(String source) {
        this.source = source;
    }

    /**
     * Parses the header of the line [p, end), {@code p} at its first non-blank byte; false when the
     * line has none. Throws only for a timestamp out of range.
     */
    boolean parse(byte[] b, int p, int end, long lineNumber) throws TraceFormatException {
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
            return false;
        }
        int left = bracket - 1;
        while (left > p && isBlank(b[left])) {
            left--;
        }
        int tgid = -1;
        if (b[left] == ')') {
            int open = left - 1;
            while (open > p && b[open] != '(') {
                open--;
            }
            if (b[open] != '(') {
                return false;
            }
            tgid = parseTgid(b, open + 1, left);
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
            return false;
        }
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
                return false;
            }
        }
        ts = parseTimestamp(b, q, tokEnd - 1, lineNumber);
        tid = parseInt(b, d + 1, left + 1);
        rowTgid = tgid;
        cpu = parseInt(b, bracket + 1, indexOf(b, (byte) ']', bracket, end));
        taskStart = p;
        taskEnd = d;
        int e = tokEnd;
        while (e < end && isBlank(b[e])) {
            e++;
        }
        eventStart = e;
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

    private static final double[] POWERS_OF_TEN = new double[23];

    static {
        POWERS_OF_TEN[0] = 1;
        for (int i = 1; i < POWERS_OF_TEN.length; i++) {
            POWERS_OF_TEN[i] = POWERS_OF_TEN[i - 1] * 10;
        }
    }

    /**
     * "<sec>.<frac>" in [from, to) as nanoseconds the way trace_streamer computes them: the text as
     * the nearest double, times 1e9 in double arithmetic, truncated. The double nearest to
     * "1.000001" is a hair below it, so that row is at 1000000999 ns.
     */
    private long parseTimestamp(byte[] b, int from, int to, long lineNumber) throws TraceFormatException {
        long mantissa = 0;
        int fractionDigits = 0;
        boolean fraction = false;
        boolean exact = true;
        for (int i = from; i < to; i++) {
            if (b[i] == '.') {
                fraction = true;
                continue;
            }
            if (mantissa >= 100_000_000_000_000L) {
                exact = false;
                break;
            }
            mantissa = mantissa * 10 + (b[i] - '0');
            if (fraction) {
                fractionDigits++;
            }
        }
        double seconds;
        if (exact && fractionDigits < POWERS_OF_TEN.length) {
            // Both below 2^53 and exact: one correctly rounded division gives the nearest double,
            // as strtod does.
            seconds = mantissa / POWERS_OF_TEN[fractionDigits];
        } else {
            seconds = Double.parseDouble(new String(b, from, to - from, StandardCharsets.US_ASCII));
        }
        if (seconds > 9_000_000_000.0) {
            throw new TraceFormatException(source + ":" + lineNumber + ": timestamp out of range");
        }
        return (long) (seconds * 1e9);
    }

    /** The TGID column's content: digits, or dashes / blanks for an unknown TGID (-1). */
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
}
