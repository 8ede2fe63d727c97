package io.gfxstats.timeline.perfetto;

import com.google.protobuf.CodedInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * The bytes of one length-delimited field as a stream, read from the enclosing protobuf stream a
 * buffer at a time: a compressed packet of any size is fed to its decompressor without being
 * copied into one array.
 */
final class FieldStream extends InputStream {
    private static final int CHUNK = 1 << 16;
    /** Small reads: in a cut file, what lies before the cut still reaches the decompressor. */
    private static final int READ = 1 << 12;

    private final CodedInputStream in;
    private long left;

    FieldStream(CodedInputStream in, long length) {
        this.in = in;
        this.left = length;
    }

    @Override
    public int read() throws IOException {
        if (left == 0) {
            return -1;
        }
        left--;
        return in.readRawByte() & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        if (left == 0) {
            return -1;
        }
        int n = (int) Math.min(Math.min(len, left), READ);
        byte[] chunk = in.readRawBytes(n);
        System.arraycopy(chunk, 0, b, off, n);
        left -= n;
        return n;
    }

    /** Skips what the decompressor did not read (trailing bytes after its end marker). */
    void drain() throws IOException {
        while (left > 0) {
            int n = (int) Math.min(left, CHUNK);
            in.skipRawBytes(n);
            left -= n;
        }
    }
}
