package io.gfxstats.framestats;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;

/**
 * The text of a capture, whatever saved it: UTF-8 with or without a byte-order mark (adb on
 * Linux and macOS, PowerShell 7), UTF-16LE or UTF-16BE with a mark (Windows PowerShell 5's
 * {@code >} writes UTF-16LE with a mark), and UTF-16 without a mark when the text starts with
 * an ASCII character, as every capture does. The mark is consumed. Line ends (LF, CRLF) are the
 * line reader's business: {@link java.io.BufferedReader#readLine()} accepts both.
 *
 * <p>The one place where capture bytes become characters: every command that reads a capture
 * (framestats, --check, replay, a file or standard input) goes through it.
 */
public final class CaptureText {
    private CaptureText() {
    }

    /** A reader of {@code in}'s text in the encoding its first bytes show; reads nothing before the first read. */
    public static Reader reader(InputStream in) throws IOException {
        BufferedInputStream b = in instanceof BufferedInputStream bis ? bis : new BufferedInputStream(in);
        b.mark(4);
        byte[] head = new byte[4];
        int n = readUpTo(b, head);
        b.reset();
        Charset charset;
        int skip;
        if (n >= 3 && (head[0] & 0xff) == 0xEF && (head[1] & 0xff) == 0xBB && (head[2] & 0xff) == 0xBF) {
            charset = StandardCharsets.UTF_8;
            skip = 3;
        } else if (n >= 2 && (head[0] & 0xff) == 0xFF && (head[1] & 0xff) == 0xFE) {
            charset = StandardCharsets.UTF_16LE;
            skip = 2;
        } else if (n >= 2 && (head[0] & 0xff) == 0xFE && (head[1] & 0xff) == 0xFF) {
            charset = StandardCharsets.UTF_16BE;
            skip = 2;
        } else if (n >= 2 && head[0] != 0 && head[1] == 0) {
            charset = StandardCharsets.UTF_16LE;
            skip = 0;
        } else if (n >= 2 && head[0] == 0 && head[1] != 0) {
            charset = StandardCharsets.UTF_16BE;
            skip = 0;
        } else {
            charset = StandardCharsets.UTF_8;
            skip = 0;
        }
        b.skipNBytes(skip);
        return new InputStreamReader(b, charset);
    }

    /**
     * Reads until {@code head} is full or the stream ends. On a pipe this waits for the first
     * bytes only, which a reader needs anyway.
     */
    private static int readUpTo(InputStream in, byte[] head) throws IOException {
        int n = 0;
        while (n < head.length) {
            int r = in.read(head, n, head.length - n);
            if (r < 0) {
                break;
            }
            n += r;
            if (n >= 2 && !(head[0] == (byte) 0xEF && n < 3)) {
                // Enough to tell: two bytes decide everything but a UTF-8 mark, which needs three.
                break;
            }
        }
        return n;
    }
}
