package io.gfxstats.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.gfxstats.client.DaemonBufferProvider;
import io.gfxstats.client.SessionOptions;
import io.gfxstats.client.StatsSession;
import io.gfxstats.client.WindowTracker;
import io.gfxstats.daemon.DaemonFixture;
import io.gfxstats.daemon.DaemonProcess;
import io.gfxstats.frame.FrameInfo;
import io.gfxstats.framestats.ModernCapture;
import io.gfxstats.testing.Await;
import io.gfxstats.testing.JavaProcess;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Live and offline Matrix values of one frame stream: recorded through a real Java client into a
 * real daemon and read back with {@code gfxstats scenes --json} and {@code gfxstats matrix-report},
 * and written as an Android 12+ framestats capture for {@code gfxstats framestats --matrix}; both
 * against an arithmetic of Matrix 2.1's rules written here, in float32 as Matrix computes.
 *
 * <p>The stream has what the two sides used to disagree on: totals of 0 ns and of an hour or
 * more, GPU durations of 0 and below, frames Matrix leaves out (a negative stage), interval
 * changes and scene switches. Matrix's float sums (fps, DROP_COUNT, REFRESH_RATE) are what the
 * offline replay computes frame by frame; the daemon keeps exact integer sums instead
 * (docs/scenes.md, "What differs"), so the emulation computes both and each side must equal its
 * own exactly; live and offline must then be equal in every field but fps, whose last float
 * digits may differ, and REFRESH_RATE, which differs by 1 where Matrix's float mean of rates
 * such as 119.99999 and 144.00003 Hz drifts across an integer that the exact mean stays below
 * (the stream has such a scene).
 */
class MatrixLiveOfflineTest {
    private static final String PKG = "com.example.matrixdiff";
    private static final long MS = 1_000_000L;
    private static final long[] INTERVALS = {16_666_667L, 8_333_334L, 11_111_111L, 6_944_444L};
    private static final String[] SCENES = {"menu", "level-1", "level-2"};
    private static final String[] LEVEL_KEYS = {"DROPPED_BEST", "DROPPED_NORMAL", "DROPPED_MIDDLE", "DROPPED_HIGH",
        "DROPPED_FROZEN"};
    private static final String[] STAGE_KEYS = {"UNKNOWN_DELAY_DURATION", "INPUT_HANDLING_DURATION",
        "ANIMATION_DURATION", "LAYOUT_MEASURE_DURATION", "DRAW_DURATION", "SYNC_DURATION", "COMMAND_ISSUE_DURATION",
        "SWAP_BUFFERS_DURATION", "TOTAL_DURATION", "GPU_DURATION"};
    /** FrameMetrics durations UNKNOWN_DELAY..TOTAL, GPU as (start, end) FrameInfo fields (Android 12+). */
    private static final int[][] STAGES = {
        {FrameInfo.INTENDED_VSYNC, FrameInfo.HANDLE_INPUT_START},
        {FrameInfo.HANDLE_INPUT_START, FrameInfo.ANIMATION_START},
        {FrameInfo.ANIMATION_START, FrameInfo.PERFORM_TRAVERSALS_START},
        {FrameInfo.PERFORM_TRAVERSALS_START, FrameInfo.DRAW_START},
        {FrameInfo.DRAW_START, FrameInfo.SYNC_QUEUED},
        {FrameInfo.SYNC_START, FrameInfo.ISSUE_DRAW_COMMANDS_START},
        {FrameInfo.ISSUE_DRAW_COMMANDS_START, FrameInfo.SWAP_BUFFERS},
        {FrameInfo.SWAP_BUFFERS, FrameInfo.SWAP_BUFFERS_COMPLETED},
        {FrameInfo.INTENDED_VSYNC, FrameInfo.FRAME_COMPLETED},
        {FrameInfo.COMMAND_SUBMISSION_COMPLETED, FrameInfo.GPU_COMPLETED},
    };

    private Path state;
    private DaemonProcess daemon;
    private DaemonFixture fixture;
    /** {@code scenes --json} taken while the client was recording. */
    private JsonObject liveScenes;

