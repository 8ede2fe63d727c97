package io.gfxstats.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gfxstats.timeline.perfetto.TraceBuilder;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TimelinePerfettoCommandTest {
    private static TraceBuilder trace() {
        return new TraceBuilder().process(1001, 1, "com.example.app")
                .expectedDisplayStart(100, 1, 10, 666).frameEnd(116, 1)
                .actualDisplayStart(100, 2, 10, 666, 2, false, false, 16, 1, 3).frameEnd(133, 2)
                .actualSurfaceStart(80, 3, 5, 10, 1001, "SurfaceView[com.example.app]", 2, true, false, 16, 1, 3)
                .frameEnd(95, 3);
    }

    @Test
    void shouldPrintTheSameNumbersAsOneJsonObjectInThePullsNames(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("trace.pftrace");
        Files.write(file, trace().zstd());
        CliRun run = CliRun.main("timeline", "perfetto", "--json", file.toString());
        assertEquals(0, run.exit(), run.stderr());
        assertEquals(1, run.out().lines().count(), run.out());
        com.google.gson.JsonObject o = com.google.gson.JsonParser.parseString(run.out()).getAsJsonObject();
        assertEquals(1, o.get("surfaceFrames").getAsInt());
        // Processes in pid order: SurfaceFlinger's (666, its display frames) first.
        assertEquals(666, o.getAsJsonArray("processes").get(0).getAsJsonObject().get("pid").getAsInt());
        assertEquals(2, o.get("totalFrames").getAsInt(), "one app frame and one display frame");
        com.google.gson.JsonObject p = o.getAsJsonArray("processes").get(1).getAsJsonObject();
        assertEquals("com.example.app", p.get("process").getAsString());
        assertEquals(1001, p.get("pid").getAsInt());
        assertEquals(1, p.get("totalFrames").getAsInt());
        assertEquals(1, p.get("jankyFrames").getAsInt(), "Perfetto's missed frames");
        assertEquals(1, p.get("missedSfFrames").getAsInt());
        com.google.gson.JsonObject layer = p.getAsJsonArray("layers").get(0).getAsJsonObject();
        assertEquals("SurfaceView[com.example.app]", layer.get("layer").getAsString());
        assertEquals(1, layer.getAsJsonObject("jankTags").get("Other Jank").getAsInt());
        com.google.gson.JsonObject counters = layer.getAsJsonObject("frameTimeline");
        assertEquals(1, counters.get("jankyFrames").getAsInt(), "pull --json's frameTimeline names: " + counters);
        assertTrue(!run.out().matches("(?s).*\"[a-z0-9]+_[a-z0-9_]+\":.*"), "camelCase keys only: " + run.out());
    }

    @Test
    void shouldPrintPerProcessAndLayerCountsOfZstdTraces(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("trace.pftrace");
        Files.write(file, trace().zstd());
        CliRun run = CliRun.main("timeline", "perfetto", file.toString());
        assertEquals(0, run.exit(), run.stderr());
        String out = run.out();
        assertTrue(out.startsWith("FrameTimeline: 1 surface frames, 1 display frames, 2 processes\n"), out);
        assertTrue(out.contains("Process pid 666 (pid 666)\n  total_frames = 1\n  missed_frames = 1\n"
                + "  missed_app_frames = 0\n  missed_sf_frames = 1\n"), "SurfaceFlinger's block: " + out);
        assertTrue(out.contains("Process com.example.app (pid 1001)\n  total_frames = 1\n  missed_frames = 1\n"
                + "  missed_app_frames = 0\n  missed_sf_frames = 1\n"), out);
        assertTrue(out.contains("  Layer SurfaceView[com.example.app]\n    jankTag \"Other Jank\" = 1\n"
                + "    totalTimelineFrames = 1\n    jankyFrames = 1\n    sfLongCpuJankyFrames = 1\n"), out);
        // Display frame 10 was presented at 133 against 116 expected: 17 ns, within the first bucket above zero.
        assertTrue(out.contains("    presentDelay <=2ms = 1\n"), out);
    }

    @Test
    void shouldFailInOneLineOnMissingEmptyOrCorruptTraces(@TempDir Path dir) throws Exception {
        CliRun missing = CliRun.main("timeline", "perfetto", dir.resolve("none").toString());
        assertEquals(Command.EXIT_ERROR, missing.exit());
        assertTrue(missing.onlyErrorLine().endsWith("none: no such file"));

        Path empty = dir.resolve("empty.pftrace");
        Files.write(empty, new TraceBuilder().process(1, 0, "init").bytes());
        CliRun noEvents = CliRun.main("timeline", "perfetto", empty.toString());
        assertEquals(Command.EXIT_ERROR, noEvents.exit());
        assertTrue(noEvents.onlyErrorLine().contains("no FrameTimeline events"), noEvents.stderr());

        Path corrupt = dir.resolve("corrupt.pftrace");
        byte[] bytes = trace().deflated();
        bytes[bytes.length - 3] ^= 0x55;
        Files.write(corrupt, bytes);
        CliRun bad = CliRun.main("timeline", "perfetto", corrupt.toString());
        assertEquals(Command.EXIT_ERROR, bad.exit());
        assertTrue(bad.onlyErrorLine().startsWith("gfxstats timeline: " + corrupt + ": not a Perfetto trace, or corrupt:"
                + " packet 1 at byte 0: "), bad.stderr());
    }
}
