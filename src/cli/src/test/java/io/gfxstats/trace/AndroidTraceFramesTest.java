package io.gfxstats.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.gfxstats.cli.Main;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Android frames of a text trace: the vsync each frame was for, and which doFrames are frames. */
class AndroidTraceFramesTest {
    private static final int UI = 500;
    private static final int RT = 501;
    private static final long PERIOD = 16_666_666L;

    /**
     * Vsync 6 arrives at 1.000 s but its doFrame starts 10 ms late; vsync 7 arrives at 1.016667 s,
     * its frame ends at 1.030 s, within its own deadline (1.033333 s) but past the deadline of a
     * grid anchored at the first doFrame (1.026667 s). Vsync 8's doFrame draws nothing.
     */
    private static TraceText trace() {
        return trace(true);
    }

    private static TraceText trace(boolean onVsync) {
        TraceText t = new TraceText();
        t.api19 = false;
        if (onVsync) {
            t.b(1_000_000_000L, UI, UI, "Choreographer#onVsync 6").e(1_000_100_000L, UI, UI);
        }
        t.b(1_010_000_000L, UI, UI, "Choreographer#doFrame 6").e(1_012_000_000L, UI, UI);
        t.b(1_012_100_000L, UI, RT, "DrawFrames 6").e(1_015_000_000L, UI, RT);
        if (onVsync) {
            t.b(1_016_667_000L, UI, UI, "Choreographer#onVsync 7").e(1_016_767_000L, UI, UI);
        }
        t.b(1_017_000_000L, UI, UI, "Choreographer#doFrame 7").e(1_020_000_000L, UI, UI);
        t.b(1_020_100_000L, UI, RT, "DrawFrames 7").e(1_030_000_000L, UI, RT);
        if (onVsync) {
            t.b(1_033_334_000L, UI, UI, "Choreographer#onVsync 8").e(1_033_434_000L, UI, UI);
        }
        t.b(1_033_500_000L, UI, UI, "Choreographer#doFrame 8").e(1_033_675_000L, UI, UI);
        return t;
    }

    private static List<TraceFrame> frames(String text) throws Exception {
        return frames(text, PERIOD);
    }