    @BeforeEach
    void setUp() throws Exception {
        fixture = DaemonFixture.start("gfxmx");
        state = fixture.state();
        daemon = fixture.daemon();
    }

    @AfterEach
    void tearDown() throws Exception {
        fixture.close();
    }

    /** One frame of the stream and the scene it is recorded in. */
    private record Frame(String scene, FrameInfo info) {
    }

    @Test
    void shouldGiveTheSameMatrixValuesLiveAndOfflineAsMatrixsArithmeticForOneRandomStream() throws Exception {
        List<Frame> frames = randomStream(new SplittableRandom(23), 900);
        Map<String, Emulation> expected = emulate(frames);
        for (Emulation e : expected.values()) {
            assertTrue(e.n > 20, "every scene gets a report: " + e.n);
        }
        assertTrue(expected.values().stream().mapToLong(e -> e.refused).sum() > 0, "the stream has refused frames");

        Map<String, JsonObject> live = recordLive(frames, expected);
        Map<String, JsonObject> offline = replayOffline(frames);
        JsonObject scenes = liveScenes;

        assertEquals(expected.keySet(), live.keySet());
        assertEquals(expected.keySet(), offline.keySet());
        for (Map.Entry<String, Emulation> e : expected.entrySet()) {
            String scene = e.getKey();
            Emulation m = e.getValue();
            assertReport(m, false, offline.get(scene), "offline " + scene);
            assertReport(m, true, live.get(scene), "live " + scene);
            JsonObject o = offline.get(scene);
            JsonObject l = live.get(scene);
            for (String key : o.keySet()) {
                if (!List.of("fps", "REFRESH_RATE", "machine", "mem", "mem_free", "time").contains(key)) {
                    assertEquals(o.get(key), l.get(key), scene + ": " + key + " live and offline");
                }
            }
            // Matrix's float sums drift by their rounding; the daemon's exact sums do not (both checked
            // exactly above against their own arithmetic): fps in its last digits, REFRESH_RATE by at
            // most 1 when the float mean crosses an integer (this stream's menu: 127 in Matrix, 126 live).
            assertEquals(o.get("fps").getAsDouble(), l.get("fps").getAsDouble(), 1e-4 * o.get("fps").getAsDouble(),
                    scene + ": fps live and offline");
            assertTrue(Math.abs(o.get("REFRESH_RATE").getAsInt() - l.get("REFRESH_RATE").getAsInt()) <= 1,
                    scene + ": REFRESH_RATE live and offline");
            assertSceneSums(m, scenes, scene);
        }
    }

    @Test
    void shouldReadRefreshRate119FromTheLiveReportOfFramesAt8333334Nanoseconds() throws Exception {
        List<Frame> frames = new ArrayList<>();
        long t = 1_000 * MS;
        for (int i = 0; i < 40; i++, t += 8_333_334L) {
            frames.add(new Frame("game", frame(t, 8_333_334L, 5 * MS, MS, false)));
        }
        Map<String, Emulation> expected = emulate(frames);
        JsonObject report = recordLive(frames, expected).get("game");
        // 1e9 / 8,333,334 = 119.99999 Hz in float: Matrix prints (int) of the mean, 119.
        assertEquals(119, report.get("REFRESH_RATE").getAsInt(), report.toString());
        assertEquals(119, expected.get("game").refreshRate(false), "Matrix's own float mean");
        assertEquals(40, report.getAsJsonObject("dropLevel").get("DROPPED_BEST").getAsInt(), report.toString());
    }

