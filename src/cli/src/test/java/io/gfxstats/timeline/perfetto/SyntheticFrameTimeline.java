package io.gfxstats.timeline.perfetto;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedOutputStream;
import java.io.IOException;
import java.io.OutputStream;

/**
 * Writes a FrameTimeline trace of any size straight to a stream (nothing held in memory): a 120 Hz
 * display frame with its expected and actual slices and, per frame, one SurfaceFrame on each of
 * {@link #LAYERS} layers of one app; every seventh app frame is App Deadline Missed and late. Field
 * numbers are spec 4.1's, written independently of the reader (as in {@link TraceBuilder}).
 */
public final class SyntheticFrameTimeline {
    static final int LAYERS = 2;
    static final int APP_PID = 4242;
    static final int SF_PID = 666;
    private static final long PERIOD = 8_333_333;
    private static final int JANK_NONE = 1;
    private static final int JANK_APP = 64;

    private final CodedOutputStream out;
    private long cookie;
    private long bytes;

    private SyntheticFrameTimeline(OutputStream out) {
        this.out = CodedOutputStream.newInstance(out, 1 << 16);
    }

    /** {@code SyntheticFrameTimeline FILE MEGABYTES}: writes a trace for the memory benchmark (docs/benchmarks.md). */
    public static void main(String[] args) throws IOException {
        try (OutputStream out = new java.io.BufferedOutputStream(java.nio.file.Files.newOutputStream(
                java.nio.file.Path.of(args[0])), 1 << 20)) {
            System.out.println(write(out, Long.parseLong(args[1]) << 20) + " frames");
        }
    }

    /** Writes at least {@code size} bytes of trace; returns the number of app frames (distinct tokens). */
    public static long write(OutputStream to, long size) throws IOException {
        SyntheticFrameTimeline t = new SyntheticFrameTimeline(to);
        t.process(APP_PID, "com.example.big");
        long frames = 0;
        while (t.bytes < size) {
            t.frame(frames++);
        }
        t.out.flush();
        return frames;
    }

    private void frame(long i) throws IOException {
        long start = 1_000_000_000L + i * PERIOD;
        long displayToken = 2 * i + 1;
        long surfaceToken = 2 * i + 2;
        boolean janky = i % 7 == 3;
        long present = start + 2 * PERIOD + (janky ? PERIOD : 0);
        long expectedDisplay = cookie++;
        long actualDisplay = cookie++;
        start(start, 1, expectedDisplay, displayToken, false, 0, 0, null);
        start(start + 100_000, 2, actualDisplay, displayToken, false, janky ? 2 : 1, janky ? JANK_NONE : JANK_NONE, null);
        for (int layer = 0; layer < LAYERS; layer++) {
            long expected = cookie++;
            long actual = cookie++;
            String name = "SurfaceView[com.example.big]#" + layer;
            start(start - PERIOD, 3, expected, surfaceToken, true, 0, 0, name);
            start(start - PERIOD + 50_000, 4, actual, surfaceToken, true, janky ? 2 : 1, janky ? JANK_APP : JANK_NONE,
                    name);
            end(start, expected);
            end(start + (janky ? PERIOD + 2_000_000 : 4_000_000), actual);
        }
        end(start + 2 * PERIOD, expectedDisplay);
        end(present, actualDisplay);
    }

    private void packet(long ts, int field, ByteString event) throws IOException {
        ByteString packet = message(p -> {
            p.writeUInt64(8, ts);
            p.writeUInt32(58, 6);
            p.writeBytes(76, message(e -> e.writeBytes(field, event)));
        });
        out.writeBytes(1, packet);
        bytes += packet.size() + 3;
    }

    private void start(long ts, int field, long cookie, long token, boolean surface, int present, int jank,
            String layer) throws IOException {
        long displayToken = surface ? token - 1 : token;
        packet(ts, field, message(m -> {
            m.writeInt64(1, cookie);
            m.writeInt64(2, token);
            if (surface) {
                m.writeInt64(3, displayToken);
                m.writeInt32(4, APP_PID);
                m.writeString(5, layer);
            } else {
                m.writeInt32(3, SF_PID);
            }
            if (field == 2 || field == 4) {
                int base = surface ? 6 : 4;
                m.writeEnum(base, present);
                m.writeBool(base + 1, present == 1);
                m.writeBool(base + 2, false);
                m.writeInt32(base + 3, jank);
                m.writeEnum(base + 4, 1);
            }
        }));
    }

    private void end(long ts, long cookie) throws IOException {
        packet(ts, 5, message(m -> m.writeInt64(1, cookie)));
    }

    private void process(int pid, String name) throws IOException {
        ByteString packet = message(p -> p.writeBytes(2, message(tree -> tree.writeBytes(1, message(proc -> {
            proc.writeInt32(1, pid);
            proc.writeInt32(2, 1);
            proc.writeString(3, name);
        })))));
        out.writeBytes(1, packet);
        bytes += packet.size() + 3;
    }

    private interface Body {
        void write(CodedOutputStream out) throws IOException;
    }

    private static ByteString message(Body body) throws IOException {
        ByteString.Output bytes = ByteString.newOutput(64);
        CodedOutputStream out = CodedOutputStream.newInstance(bytes, 64);
        body.write(out);
        out.flush();
        return bytes.toByteString();
    }
}
