package io.gfxstats.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TimelineClassifyCommandTest {
    private static final String D3 = "{\"token\":1,\"prediction\":\"valid\",\"predicted\":{\"start\":22,\"end\":30,\"present\":40},"
            + "\"actual\":{\"start\":22,\"end\":26,\"present\":50},\"gpu_fence\":null,\"refresh_period\":11,\"render_period\":11,"
            + "\"surfaces\":[{\"token\":7,\"layer\":\"app\",\"prediction\":\"valid\",\"predicted\":{\"start\":5,\"end\":16,\"present\":40},"
            + "\"actual\":{\"start\":5,\"end\":16},\"present_state\":\"presented\",\"last_latch_time\":0}]}";
    private static final String D4 = "{\"token\":\"b\",\"prediction\":\"valid\",\"predicted\":{\"start\":52,\"end\":60,\"present\":70},"
            + "\"actual\":{\"start\":52,\"end\":56,\"present\":75},\"refresh_period\":11,\"render_period\":11}";
    private static final String[] NS = {"classify", "--present-threshold-ns", "2", "--start-threshold-ns", "2"};

    private static CliRun classify(String stdin, String... extra) throws Exception {
        String[] args = new String[NS.length + extra.length + 1];
        System.arraycopy(NS, 0, args, 0, NS.length);
        System.arraycopy(extra, 0, args, NS.length, extra.length);
        args[args.length - 1] = "-";
        return CliRun.command(new TimelineCommand(), stdin, args);
    }

    @Test
    void shouldWriteOneLinePerFrameInTheIssuesFormat() throws Exception {
        CliRun run = classify(D3 + "\n\n" + D4 + "\n");
        assertEquals(0, run.exit(), run.stderr());
        assertEquals("{\"token\":1,\"jank\":[\"DisplayHAL\"],\"present\":\"late\",\"finish\":\"on_time\",\"start\":\"unknown\","
                + "\"severity\":\"partial\",\"surfaces\":[{\"token\":7,\"jank\":[\"DisplayHAL\"],\"present\":\"late\","
                + "\"finish\":\"on_time\",\"severity\":\"partial\"}]}\n"
                + "{\"token\":\"b\",\"jank\":[\"PredictionError\"],\"present\":\"late\",\"finish\":\"on_time\",\"start\":\"unknown\","
                + "\"severity\":\"partial\",\"surfaces\":[]}\n", run.out());
    }

    /** A late frame, finished in time, ready before the previous latch (20); display on time; on cadence. */
    private static String readyBeforeLatch(String lastExpected) {
        return "{\"token\":1,\"prediction\":\"valid\",\"predicted\":{\"start\":22,\"end\":30,\"present\":40},"
                + "\"actual\":{\"start\":22,\"end\":26,\"present\":40},\"refresh_period\":11,\"render_period\":11,"
                + "\"surfaces\":[{\"token\":7,\"prediction\":\"valid\",\"predicted\":{\"start\":5,\"end\":16,"
                + "\"present\":29},\"actual\":{\"start\":5,\"end\":16},\"last_latch_time\":20" + lastExpected + "}]}\n";
    }

    private static String surfaceJank(CliRun run) {
        assertEquals(0, run.exit(), run.stderr());
        String out = run.out();
        String marker = "\"surfaces\":[{\"token\":7,\"jank\":";
        int s = out.indexOf(marker);
        assertTrue(s >= 0, out);
        return out.substring(s + marker.length(), out.indexOf(']', s + marker.length()) + 1);
    }

    @Test
    void shouldApplyTheBufferStuffingFixOfAndroid16Qpr2OnlyWhenAskedFor() throws Exception {
        // Android 16 as released: ready before the previous latch is enough.
        assertEquals("[\"BufferStuffing\"]", surfaceJank(classify(readyBeforeLatch(""))));
        assertEquals("[\"BufferStuffing\"]", surfaceJank(classify(readyBeforeLatch(""), "--android", "16")));
        // QPR2: the previous frame was due at 18, well before this frame's vsync (29): the queue was
        // not stuffed, SurfaceFlinger started late.
        assertEquals("[\"SurfaceFlingerScheduling\"]",
                surfaceJank(classify(readyBeforeLatch(",\"last_expected_present\":18"), "--android", "16-qpr2")));
        assertEquals("[\"SurfaceFlingerScheduling\"]", surfaceJank(classify(readyBeforeLatch(""), "--android", "16-qpr2")));
        // QPR2: the previous frame was due at this frame's vsync: stuffed.
        assertEquals("[\"BufferStuffing\"]",
                surfaceJank(classify(readyBeforeLatch(",\"last_expected_present\":29"), "--android", "16-qpr2")));
        // Android 16 ignores the field.
        assertEquals("[\"BufferStuffing\"]", surfaceJank(classify(readyBeforeLatch(",\"last_expected_present\":18"))));

        CliRun bad = classify(readyBeforeLatch(""), "--android", "17");
        assertEquals(Command.EXIT_ERROR, bad.exit());
        assertTrue(bad.onlyErrorLine().contains("option --android must be 16 or 16-qpr2, got '17'"), bad.stderr());
    }

    @Test
    void shouldUseAndroidsMillisecondThresholdsByDefault() throws Exception {
        CliRun run = CliRun.command(new TimelineCommand(), D3 + "\n", "classify", "-");
        assertEquals(0, run.exit(), run.stderr());
        assertTrue(run.out().startsWith("{\"token\":1,\"jank\":[\"None\"],\"present\":\"on_time\""), run.out());
    }

    @Test
    void shouldReportBadLinesWithTheirNumberInOneLine() throws Exception {
        assertError(D3 + "\n{\"token\":2,\n", "line 2: not valid JSON");
        assertError(D3 + "\n" + D3.replace("\"gpu_fence\"", "\"gpu_fenc\""), "line 2: unknown field 'gpu_fenc'");
        assertError(D3.replace("\"present\":50", "\"present\":50.5"), "line 1: actual.present must be an integer (nanoseconds, digits only), got 50.5");
        assertError(D3.replace("\"prediction\":\"valid\",\"predicted\":{\"start\":5", "\"prediction\":\"maybe\",\"predicted\":{\"start\":5"),
                "line 1: surfaces[0].prediction must be \"valid\", \"expired\" or \"none\", got \"maybe\"");
        assertError(D3.replace("\"end\":26,", ""), "line 1: missing actual.end");
        assertError(D3.replace("\"refresh_period\":11", "\"refresh_period\":-11"), "line 1: refresh_period must not be negative");
        assertError("[1,2]", "line 1: the line must be a JSON object");
        assertError(D3 + " x", "line 1: not valid JSON");
    }

    private static void assertError(String stdin, String expected) throws Exception {
        CliRun run = classify(stdin);
        assertEquals(Command.EXIT_ERROR, run.exit());
        String line = run.onlyErrorLine();
        assertTrue(line.startsWith("gfxstats timeline: stdin " + expected), line);
    }

    @Test
    void shouldReadFilesAndRejectMissingOnes(@TempDir Path dir) throws Exception {
        Path log = dir.resolve("frames.jsonl");
        Files.writeString(log, D4 + "\n");
        CliRun run = CliRun.main("timeline", "classify", log.toString());
        assertEquals(0, run.exit(), run.stderr());
        assertTrue(run.out().contains("\"token\":\"b\""));
        CliRun missing = CliRun.main("timeline", "classify", dir.resolve("nope").toString());
        assertEquals(Command.EXIT_ERROR, missing.exit());
        assertTrue(missing.onlyErrorLine().endsWith("nope: no such file"), missing.stderr());
    }

    @Test
    void shouldRejectBadOptions() throws Exception {
        CliRun run = CliRun.command(new TimelineCommand(), "", "classify", "--present-threshold-ns", "-3", "-");
        assertEquals(Command.EXIT_ERROR, run.exit());
        assertTrue(run.onlyErrorLine().contains("--present-threshold-ns must be a whole number"), run.stderr());
        CliRun none = CliRun.command(new TimelineCommand(), "", "classify");
        assertEquals(Command.EXIT_ERROR, none.exit());
        CliRun unknown = CliRun.command(new TimelineCommand(), "", "classfy");
        assertEquals(Command.EXIT_ERROR, unknown.exit());
    }
}
