package io.gfxstats.timeline.perfetto;

import io.airlift.compress.zstd.ZstdInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PushbackInputStream;
import java.util.zip.Inflater;
import java.util.zip.InflaterInputStream;
import java.util.zip.ZipException;

/**
 * Opens a trace's compressed packets as a stream (deflate as Perfetto writes it, or zstd with
 * airlift's pure-Java decoder), so a packet is parsed while it inflates and never held whole. Each
 * compressed packet may expand to at most {@link #limit()} bytes: past that it is a compression
 * bomb, refused while only a buffer of it has been inflated.
 */
final class PacketDecompressor {
    /** The default limit of one compressed packet's expansion. */
    static final long DEFAULT_LIMIT = 64L << 20;

    private final long limit;

    PacketDecompressor(long limit) {
        this.limit = limit;
    }

    long limit() {
        return limit;
    }

    /** Thrown from inside the inflating stream; {@link FrameTimelineReader} turns it into an error. */
    static final class ExpansionLimitException extends IOException {
        private static final long serialVersionUID = 1L;

        ExpansionLimitException(String message) {
            super(message);
        }
    }

    InputStream inflate(InputStream compressed) throws IOException {
        // Perfetto writes zlib streams (a header whose first two bytes are a multiple of 31 with
        // method 8); accept raw deflate too.
        PushbackInputStream in = new PushbackInputStream(compressed, 2);
        int b0 = in.read();
        int b1 = b0 < 0 ? -1 : in.read();
        if (b1 >= 0) {
            in.unread(b1);
        }
        if (b0 >= 0) {
            in.unread(b0);
        }
        boolean zlib = b1 >= 0 && (b0 & 0x0f) == 8 && ((b0 << 8) | b1) % 31 == 0;
        Inflater inflater = new Inflater(!zlib);
        return bounded(new InflaterInputStream(in, inflater, 1 << 14) {
            @Override
            public void close() throws IOException {
                inflater.end();
            }
        }, "deflate");
    }

    InputStream unzstd(InputStream compressed) throws IOException {
        return bounded(new ZstdInputStream(compressed), "zstd");
    }

    private InputStream bounded(InputStream inflated, String kind) {
        return new InputStream() {
            private long total;

            @Override
            public int read() throws IOException {
                byte[] one = new byte[1];
                return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                int n;
                try {
                    n = inflated.read(b, off, (int) Math.min(len, limit - total + 1));
                } catch (RuntimeException e) {
                    // airlift reports corrupt frames as unchecked exceptions.
                    throw new ZipException("corrupt " + kind + " data: " + e.getMessage());
                }
                if (n > 0) {
                    total += n;
                    if (total > limit) {
                        throw new ExpansionLimitException("a " + kind + "-compressed packet expands past "
                                + (limit >> 20) + " MiB (a compression bomb?); raise the limit with --max-packet-mib"
                                + " if the trace is genuine");
                    }
                }
                return n;
            }

            @Override
            public void close() throws IOException {
                inflated.close();
            }
        };
    }
}
