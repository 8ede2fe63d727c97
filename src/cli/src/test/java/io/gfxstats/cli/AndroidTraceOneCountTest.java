package io.gfxstats.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gfxstats.proto.GraphicsStatsProto;
import io.gfxstats.proto.GraphicsStatsServiceDumpProto;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Android app of the real capture (.ugc.aweme.lite, pid 37722, in a HarmonyOS trace) has one
 * count of frames and janky frames in every output of {@code trace} and in {@code report --trace}.
 * Of its six doFrames, two have a DrawFrames (vsyncs 641493 and 641527): the others drew nothing
 * and are no frames, as on Android. Both finished well within the vsync period after the
 * {@code Choreographer#onVsync} they were for: none is janky.
 */
class AndroidTraceOneCountTest {
    private static final String APP = "37722";
    private static final int FRAMES = 2;
    private static final int JANKY = 0;

    @TempDir
    Path dir;

    private static String run(String format) {
        CliRun r = CliRun.main("trace", TraceCommandTest.EXCERPT.toString(), "--process", APP, "--format", format);
        assertEquals(0, r.exit(), r.stderr());
        return r.out();
    }

    private static int group(String text, String regex) {
        Matcher m = Pattern.compile(regex).matcher(text);
        assertTrue(m.find(), regex + " in " + text);
        int n = Integer.parseInt(m.group(1));
        assertTrue(!m.find(), "one process only: " + text);
        return n;
    }

    @Test
    void shouldCountTheSameFramesAndJankyFramesInEveryFormat() throws Exception {
        String summary = run("summary");
        assertTrue(summary.contains("Process: .ugc.aweme.lite (pid 37722)\n"), summary);
        assertEquals(FRAMES, group(summary, "\nFrames: (\\d+) \\("));
        assertEquals(JANKY, group(summary, "\nJanky frames: (\\d+) \\("));

        String json = run("json");
        assertEquals(FRAMES, group(json, "\"totalFrames\":(\\d+),"));
        assertEquals(JANKY, group(json, "\"jankyFrames\":(\\d+),"));

        List<String> csv = run("csv").lines().skip(1).toList();
        assertEquals(FRAMES, csv.size(), String.join("\n", csv));
        assertEquals(List.of("641493", "641527"), csv.stream().map(l -> l.split(",")[4]).toList(), "the vsync ids");
        assertEquals(JANKY, csv.stream().filter(l -> !l.split(",")[20].equals("none")).count(), "jank_reason");

        String dumpsys = run("dumpsys");
        assertEquals(FRAMES, group(dumpsys, "\nTotal frames rendered: (\\d+)\n"));
        assertEquals(JANKY, group(dumpsys, "\nJanky frames: (\\d+) \\("));

        CliRun proto = CliRun.main("trace", TraceCommandTest.EXCERPT.toString(), "--process", APP, "--format", "proto");
        assertEquals(0, proto.exit(), proto.stderr());
        List<GraphicsStatsProto> stats = GraphicsStatsServiceDumpProto.parseFrom(proto.stdout()).getStatsList();
        assertEquals(1, stats.size());
        assertEquals(".ugc.aweme.lite", stats.get(0).getPackageName());
        assertEquals(FRAMES, stats.get(0).getSummary().getTotalFrames());
        assertEquals(JANKY, stats.get(0).getSummary().getJankyFrames());

        Path html = dir.resolve("report.html");
        CliRun report = CliRun.main("report", "--trace", TraceCommandTest.EXCERPT.toString(), "--package", APP,
                "--out", html.toString());
        assertEquals(0, report.exit(), report.stderr());
        assertTrue(report.out().contains(": " + FRAMES + " frames, 1 processes"), report.out());
        String page = Files.readString(html);
        assertTrue(page.contains("<td id=\"total-frames\">" + FRAMES), "the report's summary table");
        assertTrue(page.contains("<td id=\"janky-frames\">" + JANKY + " ("), "the report's summary table");
    }
}
