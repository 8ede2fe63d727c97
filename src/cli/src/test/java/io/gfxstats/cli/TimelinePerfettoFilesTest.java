package io.gfxstats.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gfxstats.testing.JavaProcess;
import io.gfxstats.timeline.perfetto.SyntheticFrameTimeline;
import io.gfxstats.timeline.perfetto.TraceBuilder;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.zip.Deflater;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Perfetto traces as they come off devices: of any size, cut short, or hostile. */
class TimelinePerfettoFilesTest {
    /** Far below what the bombs expand to: a bomb must be refused while inflating, not after. */
    private static final String SMALL_HEAP = "-Xmx48m";
    private static final int TRACE_PACKET = 1;
    private static final int DEFLATE = 50;
    private static final int ZSTD = 133;

    private static TraceBuilder frames(int count) {
        TraceBuilder t = new TraceBuilder().process(1001, 1, "com.example.app");
        for (int i = 0; i < count; i++) {
            long start = 100 + i * 100L;
            t.expectedDisplayStart(start, 4 * i, 1000 + i, 666).frameEnd(start + 16, 4 * i);
            t.actualDisplayStart(start, 4 * i + 1, 1000 + i, 666, 1, true, false, 1, 1, 1).frameEnd(start + 20, 4 * i + 1);
            t.actualSurfaceStart(start - 10, 4 * i + 2, 10 + i, 1000 + i, 1001, "app", 1, true, false, 1, 1, 1)
                    .frameEnd(start + 5, 4 * i + 2);
        }
        return t;
    }

    @Test
    void shouldReadATraceCutInsideAPacketUpToTheCutAndExitOne(@TempDir Path dir) throws Exception {
        byte[] whole = frames(3).bytes();
        // The last packet is the third frame's surface FrameEnd: cut it in the middle.
        Path cut = dir.resolve("cut.pftrace");
        Files.write(cut, Arrays.copyOf(whole, whole.length - 4));
        CliRun run = CliRun.main("timeline", "perfetto", cut.toString());
        assertEquals(1, run.exit(), run.stderr());
        assertTrue(run.out().startsWith("FrameTimeline: 3 surface frames, 3 display frames, 2 processes\n"), run.out());
        assertTrue(run.out().contains("  total_frames = 3\n"), run.out());
        String note = run.onlyErrorLine();
        assertTrue(note.startsWith("gfxstats timeline: " + cut + ": read up to the cut; the trace ends inside packet 19"
                + " (bytes "), note);
    }

    @Test
    void shouldReadTheWholePacketsOfACutCompressedPacket(@TempDir Path dir) throws Exception {
        byte[] deflated = frames(40).deflated();
        Path cut = dir.resolve("cut.pftrace");
        Files.write(cut, Arrays.copyOf(deflated, deflated.length * 2 / 3));
        CliRun run = CliRun.main("timeline", "perfetto", cut.toString());
        assertEquals(1, run.exit(), run.stderr());
        assertTrue(run.out().startsWith("FrameTimeline: "), run.out());
        assertTrue(run.onlyErrorLine().contains("the trace ends inside packet 1 (bytes 0 to "), run.stderr());
    }

    @Test
    void shouldSayWhereATraceWithoutAWholeFramePacketWasCut(@TempDir Path dir) throws Exception {
        byte[] whole = frames(1).bytes();
        Path cut = dir.resolve("cut.pftrace");
        Files.write(cut, Arrays.copyOf(whole, 30));
        CliRun run = CliRun.main("timeline", "perfetto", cut.toString());
        assertEquals(Command.EXIT_ERROR, run.exit());
        assertTrue(run.onlyErrorLine().contains("no FrameTimeline events (record with the data source "
                + "android.surfaceflinger.frametimeline, Android 12 or newer); the trace ends inside packet"), run.stderr());
    }

    /** A zstd frame of RLE blocks: 4 bytes per 128 KiB of output, so 1000 MiB fit in 32 KB. */
    private static byte[] zstdBomb(long inflated) {
        int block = 128 << 10;
        long blocks = inflated / block;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(new byte[] {0x28, (byte) 0xb5, 0x2f, (byte) 0xfd, 0x00, 0x38});
        for (long i = 0; i < blocks; i++) {
            int header = (block << 3) | (1 << 1) | (i == blocks - 1 ? 1 : 0);
            // 0x08 repeated is a valid trace: field 1 as a varint, skipped, again and again.
            out.writeBytes(new byte[] {(byte) header, (byte) (header >> 8), (byte) (header >> 16), 0x08});
        }
        return out.toByteArray();
    }

    private static byte[] deflateBomb(long inflated) {
        Deflater d = new Deflater(Deflater.BEST_COMPRESSION);
        byte[] chunk = new byte[1 << 20];
        Arrays.fill(chunk, (byte) 0x08);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buf = new byte[1 << 16];
        for (long done = 0; done < inflated; done += chunk.length) {
            d.setInput(chunk);
            while (!d.needsInput()) {
                out.write(buf, 0, d.deflate(buf));
            }
        }
        d.finish();
        while (!d.finished()) {
            out.write(buf, 0, d.deflate(buf));
        }
        d.end();
        return out.toByteArray();
    }

