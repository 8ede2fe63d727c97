package io.gfxstats.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.gfxstats.live.CaptureFeed;
import io.gfxstats.testing.TestData;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code gfxstats top} and {@code gfxstats matrix-report} over a real capture replayed as the
 * live feed (the daemon's Watch stream is tested end to end in TopProcessTest).
 */
class LiveCommandsTest {
    static final Path CAPTURE = TestData.androidGfxinfo("aNavMode-gfxinfo-framestats.txt");

    private static TopCommand.FeedOpener capture(long intervalNanos) {
        return (args, env, interval, pkg) -> {
            try {
                return new CaptureFeed(CAPTURE, intervalNanos);
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        };
    }

    @Test
    void shouldPrintOneTextSnapshotWhenNotOnATerminal() throws Exception {
        CliRun run = CliRun.command(new TopCommand(Map.of(), capture(100_000_000_000L), false), "", "--cumulative");
        assertEquals(0, run.exit(), run.stderr());
        List<String> lines = run.out().lines().toList();
        assertTrue(lines.get(0).startsWith("gfxstats top  "), lines.get(0));
        assertTrue(lines.get(1).startsWith("PACKAGE / SCENE"), lines.get(1));
        assertTrue(run.out().contains("\n  Taskbar "), run.out());
        assertTrue(run.out().lines().noneMatch(l -> l.contains("\u001b")), "no colours off a terminal");
    }

    @Test
    void shouldPrintOneJsonObjectPerRefresh() throws Exception {
        CliRun run = CliRun.command(new TopCommand(Map.of(), capture(1_000_000_000L), false), "", "--json", "--count", "3");
        assertEquals(0, run.exit(), run.stderr());
        List<String> lines = run.out().lines().toList();
        assertEquals(3, lines.size());
        for (String line : lines) {
            JsonObject o = JsonParser.parseString(line).getAsJsonObject();
            assertEquals(1.0, o.get("seconds").getAsDouble(), 1e-9);
            assertTrue(o.getAsJsonArray("packages").size() > 0);
        }
        CliRun once = CliRun.command(new TopCommand(Map.of(), capture(1_000_000_000L), true), "", "--json", "--once");
        assertEquals(1, once.out().lines().count());
    }

    @Test
    void shouldRejectBadOptionsInOneLine() throws Exception {
        TopCommand top = new TopCommand(Map.of(), capture(1_000_000_000L), false);
        assertEquals("gfxstats top: --interval must be at least 0.2 seconds",
                CliRun.command(top, "", "--interval", "0.1").onlyErrorLine());
        assertEquals("gfxstats top: sort must be name, fps, jank or dropped: speed",
                CliRun.command(top, "", "--sort", "speed").onlyErrorLine());
        MatrixReportCommand reports = new MatrixReportCommand(Map.of(), capture(1_000_000_000L), () -> 0L);
        assertEquals("gfxstats matrix-report: --min-drop-level must be BEST, NORMAL, MIDDLE, HIGH or FROZEN: worst",
                CliRun.command(reports, "", "--min-drop-level", "worst").onlyErrorLine());
        assertEquals("gfxstats matrix-report: unknown Matrix format 'matrix-3' (matrix-2.1 or matrix-2.0)",
                CliRun.command(reports, "", "--format", "matrix-3").onlyErrorLine());
    }

    @Test
    void shouldSayInOneLineThatNoDaemonRuns(@org.junit.jupiter.api.io.TempDir Path dir) {
        String socket = dir.resolve("none.sock").toString();
        assertEquals("gfxstats top: gfxstats daemon not running (no socket at " + socket + ")",
                CliRun.main("top", "--once", "--json", "--socket", socket).onlyErrorLine());
        assertEquals("gfxstats matrix-report: gfxstats daemon not running (no socket at " + socket + ")",
                CliRun.main("matrix-report", "--socket", socket).onlyErrorLine());
    }

    @Test
    void shouldReportSlicesPerSceneAndFilterThem() throws Exception {
        MatrixReportCommand reports = new MatrixReportCommand(Map.of(), capture(1_000_000_000L), () -> 1_000L);
        CliRun all = CliRun.command(reports, "", "--slice", "80000");
        assertEquals(0, all.exit(), all.stderr());
        List<String> lines = all.out().lines().toList();
        assertEquals(10, lines.size(), all.out());
        for (String line : lines) {
            JsonObject o = JsonParser.parseString(line).getAsJsonObject();
            assertEquals("Trace_FPS", o.get("tag").getAsString());
            assertTrue(o.has("DROP_COUNT") && o.has("REFRESH_RATE") && o.has("GPU_DURATION"), line);
        }
        CliRun frozenOnly = CliRun.command(reports, "", "--slice", "80000", "--min-drop-level", "frozen");
        // InputMethod, the docs app, and SettingsHomepageActivity with its two rows of 2.9e17 ns that Matrix counts.
        assertEquals(3, frozenOnly.out().lines().count(), frozenOnly.out());
        assertTrue(frozenOnly.out().contains("SettingsHomepageActivity"), frozenOnly.out());
        CliRun slow = CliRun.command(reports, "", "--slice", "80000", "--max-fps", "30", "--format", "matrix-2.0",
                "--issue-lines");
        assertTrue(slow.out().lines().allMatch(l -> l.startsWith("tag[Trace_FPS]type[0];key[null];content[{")
                && !l.contains("DROP_COUNT")), slow.out());
        assertEquals(4, slow.out().lines().count(), slow.out());
        CliRun tenSeconds = CliRun.command(reports, "", "--count", "2");
        assertEquals(2, tenSeconds.out().lines().count(), tenSeconds.out());
    }
}