    /**
     * A stream of {@code count} frames: intervals changing every 30 to 100 frames, scene switches
     * every 20 to 80, totals mostly within three intervals, 2 % of 0 ns, 1 % of one to three hours,
     * 2 % of 100 to 900 ms, 1 % with a negative DRAW (Matrix leaves the frame out), GPU durations
     * from -3 to 6 ms with 10 % of exactly 0.
     */
    private static List<Frame> randomStream(SplittableRandom random, int count) {
        List<Frame> frames = new ArrayList<>();
        long t = 1_000 * MS;
        long interval = INTERVALS[0];
        String scene = SCENES[0];
        int nextInterval = 0;
        int nextScene = 0;
        for (int i = 0; i < count; i++) {
            if (i == nextInterval) {
                interval = INTERVALS[random.nextInt(INTERVALS.length)];
                nextInterval += random.nextInt(30, 101);
            }
            if (i == nextScene) {
                scene = SCENES[random.nextInt(SCENES.length)];
                nextScene += random.nextInt(20, 81);
            }
            int kind = random.nextInt(100);
            long total = kind < 2 ? 0
                    : kind < 3 ? 3_600_000 * MS + random.nextLong(2 * 3_600_000 * MS)
                    : kind < 5 ? random.nextLong(100 * MS, 900 * MS)
                    : random.nextLong(1, 3 * interval);
            long gpu = random.nextInt(10) == 0 ? 0 : random.nextLong(-3 * MS, 6 * MS);
            frames.add(new Frame(scene, frame(t, interval, total, gpu, kind == 99)));
            t += interval;
        }
        return frames;
    }

    /** A frame at {@code t} whose stages split {@code total} evenly, with {@code gpu} ns of GPU. */
    private static FrameInfo frame(long t, long interval, long total, long gpu, boolean negativeDraw) {
        FrameInfo f = new FrameInfo();
        long step = total / 8;
        f.set(FrameInfo.FRAME_TIMELINE_VSYNC_ID, t / MS);
        f.set(FrameInfo.INTENDED_VSYNC, t);
        f.set(FrameInfo.VSYNC, t);
        f.set(FrameInfo.FRAME_START_TIME, t);
        f.set(FrameInfo.FRAME_DEADLINE, t + interval);
        f.set(FrameInfo.FRAME_INTERVAL, interval);
        f.set(FrameInfo.HANDLE_INPUT_START, t + step);
        f.set(FrameInfo.ANIMATION_START, t + 2 * step);
        f.set(FrameInfo.PERFORM_TRAVERSALS_START, t + 3 * step);
        f.set(FrameInfo.DRAW_START, t + 4 * step);
        f.set(FrameInfo.SYNC_QUEUED, negativeDraw ? t + 4 * step - MS : t + 5 * step);
        f.set(FrameInfo.SYNC_START, t + 5 * step);
        f.set(FrameInfo.ISSUE_DRAW_COMMANDS_START, t + 6 * step);
        f.set(FrameInfo.SWAP_BUFFERS, t + 7 * step);
        f.set(FrameInfo.SWAP_BUFFERS_COMPLETED, t + total);
        f.set(FrameInfo.FRAME_COMPLETED, t + total);
        f.set(FrameInfo.COMMAND_SUBMISSION_COMPLETED, t + total);
        f.set(FrameInfo.GPU_COMPLETED, t + total + gpu);
        f.set(FrameInfo.DISPLAY_PRESENT_TIME, -1);
        return f;
    }

    /** Matrix 2.1's sums of one scene's frames, and the daemon's exact integer sums of the same. */
    private static final class Emulation {
        int n;
        int refused;
        final int[] level = new int[5];
        final int[] sum = new int[5];
        final long[] stages = new long[10];
        float dropCount;
        float refresh;
        float cost;
        long exactCost;
        long exactDroppedQ20;
        long exactMilliHz;

        void add(FrameInfo f) {
            long[] d = new long[10];
            for (int m = 0; m < 10; m++) {
                d[m] = f.get(STAGES[m][1]) - f.get(STAGES[m][0]);
                if (m < 9 && (d[m] < 0 || d[m] >= Long.MAX_VALUE >>> 1)) {
                    refused++; // one of the nine durations Matrix checks is an outlier
                    return;
                }
            }
            float r = 1_000_000_000f / f.get(FrameInfo.FRAME_INTERVAL);
            float interval = 1_000_000_000f / r;
            float total = d[8];
            float dropped = Math.max(0f, (total - interval) / interval);
            int whole = Math.round(dropped);
            int lv = whole >= 42 ? 4 : whole >= 24 ? 3 : whole >= 9 ? 2 : whole >= 3 ? 1 : 0;
            level[lv]++;
            sum[lv] += Math.max(whole, 0);
            for (int m = 0; m < 10; m++) {
                stages[m] += d[m]; // GPU unchecked, whatever its sign
            }
            dropCount += dropped;
            refresh += r;
            float frameCost = Math.max(total, interval);
            cost += frameCost;
            exactCost += (long) frameCost;
            exactDroppedQ20 += (long) (dropped * (1 << 20));
            exactMilliHz += (long) (r * 1000.0);
            n++;
        }