    private static byte[] packet(int field, byte[] payload) throws IOException {
        ByteArrayOutputStream inner = new ByteArrayOutputStream();
        com.google.protobuf.CodedOutputStream p = com.google.protobuf.CodedOutputStream.newInstance(inner);
        p.writeByteArray(field, payload);
        p.flush();
        ByteArrayOutputStream outer = new ByteArrayOutputStream();
        com.google.protobuf.CodedOutputStream o = com.google.protobuf.CodedOutputStream.newInstance(outer);
        o.writeByteArray(TRACE_PACKET, inner.toByteArray());
        o.flush();
        return outer.toByteArray();
    }

    private static String runSmallHeap(Path trace, String... options) throws Exception {
        List<String> args = new ArrayList<>(List.of("timeline", "perfetto"));
        args.addAll(List.of(options));
        args.add(trace.toString());
        Process p = new ProcessBuilder(JavaProcess.command(List.of(SMALL_HEAP), Main.class, args.toArray(String[]::new)))
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        try {
            assertTrue(p.waitFor(2, TimeUnit.MINUTES), "gfxstats timeline perfetto finished");
            return p.exitValue() + " " + new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        } finally {
            p.destroyForcibly();
        }
    }

    @Test
    void shouldRefuseCompressionBombsInOneLineUnderASmallHeap(@TempDir Path dir) throws Exception {
        byte[] zstd = zstdBomb(1000L << 20);
        assertTrue(zstd.length < 33_000, "a 32 KB packet: " + zstd.length);
        Path zstdFile = dir.resolve("zstd-bomb.pftrace");
        Files.write(zstdFile, packet(ZSTD, zstd));
        Path deflateFile = dir.resolve("deflate-bomb.pftrace");
        Files.write(deflateFile, packet(DEFLATE, deflateBomb(200L << 20)));
        for (Path bomb : List.of(zstdFile, deflateFile)) {
            String kind = bomb == zstdFile ? "zstd" : "deflate";
            assertEquals("2 gfxstats timeline: " + bomb + ": packet 1 at byte 0: a " + kind + "-compressed packet expands"
                    + " past 64 MiB (a compression bomb?); raise the limit with --max-packet-mib if the trace is genuine\n",
                    runSmallHeap(bomb));
        }
        // The limit is the option's: a smaller one refuses sooner, in the same words.
        CliRun small = CliRun.main("timeline", "perfetto", "--max-packet-mib", "1", zstdFile.toString());
        assertEquals(Command.EXIT_ERROR, small.exit());
        assertTrue(small.onlyErrorLine().contains("expands past 1 MiB"), small.stderr());
    }

    @Test
    void shouldReadATraceManyTimesItsHeapFromAPipe() throws Exception {
        long size = 96L << 20;
        Process p = new ProcessBuilder(JavaProcess.command(List.of(SMALL_HEAP), Main.class,
                "timeline", "perfetto", "-")).start();
        try {
            ByteArrayOutputStream stdout = new ByteArrayOutputStream();
            Thread drain = new Thread(() -> {
                try {
                    p.getInputStream().transferTo(stdout);
                } catch (IOException e) {
                    // the process died: reported by its exit status
                }
            });
            drain.start();
            long frames;
            try (OutputStream in = p.getOutputStream()) {
                frames = SyntheticFrameTimeline.write(in, size);
            }
            assertTrue(p.waitFor(5, TimeUnit.MINUTES), "gfxstats timeline perfetto finished");
            drain.join();
            String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
            assertEquals(0, p.exitValue(), err);
            String out = stdout.toString(StandardCharsets.UTF_8);
            assertTrue(out.contains("  total_frames = " + frames + "\n"), out);
            assertTrue(out.contains("  missed_app_frames = " + (frames + 3) / 7 + "\n"), out);
        } finally {
            p.destroyForcibly();
        }
    }

    @Test
    void shouldSortWithinTheWindowAndCountEventsBeyondIt(@TempDir Path dir) throws Exception {
        // The surface's FrameEnd comes first in the file, its start 40 events later: within a
        // window of 64 events it pairs; with a window of 4 the end finds no start.
        TraceBuilder t = new TraceBuilder().process(1001, 1, "com.example.app");
        t.frameEnd(95, 9);
        for (int i = 0; i < 10; i++) {
            t.emptyPacket(1);
            t.expectedDisplayStart(200 + i, 100 + i, 500 + i, 666).frameEnd(210 + i, 100 + i);
        }
        t.actualSurfaceStart(80, 9, 10, 500, 1001, "app", 1, true, false, 1, 1, 1);
        Path file = dir.resolve("shuffled.pftrace");
        Files.write(file, t.bytes());
        CliRun wide = CliRun.main("timeline", "perfetto", "--sort-window", "64", file.toString());
        assertEquals(0, wide.exit(), wide.stderr());
        assertTrue(wide.out().startsWith("FrameTimeline: 1 surface frames, 0 display frames, 1 processes\n"), wide.out());
        assertTrue(wide.out().contains("frame_dur_ms max 0.000 avg 0.000"), wide.out());
        CliRun narrow = CliRun.main("timeline", "perfetto", "--sort-window", "4", file.toString());
        assertEquals(0, narrow.exit(), narrow.stderr());
        assertTrue(narrow.out().startsWith("FrameTimeline: 1 surface frames, 0 display frames, 1 processes,"
                + " 1 frame ends without a start, "), narrow.out());
        assertTrue(narrow.out().lines().findFirst().orElseThrow()
                .endsWith(" events out of order by more than the sort window (--sort-window)"), narrow.out());
    }
}