    /** The frames of the one process of {@code text}, by the refresh period {@code period}. */
    private static List<TraceFrame> frames(String text, long period) throws Exception {
        Trace trace = TraceParser.parse(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)), "t",
                ClockOffset.NONE, null);
        List<TraceFrames.ProcessFrames> all = TraceFrames.of(trace, period);
        assertEquals(1, all.size());
        return all.get(0).frames();
    }

    /** A trace's frames and what `trace` prints for it as its summary and as dumpsys. */
    private record Outputs(List<TraceFrame> frames, String summary, String dumpsys) {
    }

    /**
     * Parses {@code t} and runs `trace` on it, summary and `--format dumpsys`, all with the refresh
     * period {@code period} and no clock offset: the three views every count here must agree on.
     */
    private static Outputs outputs(TraceText t, long period, Path dir) throws Exception {
        Path file = dir.resolve("android.atrace");
        Files.writeString(file, t.text());
        String[] common = {"trace", file.toString(), "--clock-offset", "none", "--refresh-interval", Long.toString(period)};
        return new Outputs(frames(t.text(), period), run(common), run(concat(common, "--format", "dumpsys")));
    }

    @Test
    void shouldTakeEachFramesVsyncFromChoreographerOnVsync() throws Exception {
        List<TraceFrame> frames = frames(trace().text());
        assertEquals(List.of(1_000_000_000L, 1_016_667_000L), frames.stream().map(TraceFrame::expectedStart).toList());
        assertEquals(List.of(0, 0), frames.stream().map(TraceFrame::flag).toList(), "both within their own vsync's deadline");
    }

    @Test
    void shouldFallBackToTheGridWithoutOnVsync() throws Exception {
        List<TraceFrame> frames = frames(trace(false).text());
        assertEquals(1_010_000_000L, frames.get(1).expectedStart(), "the grid anchored at the first doFrame");
        assertEquals(1, frames.get(1).flag());
    }

    @Test
    void shouldTakeTheVsyncFromSurfaceFlingersVsyncAppTicksWithoutOnVsync() throws Exception {
        TraceText t = trace(false);
        // SurfaceFlinger (pid 600) flips its VSYNC-app counter at every app vsync.
        TraceText ticks = new TraceText();
        ticks.api19 = false;
        ticks.raw(1_000_000_000L, 600, 600, "C|600|VSYNC-app|1");
        ticks.raw(1_016_667_000L, 600, 600, "C|600|VSYNC-app|0");
        ticks.raw(1_033_334_000L, 600, 600, "C|600|VSYNC-app|1");
        List<TraceFrame> frames = frames(ticks.text() + t.text());
        assertEquals(List.of(1_000_000_000L, 1_016_667_000L), frames.stream().map(TraceFrame::expectedStart).toList());
        assertEquals(List.of(0, 0), frames.stream().map(TraceFrame::flag).toList());
    }

    @Test
    void shouldCountOnlyFramesThatDrewInEveryOutput(@TempDir Path dir) throws Exception {
        Outputs o = outputs(trace(), PERIOD, dir);
        assertEquals(2, o.frames().size(), "vsync 8's doFrame drew nothing: no frame, as on Android");
        assertEquals(true, o.summary().contains("\nFrames: 2 (linked 2, unlinked 0; empty 0, unfinished 0)\n"
                + "Janky frames: 0 (0.00%)\n"), o.summary());
        assertEquals(true, o.dumpsys().contains("Total frames rendered: 2\n"), o.dumpsys());
        assertEquals(true, o.dumpsys().contains("Janky frames: 0 "), o.dumpsys());
    }

    /**
     * Vsync 7's frame ends exactly at its deadline (vsync + period). Android's jank tracker calls a
     * frame on time only when it completed before the deadline, so it is janky - in the summary as
     * in dumpsys, which replays the same frames through that tracker.
     */
    @Test
    void shouldCountJankyFramesAsAndroidsJankTrackerDoes(@TempDir Path dir) throws Exception {
        long period = 16_666_000L;
        TraceText t = new TraceText();
        t.api19 = false;
        t.b(1_000_000_000L, UI, UI, "Choreographer#onVsync 6").e(1_000_100_000L, UI, UI);
        t.b(1_000_200_000L, UI, UI, "Choreographer#doFrame 6").e(1_005_000_000L, UI, UI);
        t.b(1_005_100_000L, UI, RT, "DrawFrames 6").e(1_010_000_000L, UI, RT);
        t.b(1_017_000_000L, UI, UI, "Choreographer#onVsync 7").e(1_017_100_000L, UI, UI);
        t.b(1_020_000_000L, UI, UI, "Choreographer#doFrame 7").e(1_022_000_000L, UI, UI);
        t.b(1_022_100_000L, UI, RT, "DrawFrames 7").e(1_017_000_000L + period, UI, RT);
        Outputs o = outputs(t, period, dir);
        assertEquals(List.of(0, 1), o.frames().stream().map(TraceFrame::flag).toList());
        assertEquals(List.of("none", "render-late"), o.frames().stream().map(TraceFrame::jankReason).toList());
        assertOneOfTwoJanky(o);
    }

    /**
     * Vsync 6's frame ends 3.3 ms past its deadline, so the pipeline is stuffed: vsync 7's frame
     * cannot start before 1.033332 s. The device's jank tracker then gives vsync 7 one more interval
     * (deadline 1.049998 s), and its frame, done at 1.040 s, is not janky. A trace's deadlines are the
     * vsyncs' own (vsync + period), so the tracker must extend them as on the device; replaying them as
     * already-extended framestats rows would count 2 janky frames.
     */
    @Test
    void shouldExtendTheDeadlineOfAFrameBehindAStuffedPipelineAsTheDeviceDoes(@TempDir Path dir) throws Exception {
        long period = 16_666_000L;
        TraceText t = new TraceText();
        t.api19 = false;
        t.b(1_000_000_000L, UI, UI, "Choreographer#onVsync 6").e(1_000_100_000L, UI, UI);
        t.b(1_000_200_000L, UI, UI, "Choreographer#doFrame 6").e(1_005_000_000L, UI, UI);
        t.b(1_005_100_000L, UI, RT, "DrawFrames 6");
        t.b(1_016_666_000L, UI, UI, "Choreographer#onVsync 7").e(1_016_766_000L, UI, UI);
        t.e(1_020_000_000L, UI, RT);
        t.b(1_020_500_000L, UI, UI, "Choreographer#doFrame 7").e(1_025_000_000L, UI, UI);
        t.b(1_025_100_000L, UI, RT, "DrawFrames 7").e(1_040_000_000L, UI, RT);
        Outputs o = outputs(t, period, dir);
        assertEquals(List.of(1, 0), o.frames().stream().map(TraceFrame::flag).toList());
        assertOneOfTwoJanky(o);
    }

    /** Summary and dumpsys agree: 2 frames, 1 janky. */
    private static void assertOneOfTwoJanky(Outputs o) {
        assertEquals(true, o.summary().contains("\nFrames: 2 (") && o.summary().contains("\nJanky frames: 1 (50.00%)\n"),
                o.summary());
        assertEquals(true, o.dumpsys().contains("\nTotal frames rendered: 2\nJanky frames: 1 "), o.dumpsys());
    }

    private static String[] concat(String[] a, String... b) {
        String[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    private static String run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = Main.run(args, new PrintStream(out, true), new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(0, exit, err.toString(StandardCharsets.UTF_8));
        return out.toString(StandardCharsets.UTF_8);
    }
}
