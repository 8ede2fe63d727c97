package io.gfxstats.dump;

import io.gfxstats.proto.GraphicsStatsProto;
import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * The text of {@code adb shell dumpsys graphicsstats}, byte for byte: one block per entry, every
 * line introduced by {@code "\n"} and the block closed by a lone {@code "\n"}, numbers as C's
 * {@code %d}/{@code %lld}, the janky percentage as {@link JankyPercent}. "Stats since"/"Stats end"
 * print the epoch-millisecond values followed by {@code ns}, as Android does.
 *
 * <p>Blocks are rendered into one reused byte buffer and handed to the stream in chunks, so a
 * dump of thousands of entries costs no per-bucket String and stays linear.
 */
public final class TextDumpWriter implements DumpWriter {
    private static final int FLUSH_BYTES = 64 * 1024;
    private static final int[] PERCENTILES = {50, 90, 95, 99};

    private static final byte[] UID = ByteSink.ascii("\nUID: ");
    private static final byte[] PACKAGE = ByteSink.ascii("\nPackage: ");
    private static final byte[] VERSION = ByteSink.ascii("\nVersion: ");
    private static final byte[] STATS_SINCE = ByteSink.ascii("\nStats since: ");
    private static final byte[] STATS_END = ByteSink.ascii("\nStats end: ");
    private static final byte[] NS = ByteSink.ascii("ns");
    private static final byte[] TOTAL = ByteSink.ascii("\nTotal frames rendered: ");
    private static final byte[] JANKY = ByteSink.ascii("\nJanky frames: ");
    private static final byte[] OPEN_PERCENT = ByteSink.ascii(" (");
    private static final byte[] CLOSE_PERCENT = ByteSink.ascii("%)");
    private static final byte[][] CPU_PERCENTILE = percentileLines("\n%dth percentile: ");
    private static final byte[][] GPU_PERCENTILE = percentileLines("\n%dth gpu percentile: ");
    private static final byte[] MS = ByteSink.ascii("ms");
    private static final byte[] MS_EQUALS = ByteSink.ascii("ms=");
    private static final byte[] MISSED_VSYNC = ByteSink.ascii("\nNumber Missed Vsync: ");
    private static final byte[] HIGH_INPUT_LATENCY = ByteSink.ascii("\nNumber High input latency: ");
    private static final byte[] SLOW_UI_THREAD = ByteSink.ascii("\nNumber Slow UI thread: ");
    private static final byte[] SLOW_BITMAP_UPLOADS = ByteSink.ascii("\nNumber Slow bitmap uploads: ");
    private static final byte[] SLOW_DRAW = ByteSink.ascii("\nNumber Slow issue draw commands: ");
    private static final byte[] DEADLINE_MISSED = ByteSink.ascii("\nNumber Frame deadline missed: ");
    private static final byte[] HISTOGRAM = ByteSink.ascii("\nHISTOGRAM:");
    private static final byte[] GPU_HISTOGRAM = ByteSink.ascii("\nGPU HISTOGRAM:");
    private static final byte[] END = ByteSink.ascii("\n");

    private final DumpFormat format;

    public TextDumpWriter(DumpFormat format) {
        this.format = Objects.requireNonNull(format, "format");
    }

    public DumpFormat format() {
        return format;
    }

    @Override
    public void write(List<GraphicsStatsProto> entries, OutputStream out) throws IOException {
        Objects.requireNonNull(out, "out");
        ByteSink sink = new ByteSink(8 * 1024);
        for (GraphicsStatsProto proto : entries) {
            Optional<DumpEntry> entry = DumpEntry.of(Objects.requireNonNull(proto, "null entry in dump"));
            if (entry.isEmpty()) {
                continue;
            }
            render(entry.get(), sink);
            if (sink.size() >= FLUSH_BYTES) {
                sink.writeTo(out);
                sink.reset();
            }
        }
        sink.writeTo(out);
        out.flush();
    }

    /** Writes the block of one entry (already known to be dumpable) to {@code out}, and flushes. */
    public void write(DumpEntry entry, OutputStream out) throws IOException {
        ByteSink sink = new ByteSink(4 * 1024);
        render(entry, sink);
        sink.writeTo(out);
        out.flush();
    }

    private void render(DumpEntry e, ByteSink b) {
        if (format.printsUid()) {
            b.put(UID).putDecimal(Integer.toUnsignedLong(e.uid()));
        }
        byte[] name = e.packageNameBytes();
        b.put(PACKAGE).put(name, 0, cStringLength(name));
        b.put(VERSION).putDecimal(e.versionCode());
        b.put(STATS_SINCE).putDecimal(e.statsStartMillis()).put(NS);
        b.put(STATS_END).putDecimal(e.statsEndMillis()).put(NS);
        b.put(TOTAL).putDecimal(e.totalFrames());
        b.put(JANKY).putDecimal(e.jankyFrames())
                .put(OPEN_PERCENT).putAscii(JankyPercent.format(e.jankyPercent())).put(CLOSE_PERCENT);
        for (int i = 0; i < PERCENTILES.length; i++) {
            b.put(CPU_PERCENTILE[i]).putDecimal(e.cpuPercentile(PERCENTILES[i])).put(MS);
        }
        b.put(MISSED_VSYNC).putDecimal(e.missedVsync());
        b.put(HIGH_INPUT_LATENCY).putDecimal(e.highInputLatency());
        b.put(SLOW_UI_THREAD).putDecimal(e.slowUiThread());
        b.put(SLOW_BITMAP_UPLOADS).putDecimal(e.slowBitmapUploads());
        b.put(SLOW_DRAW).putDecimal(e.slowDraw());
        if (format.printsDeadlineMissed()) {
            b.put(DEADLINE_MISSED).putDecimal(e.missedDeadline());
        }
        b.put(HISTOGRAM);
        for (int i = 0; i < e.cpuBucketCount(); i++) {
            b.put((byte) ' ').putDecimal(e.cpuLabel(i)).put(MS_EQUALS).putDecimal(e.cpuCount(i));
        }
        if (format.printsGpu()) {
            for (int i = 0; i < PERCENTILES.length; i++) {
                b.put(GPU_PERCENTILE[i]).putDecimal(e.gpuPercentile(PERCENTILES[i])).put(MS);
            }
            b.put(GPU_HISTOGRAM);
            for (int i = 0; i < e.gpuBucketCount(); i++) {
                b.put((byte) ' ').putDecimal(e.gpuLabel(i)).put(MS_EQUALS).putDecimal(e.gpuCount(i));
            }
        }
        b.put(END);
    }

    /** printf's %s stops at the first NUL byte. */
    private static int cStringLength(byte[] s) {
        for (int i = 0; i < s.length; i++) {
            if (s[i] == 0) {
                return i;
            }
        }
        return s.length;
    }

    private static byte[][] percentileLines(String pattern) {
        byte[][] lines = new byte[PERCENTILES.length][];
        for (int i = 0; i < PERCENTILES.length; i++) {
            lines[i] = ByteSink.ascii(String.format(Locale.ROOT, pattern, PERCENTILES[i]));
        }
        return lines;
    }
}
