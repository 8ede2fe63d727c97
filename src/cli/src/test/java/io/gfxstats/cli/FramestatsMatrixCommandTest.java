package io.gfxstats.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.gfxstats.testing.TestData;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code gfxstats framestats --matrix} on the real aNavMode capture, checked field by field
 * against an independent emulation of Matrix 2.1.0 written here: its own reading of the capture
 * (split at "Window:" lines, columns by header name), and float32 arithmetic emulated as double
 * operations rounded to float after each step, with Math.round as floor(x + 0.5) in double. It
 * shares no code with io.gfxstats.matrix or io.gfxstats.framestats.
 */
class FramestatsMatrixCommandTest {
    static final Path CAPTURE = TestData.androidGfxinfo("aNavMode-gfxinfo-framestats.txt");
    static final String[] STAGE_KEYS = {
        "UNKNOWN_DELAY_DURATION", "INPUT_HANDLING_DURATION", "ANIMATION_DURATION", "LAYOUT_MEASURE_DURATION",
        "DRAW_DURATION", "SYNC_DURATION", "COMMAND_ISSUE_DURATION", "SWAP_BUFFERS_DURATION", "TOTAL_DURATION",
        "GPU_DURATION",
    };
    /** FrameMetrics durations (Android 12+ table) as {start, end} column names. */
    static final String[][] STAGES = {
        {"IntendedVsync", "HandleInputStart"}, {"HandleInputStart", "AnimationStart"},
        {"AnimationStart", "PerformTraversalsStart"}, {"PerformTraversalsStart", "DrawStart"},
        {"DrawStart", "SyncQueued"}, {"SyncStart", "IssueDrawCommandsStart"},
        {"IssueDrawCommandsStart", "SwapBuffers"}, {"SwapBuffers", "SwapBuffersCompleted"},
        {"IntendedVsync", "FrameCompleted"}, {"CommandSubmissionCompleted", "GpuCompleted"},
    };

    /** Rounds to float32 and back: the emulated float. */
    static double f32(double x) {
        return (float) x;
    }

    record Window(String name, String process, List<Map<String, Long>> rows) {
    }