        float fps(boolean live) {
            return live ? (float) (1e9 / ((double) exactCost / n)) : 1_000_000_000f / (cost / n);
        }

        int dropCount(boolean live) {
            return live ? Math.round((float) (exactDroppedQ20 / (double) (1 << 20) / n)) : Math.round(dropCount / n);
        }

        int refreshRate(boolean live) {
            return live ? (int) (float) (exactMilliHz / 1000.0 / n) : (int) (refresh / n);
        }
    }

    private static Map<String, Emulation> emulate(List<Frame> frames) {
        Map<String, Emulation> m = new TreeMap<>();
        for (Frame f : frames) {
            m.computeIfAbsent(f.scene(), k -> new Emulation()).add(f.info());
        }
        return m;
    }

    private static void assertReport(Emulation m, boolean live, JsonObject r, String where) {
        for (int l = 0; l < 5; l++) {
            assertEquals(m.level[l], r.getAsJsonObject("dropLevel").get(LEVEL_KEYS[l]).getAsInt(), where + " level " + l);
            assertEquals(m.sum[l], r.getAsJsonObject("dropSum").get(LEVEL_KEYS[l]).getAsInt(), where + " sum " + l);
        }
        assertEquals((double) m.fps(live), r.get("fps").getAsDouble(), 0.0, where + " fps");
        for (int s = 0; s < 10; s++) {
            assertEquals(m.stages[s] / m.n, r.get(STAGE_KEYS[s]).getAsLong(), where + " " + STAGE_KEYS[s]);
        }
        assertEquals(m.dropCount(live), r.get("DROP_COUNT").getAsInt(), where + " DROP_COUNT");
        assertEquals(m.refreshRate(live), r.get("REFRESH_RATE").getAsInt(), where + " REFRESH_RATE");
        assertEquals(PKG, r.get("process").getAsString(), where);
    }

    /** The scene's counters in {@code scenes --json}: Matrix frames, levels and stage sums, exact. */
    private static void assertSceneSums(Emulation m, JsonObject scenes, String scene) {
        JsonObject stats = null;
        for (JsonElement e : scenes.getAsJsonArray("entries")) {
            JsonObject s = e.getAsJsonObject().getAsJsonObject("stats");
            if (s.get("scene").getAsString().equals(scene)) {
                stats = s;
            }
        }
        assertTrue(stats != null, "scenes --json has " + scene + ": " + scenes);
        assertEquals(m.n, stats.get("matrixFrames").getAsLong(), scene + " matrixFrames");
        JsonArray counts = stats.getAsJsonArray("levelCounts");
        JsonArray sums = stats.getAsJsonArray("levelSums");
        JsonArray stages = stats.getAsJsonArray("stageDurationNanos");
        for (int l = 0; l < 5; l++) {
            assertEquals(m.level[l], counts.get(l).getAsLong(), scene + " levelCounts " + l);
            assertEquals(m.sum[l], sums.get(l).getAsLong(), scene + " levelSums " + l);
        }
        for (int s = 0; s < 10; s++) {
            assertEquals(m.stages[s], stages.get(s).getAsLong(), scene + " stage " + STAGE_KEYS[s]);
        }
        assertEquals(m.exactCost, stats.get("frameCostNanos").getAsLong(), scene + " frameCostNanos");
        assertEquals(m.exactMilliHz, stats.get("refreshMillihz").getAsLong(), scene + " refreshMillihz");
    }

