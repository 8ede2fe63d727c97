package io.gfxstats.timeline.perfetto;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedOutputStream;
import io.airlift.compress.zstd.ZstdCompressor;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.zip.Deflater;

/**
 * Writes Perfetto traces with FrameTimeline events in the protobuf wire format, for tests: the
 * facts (field numbers, enum values) of spec 4.1, written independently of the reader.
 */
public final class TraceBuilder {
    public static final int NO_SEVERITY = -1;
    private final ByteArrayOutputStream packets = new ByteArrayOutputStream();
    /** The jank_severity_score the next actual start carries, NaN for none. */
    private float nextScore = Float.NaN;

    private interface Body {
        void write(CodedOutputStream out) throws IOException;
    }

    private static ByteString message(Body body) {
        try {
            ByteString.Output bytes = ByteString.newOutput();
            CodedOutputStream out = CodedOutputStream.newInstance(bytes);
            body.write(out);
            out.flush();
            return bytes.toByteString();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private TraceBuilder packet(Body body) {
        try {
            CodedOutputStream out = CodedOutputStream.newInstance(packets);
            out.writeBytes(1, message(body));
            out.flush();
            return this;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private TraceBuilder event(long ts, int field, Body body) {
        return packet(p -> {
            p.writeUInt64(8, ts);
            p.writeUInt32(58, 6);
            p.writeBytes(76, message(e -> e.writeBytes(field, message(body))));
        });
    }

    /** Gives the next actual display or surface start a jank_severity_score (Android 16+). */
    public TraceBuilder score(float score) {
        nextScore = score;
        return this;
    }

    /** Writes and clears the pending score as field {@code field} (15 of a surface start, 11 of a display start). */
    private void writeScore(CodedOutputStream m, int field) throws IOException {
        if (!Float.isNaN(nextScore)) {
            m.writeFloat(field, nextScore);
        }
    }

    public TraceBuilder emptyPacket(long ts) {
        return packet(p -> p.writeUInt64(8, ts));
    }

    public TraceBuilder process(int pid, int ppid, String name) {
        return packet(p -> p.writeBytes(2, message(tree -> tree.writeBytes(1, message(proc -> {
            proc.writeInt32(1, pid);
            proc.writeInt32(2, ppid);
            proc.writeString(3, name);
        })))));
    }

    public TraceBuilder expectedDisplayStart(long ts, long cookie, long token, int pid) {
        return event(ts, 1, m -> {
            m.writeInt64(1, cookie);
            m.writeInt64(2, token);
            m.writeInt32(3, pid);
        });
    }

    public TraceBuilder actualDisplayStart(long ts, long cookie, long token, int pid, int presentType,
            boolean onTimeFinish, boolean gpu, int jankType, int predictionType, int severity) {
        event(ts, 2, m -> {
            m.writeInt64(1, cookie);
            m.writeInt64(2, token);
            m.writeInt32(3, pid);
            m.writeEnum(4, presentType);
            m.writeBool(5, onTimeFinish);
            m.writeBool(6, gpu);
            m.writeInt32(7, jankType);
            m.writeEnum(8, predictionType);
            if (severity != NO_SEVERITY) {
                m.writeEnum(9, severity);
            }
            writeScore(m, 11);
        });
        nextScore = Float.NaN;
        return this;
    }

    public TraceBuilder expectedSurfaceStart(long ts, long cookie, long token, long displayToken, int pid, String layer) {
        return event(ts, 3, m -> {
            m.writeInt64(1, cookie);
            m.writeInt64(2, token);
            m.writeInt64(3, displayToken);
            m.writeInt32(4, pid);
            m.writeString(5, layer);
        });
    }

    public TraceBuilder actualSurfaceStart(long ts, long cookie, long token, long displayToken, int pid, String layer,
            int presentType, boolean onTimeFinish, boolean gpu, int jankType, int predictionType, int severity) {
        event(ts, 4, m -> {
            m.writeInt64(1, cookie);
            m.writeInt64(2, token);
            m.writeInt64(3, displayToken);
            m.writeInt32(4, pid);
            m.writeString(5, layer);
            m.writeEnum(6, presentType);
            m.writeBool(7, onTimeFinish);
            m.writeBool(8, gpu);
            m.writeInt32(9, jankType);
            m.writeEnum(10, predictionType);
            m.writeBool(11, true);
            if (severity != NO_SEVERITY) {
                m.writeEnum(12, severity);
            }
            writeScore(m, 15);
        });
        nextScore = Float.NaN;
        return this;
    }

    public TraceBuilder frameEnd(long ts, long cookie) {
        return event(ts, 5, m -> m.writeInt64(1, cookie));
    }

    /** The trace as written: one packet per call. */
    public byte[] bytes() {
        return packets.toByteArray();
    }

    /** The same packets inside one packet's compressed_packets (zlib), as Perfetto writes them. */
    public byte[] deflated() {
        Deflater d = new Deflater();
        byte[] plain = bytes();
        d.setInput(plain);
        d.finish();
        byte[] buf = new byte[plain.length + 1024];
        int n = d.deflate(buf);
        d.end();
        return wrap(50, Arrays.copyOf(buf, n));
    }

    /** The same packets inside one packet's zstd_compressed_packets. */
    public byte[] zstd() {
        byte[] plain = bytes();
        ZstdCompressor c = new ZstdCompressor();
        byte[] buf = new byte[c.maxCompressedLength(plain.length)];
        int n = c.compress(plain, 0, plain.length, buf, 0, buf.length);
        return wrap(133, Arrays.copyOf(buf, n));
    }

    private static byte[] wrap(int field, byte[] payload) {
        TraceBuilder t = new TraceBuilder();
        t.packet(p -> p.writeBytes(field, ByteString.copyFrom(payload)));
        return t.bytes();
    }
}
