package io.gfxstats.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gfxstats.testing.JavaProcess;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Frame logs as they arrive: from a live pipe, damaged, empty, or one endless line. */
class TimelineClassifyInputTest {
    private static String frame(long token, long predictedPresent, long actualPresent) {
        long start = predictedPresent - 20;
        return "{\"token\":" + token + ",\"prediction\":\"valid\",\"predicted\":{\"start\":" + start + ",\"end\":"
                + (start + 10) + ",\"present\":" + predictedPresent + "},\"actual\":{\"start\":" + start + ",\"end\":"
                + (start + 10) + ",\"present\":" + actualPresent + "},\"refresh_period\":11,\"render_period\":11}";
    }

    private static CliRun classify(String stdin) throws Exception {
        return CliRun.command(new TimelineCommand(), stdin, "classify", "--present-threshold-ns", "2",
                "--start-threshold-ns", "2", "-");
    }

    private static String error(String stdin) throws Exception {
        CliRun run = classify(stdin);
        assertEquals(Command.EXIT_ERROR, run.exit(), run.out());
        return run.onlyErrorLine();
    }

    @Test
    void shouldRefuseAKeyGivenTwice() throws Exception {
        String twice = frame(1, 40, 40).replace("\"token\":1,", "\"token\":1,\"token\":2,");
        assertEquals("gfxstats timeline: stdin line 1: the key 'token' is given twice in one object at column 19",
                error(twice));
        String nested = frame(1, 40, 40).replace("\"actual\":{\"start\":20,", "\"actual\":{\"start\":20,\"start\":21,");
        assertTrue(error(nested).contains("line 1: the key 'start' is given twice"), nested);
    }

    @Test
    void shouldNotTakeAnExponentAsAnInteger() throws Exception {
        assertEquals("gfxstats timeline: stdin line 1: actual.present must be an integer (nanoseconds, digits only),"
                + " got 2.2e7", error(frame(1, 40, 40).replace("\"present\":40},\"refresh", "\"present\":2.2e7},\"refresh")));
        assertTrue(error(frame(1, 40, 40).replace("\"token\":1", "\"token\":1E2")).contains("token must be an integer"));
    }

    @Test
    void shouldSaySoWhenThereAreNoFrames() throws Exception {
        String expected = "gfxstats timeline: stdin: no frames (the input is empty or blank; a frame log has one JSON"
                + " object per line, see docs/frametimeline.md)";
        assertEquals(expected, error(""));
        assertEquals(expected, error("\n  \r\n\n"));
    }

    @Test
    void shouldDescribeBadJsonInItsOwnWords() throws Exception {
        for (String bad : List.of("{\"token\":", "{token:1}", "{\"token\":1,}", "'x'", "{\"token\":NaN}", "[[[[",
                "{\"a\":1} {\"b\":2}", "nul")) {
            String line = error(bad);
            assertTrue(line.startsWith("gfxstats timeline: stdin line 1: "), line);
            for (String internal : List.of("Json", "Gson", "gson", "Strictness", "path $", "BEGIN_", "END_", "NUMBER",
                    "Exception", "troubleshooting", "LENIENT")) {
                assertFalse(line.contains(internal), bad + " -> " + line);
            }
        }
        assertEquals("gfxstats timeline: stdin line 1: not valid JSON at column 13", error("{\"token\":1,}"));
    }

    @Test
    void shouldKeepThePresentBeforeAFenceThatNeverSignalled() throws Exception {
        // Frame 3 was due at 80 but the last signalled present (frame 1) is 90, later than that:
        // SurfaceFlinger Stuffing. Frame 2's -1 must not replace 90 as the previous present.
        CliRun run = classify(frame(1, 90, 90) + "\n" + frame(2, 85, -1) + "\n" + frame(3, 80, 100) + "\n");
        assertEquals(0, run.exit(), run.stderr());
        String third = run.out().lines().toList().get(2);
        assertTrue(third.startsWith("{\"token\":3,\"jank\":[\"SurfaceFlingerStuffing\"]"), third);
    }

    @Test
    void shouldRefuseAnEndlessLineInOneLineUnderASmallHeap() throws Exception {
        Process p = new ProcessBuilder(JavaProcess.command(List.of("-Xmx48m"), Main.class, "timeline", "classify", "-"))
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        try {
            byte[] chunk = new byte[1 << 20];
            java.util.Arrays.fill(chunk, (byte) ' ');
            chunk[0] = '{';
            try (OutputStream in = p.getOutputStream()) {
                for (int i = 0; i < 100; i++) {
                    in.write(chunk);
                    chunk[0] = ' ';
                }
            } catch (IOException e) {
                // the command stopped reading at the limit, as it should
            }
            assertTrue(p.waitFor(1, TimeUnit.MINUTES), "gfxstats timeline classify finished");
            String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
            assertEquals(Command.EXIT_ERROR, p.exitValue(), err);
            assertEquals("gfxstats timeline: stdin line 1: longer than 4096 KiB; a line is one display frame"
                    + " (is the input JSON Lines, with a newline after each frame?)\n", err);
        } finally {
            p.destroyForcibly();
        }
    }

    @Test
    void shouldAnswerEachLineOfALivePipeBeforeTheNextArrives() throws Exception {
        Process p = new ProcessBuilder(JavaProcess.command(Main.class, "timeline", "classify", "-"))
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        ExecutorService reader = Executors.newSingleThreadExecutor();
        try (OutputStream in = p.getOutputStream();
                BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            for (int i = 1; i <= 5; i++) {
                // Odd frames end in CR LF: the LF must not pass for a waiting line and hold the answer back.
                in.write((frame(i, 40_000_000L * i, 40_000_000L * i) + (i % 2 == 1 ? "\r\n" : "\n"))
                        .getBytes(StandardCharsets.UTF_8));
                in.flush();
                // The answer must come while the input stays open and nothing else is written.
                String answer = reader.submit(out::readLine).get(1, TimeUnit.MINUTES);
                assertTrue(answer.startsWith("{\"token\":" + i + ","), answer);
            }
        } finally {
            reader.shutdownNow();
            p.destroyForcibly();
        }
    }
}