    /**
     * Records the frames through a client of this process into the daemon while {@code
     * matrix-report} watches, then stops it with SIGTERM once its open slices hold every frame
     * Matrix counts: its reports, by scene (one 24 h slice each).
     */
    private Map<String, JsonObject> recordLive(List<Frame> frames, Map<String, Emulation> expected) throws Exception {
        Path out = state.resolve("reports.txt");
        Path progress = state.resolve("progress.txt");
        Process reports = JavaProcess.builder(io.gfxstats.cli.Main.class, "matrix-report", "--socket",
                        daemon.socket().toString(), "--package", PKG, "--slice", "86400", "--interval", "0.2",
                        "--progress")
                .redirectOutput(out.toFile()).redirectError(progress.toFile()).start();
        fixture.track(reports);
        // Frames counted before matrix-report's first read are not sliced: wait for that read.
        Await.until(() -> Files.readString(progress, StandardCharsets.UTF_8).contains("open slices:"),
                Duration.ofSeconds(60), () -> "matrix-report's progress: " + Files.readString(progress, StandardCharsets.UTF_8));
        StatsSession session = StatsSession.open(SessionOptions.builder(PKG, 1).build(),
                new DaemonBufferProvider(daemon.socket()));
        try {
            assertTrue(session.awaitAttached(Duration.ofSeconds(60)), "client attached");
            WindowTracker tracker = session.newTracker();
            String current = null;
            for (Frame f : frames) {
                if (!f.scene().equals(current)) {
                    tracker.setScene(f.scene(), f.info().get(FrameInfo.INTENDED_VSYNC));
                    current = f.scene();
                }
                tracker.record(f.info());
            }
            Await.until(() -> {
                String text = Files.readString(progress, StandardCharsets.UTF_8);
                String last = text.lines().reduce("", (a, b) -> b);
                for (Map.Entry<String, Emulation> e : expected.entrySet()) {
                    if (openFrames(last, PKG + "/" + e.getKey()) != e.getValue().n) {
                        return false;
                    }
                }
                return true;
            }, Duration.ofSeconds(60), () -> "matrix-report's progress: " + Files.readString(progress, StandardCharsets.UTF_8));
            liveScenes = scenesJson(); // the client's buffer, read live
            reports.destroy(); // SIGTERM: the open slices are reported
            assertTrue(reports.waitFor(30, TimeUnit.SECONDS));
            tracker.close();
        } finally {
            session.close();
        }
        Map<String, JsonObject> byScene = new LinkedHashMap<>();
        for (String line : Files.readString(out, StandardCharsets.UTF_8).lines().toList()) {
            JsonObject o = JsonParser.parseString(line).getAsJsonObject();
            byScene.put(o.get("scene").getAsString(), o);
        }
        return new TreeMap<>(byScene);
    }

    /** The same frames as a framestats capture, one window per scene, through {@code framestats --matrix}. */
    private Map<String, JsonObject> replayOffline(List<Frame> frames) throws Exception {
        ModernCapture capture = new ModernCapture();
        for (String scene : SCENES) {
            capture.window(4242, PKG, scene);
            for (Frame f : frames) {
                if (f.scene().equals(scene)) {
                    capture.row(f.info());
                }
            }
            capture.end();
        }
        Path file = state.resolve("capture.txt");
        Files.writeString(file, capture.toString(), StandardCharsets.UTF_8);
        CliRun run = CliRun.main("framestats", "--matrix", "--slices", "window", "--time", "1700000000000",
                file.toString());
        assertEquals(0, run.exit(), run.stderr());
        Map<String, JsonObject> byScene = new TreeMap<>();
        for (String line : run.out().lines().toList()) {
            JsonObject o = JsonParser.parseString(line).getAsJsonObject();
            byScene.put(o.get("scene").getAsString(), o);
        }
        return byScene;
    }

    private JsonObject scenesJson() {
        CliRun run = CliRun.main("scenes", "--socket", daemon.socket().toString(), "--package", PKG, "--json");
        assertEquals(0, run.exit(), run.stderr());
        return JsonParser.parseString(run.out()).getAsJsonObject();
    }

    private static long openFrames(String progressLine, String slice) {
        Matcher m = Pattern.compile(Pattern.quote(slice) + " (\\d+) frames").matcher(progressLine);
        return m.find() ? Long.parseLong(m.group(1)) : -1;
    }
}
