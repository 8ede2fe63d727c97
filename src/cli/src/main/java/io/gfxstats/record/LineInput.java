package io.gfxstats.record;

import java.io.IOException;
import java.io.InputStream;

/**
 * Splits a stream into lines as the bytes arrive: a read returns whatever a pipe or FIFO holds,
 * so each complete line is handed over at once, never waiting for a buffer to fill.
 */
public final class LineInput {
    /** Longest line; a longer one is skipped whole and reported. */
    public static final int MAX_LINE = 64 * 1024;

    /** Told about each line, {@code buf[from..to)} without the newline. */
    @FunctionalInterface
    public interface Handler {
        void line(byte[] buf, int from, int to, long lineNo);

        /** A line longer than {@link #MAX_LINE} bytes was skipped. */
        default void overlong(long lineNo) {
        }
    }

    private LineInput() {
    }

    /** Reads to the end of {@code in}; a last line without newline counts too. @return lines read */
    public static long pump(InputStream in, Handler handler) throws IOException {
        byte[] buf = new byte[MAX_LINE];
        int start = 0;
        int end = 0;
        long lineNo = 0;
        boolean overlong = false;
        while (true) {
            if (end == buf.length) {
                if (start > 0) {
                    System.arraycopy(buf, start, buf, 0, end - start);
                    end -= start;
                    start = 0;
                } else {
                    // One line fills the buffer: drop it up to its end.
                    if (!overlong) {
                        handler.overlong(++lineNo);
                    }
                    overlong = true;
                    end = 0;
                }
            }
            int n = in.read(buf, end, buf.length - end);
            if (n < 0) {
                break;
            }
            int scan = end;
            end += n;
            for (int i = scan; i < end; i++) {
                if (buf[i] == '\n') {
                    if (!overlong) {
                        handler.line(buf, start, i, ++lineNo);
                    }
                    overlong = false;
                    start = i + 1;
                }
            }
            if (start == end) {
                start = 0;
                end = 0;
            }
        }
        if (end > start && !overlong) {
            handler.line(buf, start, end, ++lineNo);
        }
        return lineNo;
    }
}
