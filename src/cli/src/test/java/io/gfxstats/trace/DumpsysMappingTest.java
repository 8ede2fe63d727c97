package io.gfxstats.trace;

import static io.gfxstats.trace.TraceText.doComposition;
import static io.gfxstats.trace.TraceText.marsh;
import static io.gfxstats.trace.TraceText.onVsyncEvent;
import static io.gfxstats.trace.TraceText.processCommand;
import static io.gfxstats.trace.TraceText.receiveVsync;
import static io.gfxstats.trace.TraceText.rsReceiveVsync;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gfxstats.cli.Main;
import io.gfxstats.frame.FrameInfo;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Spec 7.3: {@code gfxstats trace --format dumpsys} on OpenHarmony frames prints exactly what
 * {@code gfxstats framestats} prints for the equivalent FrameInfo rows, written here by hand.
 */
class DumpsysMappingTest {
    static final int APP = 4000;
    static final int RS = 1000;
    static final long FI = 16_000_000L;

    @TempDir
    Path dir;

    /** Three linked app frames (on time; started a vsync late and picked up late; with a GPU interval) and an empty one. */
    static TraceText trace() {
        TraceText t = new TraceText();
        // A: the worked example of spec 3.10.
        t.b(100_000_200_000L, APP, APP, receiveVsync(100_000_000_000L, 100_016_000_000L, 10));
        t.b(100_000_300_000L, APP, APP, onVsyncEvent(100_000_000_000L));
        t.b(100_006_000_000L, APP, APP, marsh(APP, 7));
        t.e(100_006_100_000L, APP, APP);
        t.e(100_009_000_000L, APP, APP);
        t.e(100_009_100_000L, APP, APP);
        t.b(100_016_300_000L, RS, RS, rsReceiveVsync(100_016_000_000L, 100_043_000_000L, 11));
        t.b(100_016_400_000L, RS, RS, doComposition(100_016_350_000L));
        t.b(100_016_500_000L, RS, RS, processCommand("[4000,7]"));
        t.e(100_016_600_000L, RS, RS);
        t.e(100_020_000_000L, RS, RS);
        t.e(100_021_000_000L, RS, RS);
        // B: starts 18.5 ms after its vsync (a missed vsync), RS picks it up late.
        t.b(100_050_500_000L, APP, APP, receiveVsync(100_032_000_000L, 100_048_000_000L, 12));
        t.b(100_050_600_000L, APP, APP, onVsyncEvent(100_032_000_000L));
        t.b(100_055_000_000L, APP, APP, marsh(APP, 8));
        t.e(100_055_100_000L, APP, APP);
        t.e(100_062_000_000L, APP, APP);
        t.e(100_062_100_000L, APP, APP);
        t.b(100_064_300_000L, RS, RS, rsReceiveVsync(100_064_000_000L, 100_091_000_000L, 13));
        t.b(100_064_400_000L, RS, RS, doComposition(100_064_350_000L));
        t.b(100_064_500_000L, RS, RS, processCommand("[4000,8]"));
        t.e(100_064_600_000L, RS, RS);
        t.e(100_069_000_000L, RS, RS);
        t.e(100_070_000_000L, RS, RS);
        // C: the RS frame's GPU work (Frame queued) ends after its ReceiveVsync.
        t.b(100_080_100_000L, APP, APP, receiveVsync(100_080_000_000L, 100_096_000_000L, 14));
        t.b(100_080_150_000L, APP, APP, onVsyncEvent(100_080_000_000L));
        t.b(100_082_000_000L, APP, APP, marsh(APP, 9));
        t.e(100_082_100_000L, APP, APP);
        t.e(100_085_000_000L, APP, APP);
        t.e(100_085_100_000L, APP, APP);
        t.b(100_096_300_000L, RS, RS, rsReceiveVsync(100_096_000_000L, 100_123_000_000L, 15));
        t.b(100_096_400_000L, RS, RS, doComposition(100_096_350_000L));
        t.b(100_096_500_000L, RS, RS, processCommand("[4000,9]"));
        t.e(100_096_600_000L, RS, RS);
        t.e(100_099_000_000L, RS, RS);
        t.s(100_099_500_000L, RS, RS, TraceText.FRAME_QUEUED, 3);
        t.e(100_100_000_000L, RS, RS);
        t.f(100_105_000_000L, RS, RS, TraceText.FRAME_QUEUED, 3);
        // D: no transaction: empty, not recorded.
        t.b(100_112_100_000L, APP, APP, receiveVsync(100_112_000_000L, 100_128_000_000L, 16));
        t.b(100_112_150_000L, APP, APP, onVsyncEvent(100_112_000_000L));
        t.e(100_113_000_000L, APP, APP);
        t.e(100_113_100_000L, APP, APP);
        return t;
    }

