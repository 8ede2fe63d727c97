package io.gfxstats.record;

/** Comma-separated whole numbers read straight from bytes, without a String per line. */
final class CsvLongs {
    private CsvLongs() {
    }

    /**
     * Parses {@code buf[from..to)} ("1,2, 3" with optional spaces around values and one
     * trailing comma, as devices print framestats rows) into {@code out}.
     *
     * @return how many values, or -1 - (index of the first bad value) when a value is not a
     *         whole number that fits in 64 bits, or when there are more values than {@code out} holds
     */
    static int parse(byte[] buf, int from, int to, long[] out) {
        int n = 0;
        int i = from;
        while (true) {
            while (i < to && (buf[i] == ' ' || buf[i] == '\t')) {
                i++;
            }
            if (i == to) {
                // empty line, or the empty field after a trailing comma
                return n;
            }
            if (n == out.length) {
                return -1 - n;
            }
            boolean negative = buf[i] == '-';
            if (negative) {
                i++;
            }
            int digits = 0;
            long v = 0;
            while (i < to && buf[i] >= '0' && buf[i] <= '9') {
                int d = buf[i] - '0';
                // 18 digits always fit; only longer numbers need the (dividing) overflow check.
                if (digits >= 18 && v > (Long.MAX_VALUE - d) / 10) {
                    return -1 - n;
                }
                v = v * 10 + d;
                digits++;
                i++;
            }
            while (i < to && (buf[i] == ' ' || buf[i] == '\t')) {
                i++;
            }
            if (digits == 0 || (i < to && buf[i] != ',')) {
                return -1 - n;
            }
            out[n++] = negative ? -v : v;
            if (i == to) {
                return n;
            }
            i++; // the comma
        }
    }
}
