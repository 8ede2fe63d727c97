package io.gfxstats.trace;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PushbackInputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.function.LongConsumer;
import java.util.zip.GZIPInputStream;

/**
 * Cuts a plain or gzip byte stream into lines for a {@link LineHandler}, in blocks of
 * {@link #BLOCK_BYTES}, so that memory stays bounded by the longest line and nothing is kept. The
 * buffer grows only for a line longer than a block, up to {@link #MAX_LINE_BYTES}.
 */
final class LineScanner {
    static final int BLOCK_BYTES = 1 << 20;
    /** A longer line is not trace text (markers are cut at 512 characters by hitrace). */
    static final int MAX_LINE_BYTES = 16 << 20;
    /**
     * Text taken from gzip data may be at most this many times the compressed bytes read, once
     * past {@link #EXPANSION_FREE_BYTES}: ftrace text compresses 5-30 times, a gzip bomb over a
     * thousand (issue 26: 1.35 MB that took 2.26 GB of heap).
     */
    static final int MAX_GZIP_EXPANSION = 200;
    static final long EXPANSION_FREE_BYTES = 64L << 20;
    /** Only the start is checked: a text trace has no NUL there, binary formats have them early. */
    private static final int BINARY_CHECK_BYTES = 4096;

    /**
     * Gets each line without its '\n' (CRs before it are left to the handler). A text whose first
     * block has carriage returns but no line feed (classic Mac line ends) is cut at each CR instead.
     */
    interface LineHandler {
        void line(byte[] b, int start, int end, long lineNumber) throws TraceFormatException;
    }

    private final String source;

    LineScanner(String source) {
        this.source = source;
    }

    /**
     * Hands every line of {@code in} to {@code handler} (gzip is recognised by its magic bytes).
     * {@code progress}, if not null, gets the number of bytes taken from {@code in} after every block.
     */
    void scan(InputStream in, LineHandler handler, LongConsumer progress) throws IOException, TraceFormatException {
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
        boolean gzip = b0 == 0x1f && b1 == 0x8b;
        InputStream text = gzip ? new GZIPInputStream(pushback, 1 << 16) : pushback;
        readAll(text, counted, handler, progress, gzip);
    }

    private void readAll(InputStream in, CountingInputStream counted, LineHandler handler, LongConsumer progress,
                         boolean gzip) throws IOException, TraceFormatException {
        byte[] buf = new byte[BLOCK_BYTES];
        long text = 0;
        int len = 0;
        long lineNumber = 0;
        boolean checkedBinary = false;
        long separators = NEWLINES;
        byte separator = '\n';
        int start = 0;
        while (true) {
            int n = in.readNBytes(buf, len, buf.length - len);
            boolean eof = n < buf.length - len;
            start = 0;
            text += n;
            if (gzip && text > EXPANSION_FREE_BYTES && text / Math.max(1, counted.count) > MAX_GZIP_EXPANSION) {
                throw new TraceFormatException(source + ": gzip data expands more than " + MAX_GZIP_EXPANSION
                        + " times (" + (text >> 20) + " MiB of text from " + (counted.count >> 10)
                        + " KiB): not a trace");
            }
            if (!checkedBinary && len + n > 0) {
                checkBinary(buf, len + n);
                checkedBinary = true;
                // A UTF-8 byte order mark (Windows editors) is not part of the first task name.
                if (len + n >= 3 && buf[0] == (byte) 0xef && buf[1] == (byte) 0xbb && buf[2] == (byte) 0xbf) {
                    start = 3;
                }
                if (indexOfNewline(buf, 0, len + n) < 0 && indexOf(buf, 0, len + n, CRS, (byte) '\r') >= 0) {
                    separators = CRS;
                    separator = '\r';
                }
            }
            len += n;
            int nl;
            while ((nl = indexOf(buf, start, len, separators, separator)) >= 0) {
                lineNumber++;
                handler.line(buf, start, nl, lineNumber);
                start = nl + 1;
            }
            if (eof) {
                if (start < len) {
                    lineNumber++;
                    handler.line(buf, start, len, lineNumber);
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
                buf = Arrays.copyOf(buf, buf.length * 2);
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
        int limit = Math.min(len, BINARY_CHECK_BYTES);
        for (int i = 0; i < limit; i++) {
            if (buf[i] == 0) {
                throw new TraceFormatException(source + ": binary data, not trace text (binary .htrace and"
                        + " Perfetto protobuf traces are not supported; capture text with hitrace or atrace)");
            }
        }
    }

    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long NEWLINES = 0x0A0A_0A0A_0A0A_0A0AL;
    private static final long ONES = 0x0101_0101_0101_0101L;
    private static final long HIGHS = 0x8080_8080_8080_8080L;

    /**
     * The next '\n' in [from, to), or -1: eight bytes at a time (the lowest byte that becomes zero
     * after XOR with '\n' is found exactly by the classic has-zero-byte test), since finding line
     * ends is most of the work for lines that are not markers.
     */
    static int indexOfNewline(byte[] buf, int from, int to) {
        return indexOf(buf, from, to, NEWLINES, (byte) '\n');
    }

    private static final long CRS = 0x0D0D_0D0D_0D0D_0D0DL;

    private static int indexOf(byte[] buf, int from, int to, long pattern, byte one) {
        int i = from;
        for (; i + 8 <= to; i += 8) {
            long x = (long) LONGS.get(buf, i) ^ pattern;
            long t = (x - ONES) & ~x & HIGHS;
            if (t != 0) {
                return i + (Long.numberOfTrailingZeros(t) >>> 3);
            }
        }
        for (; i < to; i++) {
            if (buf[i] == one) {
                return i;
            }
        }
        return -1;
    }

    /** Counts the bytes taken from the underlying stream, for progress before decompression. */
    private static final class CountingInputStream extends FilterInputStream {
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
