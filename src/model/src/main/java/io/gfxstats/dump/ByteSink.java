package io.gfxstats.dump;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A growable byte buffer that text is rendered into without intermediate Strings: decimal
 * numbers are written digit by digit, constant text comes as pre-encoded bytes.
 */
final class ByteSink {
    private static final byte[] LONG_MIN = Long.toString(Long.MIN_VALUE).getBytes(StandardCharsets.US_ASCII);

    private byte[] buf;
    private int len;

    ByteSink(int initialCapacity) {
        buf = new byte[initialCapacity];
    }

    static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    int size() {
        return len;
    }

    ByteSink put(byte b) {
        ensure(1);
        buf[len++] = b;
        return this;
    }

    ByteSink put(byte[] bytes) {
        return put(bytes, 0, bytes.length);
    }

    ByteSink put(byte[] bytes, int from, int to) {
        int n = to - from;
        ensure(n);
        System.arraycopy(bytes, from, buf, len, n);
        len += n;
        return this;
    }

    /** Characters that are known to be ASCII (numbers formatted elsewhere, literals). */
    ByteSink putAscii(String s) {
        int n = s.length();
        ensure(n);
        for (int i = 0; i < n; i++) {
            buf[len++] = (byte) s.charAt(i);
        }
        return this;
    }

    /** {@code value} as printf's {@code %d}/{@code %lld}. */
    ByteSink putDecimal(long value) {
        if (value == Long.MIN_VALUE) {
            return put(LONG_MIN);
        }
        ensure(20);
        long v = value;
        if (v < 0) {
            buf[len++] = '-';
            v = -v;
        }
        int start = len;
        do {
            buf[len++] = (byte) ('0' + (int) (v % 10));
            v /= 10;
        } while (v != 0);
        for (int i = start, j = len - 1; i < j; i++, j--) {
            byte t = buf[i];
            buf[i] = buf[j];
            buf[j] = t;
        }
        return this;
    }

    void writeTo(OutputStream out) throws IOException {
        out.write(buf, 0, len);
    }

    void reset() {
        len = 0;
    }

    private void ensure(int extra) {
        if (len + extra > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(buf.length * 2, len + extra));
        }
    }
}
