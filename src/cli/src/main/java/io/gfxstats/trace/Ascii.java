package io.gfxstats.trace;

/**
 * Byte tests and scans over ASCII text in a byte array, shared by the row-header parser and the
 * marker decoder: the reader works on bytes so that lines it skips never become Strings.
 */
final class Ascii {
    private Ascii() {
    }

    static boolean isDigit(byte b) {
        return b >= '0' && b <= '9';
    }

    static boolean isBlank(byte b) {
        return b == ' ' || b == '\t';
    }

    /** The first {@code b} in [from, to), or -1. */
    static int indexOf(byte[] buf, byte b, int from, int to) {
        for (int i = from; i < to; i++) {
            if (buf[i] == b) {
                return i;
            }
        }
        return -1;
    }

    /** Whether {@code what} occurs anywhere in [start, end). */
    static boolean contains(byte[] b, int start, int end, byte[] what) {
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

    /** Whether [from, to) is exactly {@code what}. */
    static boolean equalsAt(byte[] b, int from, int to, byte[] what) {
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

    static boolean startsWith(byte[] b, int from, int to, byte[] what) {
        return to - from >= what.length && equalsAt(b, from, from + what.length, what);
    }

    /** The decimal digits in [from, to) (the caller has checked they are digits), -1 above int range. */
    static int parseInt(byte[] b, int from, int to) {
        long v = 0;
        for (int i = from; i < to; i++) {
            v = v * 10 + (b[i] - '0');
            if (v > Integer.MAX_VALUE) {
                return -1;
            }
        }
        return (int) v;
    }
}
