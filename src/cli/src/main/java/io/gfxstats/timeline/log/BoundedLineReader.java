package io.gfxstats.timeline.log;

import java.io.IOException;
import java.io.Reader;

/**
 * Reads lines (ended by LF, CR LF or CR) of at most a given length: a longer line is refused when
 * the limit is passed, so one endless line cannot take the heap. Says whether the next line is
 * already buffered, so a caller on a live pipe can flush its answers before it would wait.
 */
final class BoundedLineReader {
    /** Thrown for a line longer than the limit. */
    static final class LineTooLongException extends IOException {
        private static final long serialVersionUID = 1L;

        LineTooLongException(String message) {
            super(message);
        }
    }

    private final Reader in;
    private final int maxChars;
    private final char[] buf = new char[8192];
    private int pos;
    private int end;
    private boolean skipLf;
    private StringBuilder line = new StringBuilder(256);

    BoundedLineReader(Reader in, int maxChars) {
        this.in = in;
        this.maxChars = maxChars;
    }

    /** The next line without its end, or null at the end of the input. */
    String readLine() throws IOException {
        line.setLength(0);
        boolean any = false;
        while (true) {
            if (pos == end) {
                int n = in.read(buf, 0, buf.length);
                if (n <= 0) {
                    return any ? line.toString() : null;
                }
                pos = 0;
                end = n;
            }
            any = true;
            int start = pos;
            while (pos < end) {
                char c = buf[pos];
                if (skipLf) {
                    skipLf = false;
                    if (c == '\n') {
                        start = ++pos;
                        continue;
                    }
                }
                if (c == '\n' || c == '\r') {
                    append(start, pos);
                    pos++;
                    skipLf = c == '\r';
                    if (skipLf && pos < end && buf[pos] == '\n') {
                        // The LF of a CR LF at hand is taken now, so ready() does not mistake it for a line.
                        pos++;
                        skipLf = false;
                    }
                    return line.toString();
                }
                pos++;
            }
            append(start, pos);
        }
    }

    private void append(int from, int to) throws LineTooLongException {
        if (line.length() + (to - from) > maxChars) {
            line = new StringBuilder(256);
            throw new LineTooLongException("longer than " + (maxChars >> 10) + " KiB; a line is one display frame"
                    + " (is the input JSON Lines, with a newline after each frame?)");
        }
        line.append(buf, from, to - from);
    }

    /** Whether a line's first character can be read without waiting for the input. */
    boolean ready() throws IOException {
        return pos < end || in.ready();
    }
}
