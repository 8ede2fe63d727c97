package io.gfxstats.timeline.perfetto;

import io.airlift.compress.zstd.ZstdInputStream;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * Unpacks a trace's compressed packets (deflate as Perfetto writes it, or zstd with airlift's
 * pure-Java decoder), with one budget for everything a trace expands to (a zip bomb guard).
 */
final class PacketDecompressor {
    /** Compressed packets of one trace may not expand past this in total. */
    static final long MAX_INFLATED_BYTES = 1L << 30;

    private long inflated;

    byte[] inflate(byte[] data) throws TraceFormatException {
        // Perfetto writes zlib streams; accept raw deflate too.
        try {
            return inflate(data, false);
        } catch (DataFormatException e) {
            try {
                return inflate(data, true);
            } catch (DataFormatException e2) {
                throw new TraceFormatException("corrupt deflate-compressed packets: " + e.getMessage(), e);
            }
        }
    }

    private byte[] inflate(byte[] data, boolean raw) throws DataFormatException, TraceFormatException {
        Inflater inflater = new Inflater(raw);
        try {
            inflater.setInput(data);
            java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream(data.length * 4);
            byte[] buf = new byte[64 * 1024];
            while (!inflater.finished()) {
                int n = inflater.inflate(buf);
                if (n == 0 && (inflater.needsInput() || inflater.needsDictionary())) {
                    throw new DataFormatException("truncated stream");
                }
                out.write(buf, 0, n);
                guard(n);
            }
            return out.toByteArray();
        } finally {
            inflater.end();
        }
    }

    byte[] unzstd(byte[] data) throws TraceFormatException {
        try (InputStream z = new ZstdInputStream(new ByteArrayInputStream(data))) {
            java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream(data.length * 4);
            byte[] buf = new byte[64 * 1024];
            int n;
            while ((n = z.read(buf)) > 0) {
                out.write(buf, 0, n);
                guard(n);
            }
            return out.toByteArray();
        } catch (IOException | RuntimeException e) {
            throw new TraceFormatException("corrupt zstd-compressed packets: " + e.getMessage(), e);
        }
    }

    private void guard(int n) throws TraceFormatException {
        inflated += n;
        if (inflated > MAX_INFLATED_BYTES) {
            throw new TraceFormatException("compressed packets expand past " + (MAX_INFLATED_BYTES >> 20) + " MiB");
        }
    }
}