    /** The capture's windows with framestats, read independently of FramestatsReader. */
    static List<Window> windows() throws Exception {
        List<String> lines = Files.readAllLines(CAPTURE, StandardCharsets.UTF_8);
        List<Window> windows = new ArrayList<>();
        String process = null;
        String window = null;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.startsWith("** Graphics info for pid ")) {
                process = line.substring(line.indexOf('[') + 1, line.lastIndexOf(']'));
            } else if (line.startsWith("Window: ")) {
                window = line.substring("Window: ".length());
            } else if (line.startsWith("Flags,") && window != null) {
                String[] header = line.split(",");
                List<Map<String, Long>> rows = new ArrayList<>();
                for (i++; !lines.get(i).startsWith("---PROFILEDATA---"); i++) {
                    String[] v = lines.get(i).split(",");
                    Map<String, Long> row = new LinkedHashMap<>();
                    for (int c = 0; c < header.length; c++) {
                        row.put(header[c], Long.parseLong(v[c].trim()));
                    }
                    // Devices print FrameInterval and FrameStartTime swapped: the interval is the small one.
                    long a = row.get("FrameInterval");
                    long b = row.get("FrameStartTime");
                    row.put("interval", a > 0 && a < 1_000_000_000L ? a : b);
                    rows.add(row);
                }
                windows.add(new Window(window, process, rows));
                window = null;
            }
        }
        return windows;
    }

    /**
     * A row Matrix 2.1 would have been given and kept on its total: delivered (GpuCompleted set)
     * with 0 <= FrameCompleted - IntendedVsync < 2^62 - 1 (the capture's values cannot overflow).
     */
    static boolean replayable(Map<String, Long> row) {
        long span = row.get("FrameCompleted") - row.get("IntendedVsync");
        return span >= 0 && span < 4611686018427387903L && row.get("GpuCompleted") > 0;
    }

    /** Matrix 2.1.0's reported slices of the window's replayable rows, cut every 10 s or not at all. */
    static List<Map<String, Object>> emulate(Window w, boolean tenSeconds) {
        List<Map<String, Object>> reports = new ArrayList<>();
        Acc acc = new Acc();
        long begin = 0;
        rows:
        for (Map<String, Long> row : w.rows) {
            if (!replayable(row)) {
                continue;
            }
            long[] d = new long[10];
            for (int s = 0; s < 10; s++) {
                d[s] = row.get(STAGES[s][1]) - row.get(STAGES[s][0]);
                if (s < 9 && (d[s] < 0 || d[s] >= 4611686018427387903L)) {
                    continue rows;
                }
            }
            // uptimeMillis when Matrix handles the frame: after it completed.
            long now = row.get("FrameCompleted") / 1_000_000L;
            if (acc.n == 0) {
                begin = now;
            }
            acc.add(row, d);
            if (tenSeconds && now - begin >= 10_000) {
                acc.close(w, reports);
                acc = new Acc();
            }
        }
        acc.close(w, reports);
        return reports;
    }

    /** One slice's sums, float32 emulated. */
    static final class Acc {
        final long[] sums = new long[10];
        final long[] level = new long[5];
        final long[] dropSum = new long[5];
        double dropCount;
        double refresh;
        double total;
        int n;

        void add(Map<String, Long> row, long[] d) {
            for (int s = 0; s < 10; s++) {
                sums[s] += d[s];
            }
            double r = f32(1e9 / row.get("interval"));
            double interval = f32(1e9 / r);
            double t = f32(d[8]);
            double dropped = Math.max(0, f32(f32(t - interval) / interval));
            // Math.round to an int saturates (the capture has two rows of 2.9e17 ns, 1.7e10 dropped frames).
            long k = Math.min(Integer.MAX_VALUE, (long) Math.floor(dropped + 0.5));
            int lv = k >= 42 ? 4 : k >= 24 ? 3 : k >= 9 ? 2 : k >= 3 ? 1 : 0;
            level[lv]++;
            dropSum[lv] = (int) (dropSum[lv] + Math.max(k, 0)); // Matrix sums in an int, wrapping
            dropCount = f32(dropCount + dropped);
            refresh = f32(refresh + r);
            total = f32(total + Math.max(t, interval));
            n++;
        }

        /** Adds the slice's report if Matrix emits it: more than 20 frames. */
        void close(Window w, List<Map<String, Object>> into) {
            if (n <= 20) {
                return;
            }
            Map<String, Object> report = new LinkedHashMap<>();
            report.put("scene", w.name);
            report.put("process", w.process);
            report.put("frames", (long) n);
            report.put("dropLevel", level);
            report.put("dropSum", dropSum);
            report.put("fps", f32(1e9 / f32(total / n)));
            long[] avg = new long[10];
            for (int s = 0; s < 10; s++) {
                avg[s] = sums[s] / n;
            }
            report.put("durations", avg);
            report.put("DROP_COUNT", (long) Math.floor(f32(dropCount / n) + 0.5));
            report.put("REFRESH_RATE", (long) f32(refresh / n));
            into.add(report);
        }
    }

    /** Every report of the capture, emulated, in window order. */
    static List<Map<String, Object>> expected(boolean tenSeconds) throws Exception {
        List<Map<String, Object>> expected = new ArrayList<>();
        for (Window w : windows()) {
            expected.addAll(emulate(w, tenSeconds));
        }
        return expected;
    }

    /** Compares printed reports with emulated ones, field by field. */
    static void assertReports(List<Map<String, Object>> expected, CliRun run) {
        assertEquals(0, run.exit(), run.stderr());
        List<String> lines = run.out().lines().toList();
        assertEquals(expected.size(), lines.size(), run.out());
        String[] levelKeys = {"DROPPED_BEST", "DROPPED_NORMAL", "DROPPED_MIDDLE", "DROPPED_HIGH", "DROPPED_FROZEN"};
        for (int i = 0; i < lines.size(); i++) {
            Map<String, Object> e = expected.get(i);
            JsonObject o = JsonParser.parseString(lines.get(i)).getAsJsonObject();
            String where = e.get("scene") + " #" + i;
            assertEquals(e.get("scene"), o.get("scene").getAsString());
            assertEquals(e.get("process"), o.get("process").getAsString(), where);
            long[] level = (long[]) e.get("dropLevel");
            long[] sum = (long[]) e.get("dropSum");
            for (int l = 0; l < 5; l++) {
                assertEquals(level[l], o.getAsJsonObject("dropLevel").get(levelKeys[l]).getAsLong(), where + " " + levelKeys[l]);
                assertEquals(sum[l], o.getAsJsonObject("dropSum").get(levelKeys[l]).getAsLong(), where + " sum " + levelKeys[l]);
            }
            // Bit for bit: the printed fps is the widened float, parsed back exactly.
            assertEquals((double) e.get("fps"), o.get("fps").getAsDouble(), 0.0, where + " fps");
            assertEquals(Double.toString((double) e.get("fps")), o.get("fps").getAsString(), where + " fps text");
            long[] avg = (long[]) e.get("durations");
            for (int s = 0; s < 10; s++) {
                assertEquals(avg[s], o.get(STAGE_KEYS[s]).getAsLong(), where + " " + STAGE_KEYS[s]);
            }
            assertEquals(e.get("DROP_COUNT"), o.get("DROP_COUNT").getAsLong(), where + " DROP_COUNT");
            assertEquals(e.get("REFRESH_RATE"), o.get("REFRESH_RATE").getAsLong(), where + " REFRESH_RATE");
            assertEquals(1700000000000L, o.get("time").getAsLong());
            assertEquals("Trace_FPS", o.get("tag").getAsString());
        }
    }

    @Test
    void shouldMatchAnIndependentFloat32EmulationOfMatrix21FieldByField() throws Exception {
        CliRun run = CliRun.main("framestats", "--matrix", "--slices", "window", "--time", "1700000000000",
                CAPTURE.toString());
        List<Map<String, Object>> expected = expected(false);
        assertEquals(10, expected.size(), "windows with more than 20 frames in the capture");
        assertReports(expected, run);
        // The spec's figures from its own emulation (docs/spec/matrix-frametracer.md 1.7).
        assertTrue(run.out().contains("\"scene\":\"com.android.settings\\/com.android.settings.spa.SpaActivity\","
                + "\"dropLevel\":{\"DROPPED_BEST\":113,"), run.out());
        assertTrue(run.out().contains("\"scene\":\"Taskbar\""));
        assertTrue(run.out().contains("\"fps\":59.995"));
        // Windows of 20 frames or fewer are named on stderr, not reported.
        assertTrue(run.stderr().contains("not reported: ScreenDecorOverlay (line "), run.stderr());
    }

    @Test
    void shouldCutReportsEveryTenSecondsAndDropSlicesOfTwentyFramesOrFewerAsMatrix21Does() throws Exception {
        CliRun run = CliRun.main("framestats", "--matrix", "--time", "1700000000000", CAPTURE.toString());
        List<Map<String, Object>> expected = expected(true);
        assertReports(expected, run);
        // Matrix's numbers for StatusBar: not one 120-frame report but 28 frames at 43.57 fps and 22 at 36.46,
        // the other 70 frames in slices of 20 or fewer.
        List<JsonObject> statusBar = run.out().lines().map(l -> JsonParser.parseString(l).getAsJsonObject())
                .filter(o -> o.get("scene").getAsString().equals("StatusBar")).toList();
        assertEquals(2, statusBar.size(), run.out());
        assertEquals("43.57298278808594", statusBar.get(0).get("fps").getAsString());
        assertEquals(28, frames(statusBar.get(0)));
        assertEquals("36.46019744873047", statusBar.get(1).get("fps").getAsString());
        assertEquals(22, frames(statusBar.get(1)));
        assertTrue(run.stderr().contains("): 70 of 120 frames, in slices of 20 frames or fewer"),
                run.stderr());
        assertTrue(run.stderr().contains("not reported: StatusBar (line "), run.stderr());
        assertEquals(15, expected.size(), "10 s slices of more than 20 frames in the capture");
    }

    @Test
    void shouldNeverReportTheCaptureWithMatrix20sTenThousandMillisecondsOfFrameCost() {
        // No window of the capture sums 10,000 ms of 2.0's frame cost (MainActivity, the most, has 6,041).
        CliRun run = CliRun.main("framestats", "--matrix", "--format", "matrix-2.0", "--time", "0", CAPTURE.toString());
        assertEquals(0, run.exit(), run.stderr());
        assertEquals("", run.out());
        assertTrue(run.stderr().contains("not reported: Taskbar (line "), run.stderr());
        assertTrue(run.stderr().contains("): 120 of 120 frames, after the last 10,000 ms of summed frame cost"
                + " (Matrix 2.0 never reports them)"), run.stderr());
    }

    private static long frames(JsonObject report) {
        long n = 0;
        for (String key : report.getAsJsonObject("dropLevel").keySet()) {
            n += report.getAsJsonObject("dropLevel").get(key).getAsLong();
        }
        return n;
    }

    @Test
    void shouldPrintTheKeysInMatrix21Order() {
        CliRun run = CliRun.main("framestats", "--matrix", "--time", "0", CAPTURE.toString());
        String first = run.out().lines().findFirst().orElseThrow();
        List<String> keys = new ArrayList<>(JsonParser.parseString(first).getAsJsonObject().keySet());
        assertEquals(List.of("machine", "cpu_app", "mem", "mem_free", "scene", "dropLevel", "dropSum", "fps",
                "UNKNOWN_DELAY_DURATION", "INPUT_HANDLING_DURATION", "ANIMATION_DURATION", "LAYOUT_MEASURE_DURATION",
                "DRAW_DURATION", "SYNC_DURATION", "COMMAND_ISSUE_DURATION", "SWAP_BUFFERS_DURATION", "TOTAL_DURATION",
                "GPU_DURATION", "DROP_COUNT", "REFRESH_RATE", "tag", "process", "time"), keys);
        assertTrue(first.startsWith("{\"machine\":\"UN_KNOW\",\"cpu_app\":0,\"mem\":0,\"mem_free\":0,\"scene\":"), first);
    }

    @Test
    void shouldPrintMatrix20ReportsWithTheirKeyOrder() {
        CliRun run = CliRun.main("framestats", "--matrix", "--format", "matrix-2.0", "--slices", "window", "--time", "0",
                CAPTURE.toString());
        assertEquals(0, run.exit(), run.stderr());
        List<String> lines = run.out().lines().toList();
        assertEquals(10, lines.size());
        for (String line : lines) {
            JsonObject o = JsonParser.parseString(line).getAsJsonObject();
            assertEquals(List.of("machine", "cpu_app", "mem", "mem_free", "scene", "dropLevel", "dropSum", "fps", "tag",
                    "process", "time"), new ArrayList<>(o.keySet()));
            assertEquals(List.of("DROPPED_FROZEN", "DROPPED_HIGH", "DROPPED_MIDDLE", "DROPPED_NORMAL", "DROPPED_BEST"),
                    new ArrayList<>(o.getAsJsonObject("dropLevel").keySet()));
            assertTrue(o.get("fps").getAsDouble() <= 60.0, line);
        }
        // Taskbar is smooth: 2.0's 1000 x n / cost exceeds 60 and prints the cap as an integer.
        assertTrue(run.out().contains("\"scene\":\"Taskbar\",\"dropLevel\":{\"DROPPED_FROZEN\":0,\"DROPPED_HIGH\":0,"
                + "\"DROPPED_MIDDLE\":0,\"DROPPED_NORMAL\":0,\"DROPPED_BEST\":120},\"dropSum\":{\"DROPPED_FROZEN\":0,"
                + "\"DROPPED_HIGH\":0,\"DROPPED_MIDDLE\":0,\"DROPPED_NORMAL\":0,\"DROPPED_BEST\":0},\"fps\":60,"), run.out());
    }

    @Test
    void shouldWrapReportsAsMatrixLogsThemAndHonourLevelBounds() {
        CliRun wrapped = CliRun.main("framestats", "--matrix", "--issue-lines", "--time", "0", CAPTURE.toString());
        assertTrue(wrapped.out().lines().allMatch(l -> l.startsWith("tag[Trace_FPS]type[0];key[null];content[{")
                && l.endsWith("}]")), wrapped.out());
        CliRun strict = CliRun.main("framestats", "--matrix", "--slices", "window", "--levels", "1,2,3,4", "--time", "0",
                CAPTURE.toString());
        assertTrue(strict.out().contains("\"scene\":\"Taskbar\",\"dropLevel\":{\"DROPPED_BEST\":120,"), strict.out());
        assertTrue(strict.out().contains("\"scene\":\"com.android.settings\\/com.android.settings.spa.SpaActivity\","
                + "\"dropLevel\":{\"DROPPED_BEST\":"), strict.out());
    }

    /**
     * {@code --slices process}: one slice sequence per process over all its windows, as Matrix
     * 2.1's single listener: every Matrix frame of the capture is either in a report or counted
     * on stderr, per process, and each report names a window of its process.
     */
    @Test
    void shouldSliceEachProcessOnceOverAllItsWindowsWithSlicesProcess() throws Exception {
        CliRun window = CliRun.main("framestats", "--matrix", "--slices", "matrix", "--time", "1700000000000",
                CAPTURE.toString());
        CliRun process = CliRun.main("framestats", "--matrix", "--slices", "process", "--time", "1700000000000",
                CAPTURE.toString());
        assertEquals(0, process.exit(), process.stderr());
        assertTrue(process.stderr().lines().allMatch(l -> l.startsWith("not reported: process ")), process.stderr());
        // Merging the windows neither loses nor doubles a frame: reported plus unreported is the same.
        assertEquals(accounted(window), accounted(process));
        // The shared slice takes the windows' frames together: not the per-window reports.
        assertTrue(!process.out().equals(window.out()), process.out());
        assertTrue(process.out().contains("\"process\":\"com.android.systemui\""), process.out());
    }

    /** Frames in a run's reports plus those its stderr says went unreported. */
    private static long accounted(CliRun run) {
        long frames = 0;
        for (String line : run.out().lines().toList()) {
            JsonObject levels = JsonParser.parseString(line).getAsJsonObject().getAsJsonObject("dropLevel");
            for (String level : levels.keySet()) {
                frames += levels.get(level).getAsLong();
            }
        }
        java.util.regex.Pattern counts = java.util.regex.Pattern.compile(": (\\d+) of \\d+ frames");
        for (String line : run.stderr().lines().toList()) {
            java.util.regex.Matcher m = counts.matcher(line);
            assertTrue(m.find(), line);
            frames += Long.parseLong(m.group(1));
        }
        return frames;
    }

    @Test
    void shouldRejectBadMatrixOptionsInOneLine() {
        assertEquals("gfxstats framestats: unknown Matrix format 'matrix-1.0' (matrix-2.1 or matrix-2.0)",
                CliRun.main("framestats", "--matrix", "--format", "matrix-1.0", CAPTURE.toString()).onlyErrorLine());
        assertEquals("gfxstats framestats: matrix level bounds must be four integers normal,middle,high,frozen: 3,9",
                CliRun.main("framestats", "--matrix", "--levels", "3,9", CAPTURE.toString()).onlyErrorLine());
        assertEquals("gfxstats framestats: unknown slicing 'slices' (matrix, window or process)",
                CliRun.main("framestats", "--matrix", "--slices", "slices", CAPTURE.toString()).onlyErrorLine());
        assertEquals("gfxstats framestats: --slices process applies to --format matrix-2.1 only (Matrix 2.0 keeps"
                + " a slice per scene)", CliRun.main("framestats", "--matrix", "--format", "matrix-2.0", "--slices",
                "process", CAPTURE.toString()).onlyErrorLine());
        assertEquals("gfxstats framestats: --slices, --levels, --issue-lines and --time apply to --matrix only",
                CliRun.main("framestats", "--issue-lines", CAPTURE.toString()).onlyErrorLine());
        assertEquals("gfxstats framestats: --proto, --check and --matrix exclude each other",
                CliRun.main("framestats", "--matrix", "--check", CAPTURE.toString()).onlyErrorLine());
    }
}
