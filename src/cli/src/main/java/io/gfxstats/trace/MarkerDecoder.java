package io.gfxstats.trace;

import static io.gfxstats.trace.Ascii.indexOf;
import static io.gfxstats.trace.Ascii.isDigit;
import static io.gfxstats.trace.Ascii.startsWith;

/**
 * Decodes a user-marker payload {@code P|pid|...} into the reused {@link MarkerLine} the way
 * trace_streamer does (spec 2.2, 3.1), including which payloads it drops.
 */
final class MarkerDecoder {
    private static final byte[] CLOCK_SYNC = MarkerLine.ascii("trace_event_clock_sync");

    private MarkerDecoder() {
    }

    /**
     * Fills the payload fields of {@code m} from [p, end); false when trace_streamer would drop the
     * line (unknown phase, no name, unparsable value, clock sync markers).
     */
    static boolean decode(byte[] b, int p, int end, MarkerLine m) {
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
        if (phase == 'E') {
            // "E|1234 " (a blank after the pid, as some writers leave it) still ends the slice.
            while (end > p + 1 && (b[end - 1] == ' ' || b[end - 1] == '\t')) {
                end--;
            }
        }
        int len = end - p;
        if (len == 1 && phase != 'E') {
            return false;
        }
        if (len >= 2 && b[p + 1] != '|') {
            return false;
        }
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
                if (!parseValue(b, valueIndex, valueEnd, m)) {
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

    /** A signed decimal into {@code m.value}; false when [from, to) is not one or overflows. */
    private static boolean parseValue(byte[] b, int from, int to, MarkerLine m) {
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
        m.value = negative ? -v : v;
        return true;
    }
}