    /** Spec 7.3 by hand: vsyncId, intended, vsync, syncQueued, renderStart, swap, renderEnd, deadline. */
    static final long[][] FRAME_INFO = {
            {10, 100_000_000_000L, 100_000_000_000L, 100_009_000_000L, 100_016_300_000L, 100_021_000_000L,
                    100_021_000_000L, 100_043_000_000L},
            {12, 100_032_000_000L, 100_048_000_000L, 100_062_000_000L, 100_064_300_000L, 100_070_000_000L,
                    100_070_000_000L, 100_091_000_000L},
            {14, 100_080_000_000L, 100_080_000_000L, 100_085_000_000L, 100_096_300_000L, 100_099_500_000L,
                    100_105_000_000L, 100_123_000_000L},
    };

    static String framestatsCsv() {
        StringBuilder sb = new StringBuilder();
        for (int f = 0; f < FrameInfo.FIELD_COUNT; f++) {
            sb.append(FrameInfo.name(f)).append(',');
        }
        sb.append('\n');
        for (long[] r : FRAME_INFO) {
            long[] v = new long[FrameInfo.FIELD_COUNT];
            v[FrameInfo.FRAME_TIMELINE_VSYNC_ID] = r[0];
            v[FrameInfo.INTENDED_VSYNC] = r[1];
            v[FrameInfo.VSYNC] = r[2];
            v[FrameInfo.HANDLE_INPUT_START] = r[2];
            v[FrameInfo.ANIMATION_START] = r[2];
            v[FrameInfo.PERFORM_TRAVERSALS_START] = r[2];
            v[FrameInfo.DRAW_START] = r[2];
            v[FrameInfo.FRAME_DEADLINE] = r[7];
            v[FrameInfo.FRAME_START_TIME] = r[2];
            v[FrameInfo.FRAME_INTERVAL] = FI;
            v[FrameInfo.SYNC_QUEUED] = r[3];
            v[FrameInfo.SYNC_START] = r[4];
            v[FrameInfo.ISSUE_DRAW_COMMANDS_START] = r[4];
            v[FrameInfo.SWAP_BUFFERS] = r[5];
            v[FrameInfo.FRAME_COMPLETED] = r[6];
            v[FrameInfo.GPU_COMPLETED] = r[6];
            v[FrameInfo.SWAP_BUFFERS_COMPLETED] = r[6];
            for (long x : v) {
                sb.append(x).append(',');
            }
            sb.append('\n');
        }
        return sb.toString();
    }

    record Out(int exit, String out, String err) {
    }

    static Out run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = Main.run(args, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Out(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void shouldPrintWhatFramestatsPrintsForTheEquivalentFrameInfoRows() throws Exception {
        Path trace = dir.resolve("mapping.ftrace");
        Files.writeString(trace, trace().text());
        Path csv = dir.resolve("com.example.app");
        Files.writeString(csv, framestatsCsv());
        Out framestats = run("framestats", "--refresh-interval", Long.toString(FI), csv.toString());
        assertEquals(0, framestats.exit(), framestats.err());
        Out dumpsys = run("trace", trace.toString(), "--format", "dumpsys", "--clock-offset", "none",
                "--refresh-interval", Long.toString(FI), "--process", "com.example.app");
        assertEquals(0, dumpsys.exit(), dumpsys.err());
        assertTrue(framestats.out().contains("Total frames rendered: 3"), framestats.out());
        assertTrue(framestats.out().contains("GPU HISTOGRAM: 1ms=2 2ms=0 3ms=0 4ms=0 5ms=0 6ms=1 "), framestats.out());
        assertEquals(framestats.out(), dumpsys.out());
        assertEquals("gfxstats trace: clock offset 0 ns (none: raw now/expectedEnd, as trace_streamer reads text)\n",
                dumpsys.err());
    }
}
