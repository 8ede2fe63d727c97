package io.gfxstats.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.gfxstats.daemon.DaemonFixture;
import io.gfxstats.daemon.DaemonProcess;
import io.gfxstats.testing.Await;
import io.gfxstats.testing.JavaProcess;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code gfxstats top} and {@code gfxstats matrix-report} against a real daemon fed by real
 * {@code gfxstats synth} processes, over the daemon's Watch stream: {@code top --once --json}
 * shows FPS and levels, the interactive screen runs in a real terminal (tmux), and matrix-report
 * prints Matrix reports, also for the open slices when it is stopped with SIGTERM.
 */
class TopDaemonTest {
    private Path state;
    private DaemonProcess daemon;
    private DaemonFixture fixture;

    @BeforeEach
    void setUp() throws Exception {
        fixture = DaemonFixture.start("gfxtop");
        state = fixture.state();
        daemon = fixture.daemon();
    }

    @AfterEach
    void tearDown() throws Exception {
        fixture.close();
    }

    private Process synth(String pkg, String profile, int seconds) throws Exception {
        Process p = JavaProcess.builder(io.gfxstats.cli.Main.class, "synth", "--socket", daemon.socket().toString(),
                        "--package", pkg, "--version-code", "7", "--jank-profile", profile, "--seed", "3",
                        "--seconds", Integer.toString(seconds), "--fps", "60")
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(daemon.clientLog().toFile()))
                .start();
        fixture.track(p);
        return p;
    }

    /** Waits until the daemon counts frames of the package. */
    private void awaitFrames(String pkg) throws Exception {
        long end = System.nanoTime() + 60_000_000_000L;
        while (System.nanoTime() < end) {
            if (daemon.totalFrames(pkg) > 0) {
                return;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("no frames of " + pkg + "; daemon log:\n" + daemon.logText());
    }

    @Test
    void shouldShowFpsAndLevelsOfARunningSynthInOneJsonObject() throws Exception {
        synth("com.example.stutter", "stutter", 60);
        awaitFrames("com.example.stutter");
        CliRun run = CliRun.main("top", "--socket", daemon.socket().toString(), "--once", "--json", "--cumulative");
        assertEquals(0, run.exit(), run.stderr());
        List<String> lines = run.out().lines().toList();
        assertEquals(1, lines.size(), run.out());
        JsonObject o = JsonParser.parseString(lines.get(0)).getAsJsonObject();
        JsonObject pkg = o.getAsJsonArray("packages").get(0).getAsJsonObject();
        assertEquals("com.example.stutter", pkg.get("packageName").getAsString());
        assertEquals(7, pkg.get("versionCode").getAsLong());
        assertTrue(pkg.get("totalFrames").getAsLong() > 0, lines.get(0));
        // Frames per wall-clock second depend on how the machine keeps the synth's pace: only that
        // there is a rate is checked here (LiveViewsTest checks the arithmetic).
        assertTrue(pkg.get("fps").getAsDouble() > 0, lines.get(0));
        long levels = 0;
        for (var level : pkg.getAsJsonArray("levelCounts")) {
            levels += level.getAsLong();
        }
        // The synth records while top reads its buffer, so frames can be counted between the reads of
        // one snapshot: a frame's total shows before its level (docs/buffer-format.md, "Reading"), never
        // after. So no more levels than frames, and the ones missing are a drain pass's at most (60: a
        // second of the synth's frames).
        long total = pkg.get("totalFrames").getAsLong();
        assertTrue(levels <= total && levels >= total - 60, "every synth frame has a Matrix level: " + lines.get(0));
        JsonObject scene = pkg.getAsJsonArray("scenes").get(0).getAsJsonObject();
        assertEquals("default", scene.get("scene").getAsString());
        assertTrue(scene.get("matrixFps").getAsDouble() > 0, lines.get(0));
    }

    @Test
    void shouldRunInATerminalAgainstTheDaemonAndQuitCleanly() throws Exception {
        synth("com.example.janky", "janky", 60);
        awaitFrames("com.example.janky");
        List<String> cmd = JavaProcess.command(io.gfxstats.cli.Main.class, "top", "--socket", daemon.socket().toString());
        Path script = state.resolve("top.sh");
        Files.writeString(script, cmd.stream().map(TopDaemonTest::quote).collect(Collectors.joining(" "))
                + "\necho \"TOP-EXIT $?\"\nstty -a | tr ' ' '\\n' | grep -E '^-?(icanon|echo|isig)$' | tr '\\n' ' '\n"
                + "echo; echo END\nsleep 60\n");
        try (TmuxSession t = TmuxSession.start(state, 80, 24, "bash " + quote(script.toString()))) {
            String screen = t.await(s -> s.contains("  default")
                    && s.matches("(?s).*\ncom\\.example\\.janky +7 +[0-9]+\\.[0-9] .*"), 60, "a row with FPS");
            Files.writeString(state.resolve("top-screen.txt"), screen);
            t.sendKeys("q");
            String end = t.await(s -> s.contains("END"), 20, "top to quit");
            assertTrue(end.contains("TOP-EXIT 0"), end);
            assertTrue(!end.contains("-icanon") && !end.contains("-echo ") && !end.contains("-isig"), end);
        }
    }

    @Test
    void shouldPrintMatrixReportsPerSliceAndTheOpenOnesOnSigterm() throws Exception {
        synth("com.example.smooth", "smooth", 60);
        awaitFrames("com.example.smooth");
        CliRun slices = CliRun.main("matrix-report", "--socket", daemon.socket().toString(), "--slice", "2",
                "--interval", "0.2", "--count", "2");
        assertEquals(0, slices.exit(), slices.stderr());
        List<String> lines = slices.out().lines().toList();
        assertEquals(2, lines.size(), slices.out());
        for (String line : lines) {
            JsonObject o = JsonParser.parseString(line).getAsJsonObject();
            assertEquals("com.example.smooth", o.get("process").getAsString());
            assertEquals("default", o.get("scene").getAsString());
            assertEquals("Trace_FPS", o.get("tag").getAsString());
            assertTrue(o.get("fps").getAsDouble() > 0 && o.get("REFRESH_RATE").getAsInt() == 60, line);
            assertTrue(o.has("TOTAL_DURATION") && o.has("GPU_DURATION"), "synth records full frames: " + line);
        }
        Path out = state.resolve("reports.txt");
        Path progress = state.resolve("progress.txt");
        Process reports = JavaProcess.builder(io.gfxstats.cli.Main.class, "matrix-report", "--socket",
                daemon.socket().toString(), "--interval", "0.2", "--progress")
                .redirectOutput(out.toFile()).redirectError(progress.toFile()).start();
        fixture.track(reports);
        // The open slice must hold more than Matrix's 20 frames to be reported at SIGTERM.
        Await.until(() -> Files.readString(progress, StandardCharsets.UTF_8).lines()
                .anyMatch(l -> openFrames(l, "com.example.smooth/default") > 20), Duration.ofSeconds(60),
                () -> "matrix-report's progress: " + Files.readString(progress, StandardCharsets.UTF_8));
        reports.destroy(); // SIGTERM: the open 10 s slice is reported
        assertTrue(reports.waitFor(30, TimeUnit.SECONDS));
        String text = Files.readString(out, StandardCharsets.UTF_8);
        assertTrue(text.lines().anyMatch(l -> l.startsWith("{\"machine\":") && l.contains("\"scene\":\"default\"")),
                text);
    }

    private static long openFrames(String progressLine, String slice) {
        Matcher m = Pattern.compile(Pattern.quote(slice) + " (\\d+) frames").matcher(progressLine);
        return m.find() ? Long.parseLong(m.group(1)) : -1;
    }

    private static String quote(String s) {
        return "'" + s.replace("'", "'\\''") + "'";
    }
}
