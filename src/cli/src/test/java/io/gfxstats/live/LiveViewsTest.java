package io.gfxstats.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.gfxstats.framestats.FramestatsBlock;
import io.gfxstats.framestats.FramestatsReader;
import io.gfxstats.framestats.FramestatsMatrix;
import io.gfxstats.matrix.MatrixDevice;
import io.gfxstats.matrix.MatrixFormat;
import io.gfxstats.matrix.MatrixLevels;
import io.gfxstats.matrix.MatrixReport;
import io.gfxstats.matrix.MatrixRule;
import io.gfxstats.testing.TestData;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The live views (top's model and rendering, matrix-report's slicing) on the real aNavMode
 * capture replayed as a feed, checked against the offline path ({@code framestats --matrix}).
 */
class LiveViewsTest {
    static final Path CAPTURE = TestData.androidGfxinfo("aNavMode-gfxinfo-framestats.txt");

    private static Map<String, MatrixReport> offlineReports() throws Exception {
        FramestatsMatrix offline = new FramestatsMatrix(MatrixFormat.V2_1, MatrixLevels.DEFAULT, MatrixDevice.UNKNOWN,
                16_666_667L);
        Map<String, MatrixReport> byScene = new HashMap<>();
        for (FramestatsBlock b : FramestatsReader.read(CAPTURE)) {
            offline.report(b, 0).report().ifPresent(r -> byScene.put(r.scene(), r));
        }
        return byScene;
    }

    @Test
    void shouldShowEveryFramesLevelInTheCumulativeViewAsFramestatsMatrixCountsThem() throws Exception {
        CaptureFeed feed = new CaptureFeed(CAPTURE, 1_000_000_000L);
        TopModel model = new TopModel(TopSort.NAME, true);
        for (LiveSnapshot s : feed.all()) {
            model.accept(s);
        }
        TopFrame frame = model.frame();
        Map<String, MatrixReport> offline = offlineReports();
        int checked = 0;
        for (TopFrame.Package p : frame.packages()) {
            long[] sum = new long[MatrixRule.LEVEL_COUNT];
            long frames = 0;
            for (TopRow s : p.scenes()) {
                frames += s.frames();
                for (int l = 0; l < sum.length; l++) {
                    sum[l] += s.level(l);
                }
                MatrixReport r = offline.get(s.scene());
                if (r != null) {
                    for (int l = 0; l < sum.length; l++) {
                        assertEquals(r.dropLevel(l), s.level(l), s.scene() + " level " + l);
                    }
                    assertEquals(r.fps(), s.matrixFps(), 1e-3, s.scene() + " mFPS");
                    checked++;
                }
            }
            assertEquals(frames, p.total().frames(), "package total = sum of its scenes");
            for (int l = 0; l < sum.length; l++) {
                assertEquals(sum[l], p.total().level(l));
            }
        }
        assertEquals(10, checked);
        assertEquals(frame.seconds(), (feed.all().get(feed.all().size() - 1).monotonicNanos()
                - feed.all().get(0).monotonicNanos()) / 1e9, 1e-9);
    }

    @Test
    void shouldGiveRatesOverTheLastIntervalAndToggleCumulative() throws Exception {
        CaptureFeed feed = new CaptureFeed(CAPTURE, 1_000_000_000L);
        TopModel model = new TopModel(TopSort.NAME, false);
        List<LiveSnapshot> all = feed.all();
        // Find an interval in which Taskbar drew frames.
        for (int i = 1; i < all.size(); i++) {
            model.accept(all.get(i - 1));
            model.accept(all.get(i));
            TopRow taskbar = scene(model.frame(), "Taskbar");
            if (taskbar != null && taskbar.frames() > 0) {
                assertEquals(taskbar.frames() / 1.0, taskbar.fps(), 1e-9, "1 s interval: fps = frames");
                model.toggleCumulative();
                assertTrue(model.frame().cumulative());
                assertTrue(scene(model.frame(), "Taskbar").frames() >= taskbar.frames());
                return;
            }
        }
        throw new AssertionError("Taskbar drew no frames");
    }

    private static TopRow scene(TopFrame frame, String scene) {
        for (TopFrame.Package p : frame.packages()) {
            for (TopRow r : p.scenes()) {
                if (r.scene().equals(scene)) {
                    return r;
                }
            }
        }
        return null;
    }

    @Test
    void shouldSortAndColourRowsByTheirJankyPercentage() throws Exception {
        CaptureFeed feed = new CaptureFeed(CAPTURE, 1_000_000_000L);
        TopModel model = new TopModel(TopSort.NAME, true);
        feed.all().forEach(model::accept);
        model.nextSort();
        assertEquals(TopSort.FPS, model.sort());
        TopFrame frame = model.frame();
        for (int i = 1; i < frame.packages().size(); i++) {
            assertTrue(frame.packages().get(i - 1).total().fps() <= frame.packages().get(i).total().fps());
        }
        List<String> lines = new TopRenderer(ZoneOffset.UTC).lines(frame, 120, 0, true, true);
        assertTrue(lines.get(0).contains("gfxstats top") && lines.get(0).contains("sort fps")
                && lines.get(0).contains("(q quit, s sort, c cumulative)"), lines.get(0));
        assertTrue(lines.get(1).startsWith("PACKAGE / SCENE"));
        int rows = 0;
        int line = 2;
        for (TopFrame.Package p : frame.packages()) {
            List<TopRow> all = new ArrayList<>();
            all.add(p.total());
            all.addAll(p.scenes());
            for (TopRow r : all) {
                String text = lines.get(line++);
                if (r.frames() == 0) {
                    assertFalse(text.startsWith("\u001b[38;5;"), "an idle row keeps the terminal's colour: " + text);
                    continue;
                }
                String expected = io.gfxstats.palette.Severity.ofJankPercent(r.jankPercent()).ansiForeground();
                assertTrue(text.startsWith(expected), r.jankPercent() + " % janky: " + text);
                rows++;
            }
        }
        assertTrue(rows >= 10, "rows checked: " + rows);
        List<String> plain = new TopRenderer(ZoneOffset.UTC).lines(frame, 120, 0, false, false);
        assertTrue(plain.stream().noneMatch(l -> l.contains("\u001b")));
        assertTrue(plain.stream().allMatch(l -> l.length() <= 120), String.join("\n", plain));
    }

    @Test
    void shouldPrintOneJsonObjectPerRefreshWithFpsAndLevels() throws Exception {
        CaptureFeed feed = new CaptureFeed(CAPTURE, 1_000_000_000L);
        TopModel model = new TopModel(TopSort.NAME, true);
        feed.all().forEach(model::accept);
        String json = TopRenderer.json(model.frame());
        assertFalse(json.contains("\n"));
        JsonObject o = JsonParser.parseString(json).getAsJsonObject();
        JsonArray packages = o.getAsJsonArray("packages");
        assertTrue(packages.size() >= 6);
        boolean sawTaskbar = false;
        for (var p : packages) {
            for (var s : p.getAsJsonObject().getAsJsonArray("scenes")) {
                JsonObject scene = s.getAsJsonObject();
                if (scene.get("scene").getAsString().equals("Taskbar")) {
                    sawTaskbar = true;
                    assertEquals(120, scene.getAsJsonArray("levelCounts").get(0).getAsLong());
                    assertEquals("BEST", scene.get("worstLevel").getAsString());
                    assertTrue(scene.get("fps").getAsDouble() >= 0, "the last interval's: " + scene);
                    assertTrue(scene.get("matrixFps").getAsDouble() > 59);
                    assertEquals(scene.get("jankyFrames").getAsLong() * 100.0 / scene.get("totalFrames").getAsLong(),
                            scene.get("jankPercent").getAsDouble(), 1e-9);
                }
                for (String key : scene.keySet()) {
                    assertTrue(key.matches("[a-z]+([A-Z][a-z]*)*"), "camelCase: " + key);
                }
                if (scene.get("totalFrames").getAsLong() <= 20) {
                    assertTrue(scene.get("matrixFps").isJsonNull(), "Matrix's gate: " + scene);
                }
            }
        }
        assertTrue(sawTaskbar);
    }

    @Test
    void shouldReportWholeScenesLikeFramestatsMatrixWhenTheSliceCoversThem() throws Exception {
        CaptureFeed feed = new CaptureFeed(CAPTURE, 1_000_000_000L);
        MatrixReportSlicer slicer = new MatrixReportSlicer(Long.MAX_VALUE / 4, () -> MatrixDevice.UNKNOWN);
        List<MatrixReport> reports = new ArrayList<>();
        for (LiveSnapshot s : feed.all()) {
            reports.addAll(slicer.accept(s));
        }
        assertTrue(reports.isEmpty(), "no slice is long enough to close");
        reports.addAll(slicer.flush(0));
        Map<String, MatrixReport> offline = offlineReports();
        assertEquals(offline.size(), reports.size());
        for (MatrixReport live : reports) {
            MatrixReport r = offline.get(live.scene());
            assertEquals(MatrixFormat.V2_1.json(r).replaceFirst("\"fps\":[0-9.E]+", ""),
                    MatrixFormat.V2_1.json(live).replaceFirst("\"fps\":[0-9.E]+", ""), live.scene());
            // Matrix sums floats frame by frame (ulp 128 ns at 2e9 ns), the live path exact integers.
            assertEquals(r.fps(), live.fps(), r.fps() * 1e-5, "fps from integer sums");
        }
    }

    @Test
    void shouldCutTenSecondSlicesPerSceneAndDropSmallOnes() {
        LiveScene.Key a = new LiveScene.Key("com.example", 1, "menu");
        SceneAccumulator acc = new SceneAccumulator(a, MatrixLevels.DEFAULT, false);
        MatrixReportSlicer slicer = new MatrixReportSlicer(MatrixReportSlicer.DEFAULT_SLICE_NANOS, () -> MatrixDevice.UNKNOWN);
        List<MatrixReport> reports = new ArrayList<>();
        long t = 0;
        reports.addAll(slicer.accept(new LiveSnapshot(t, 0, List.of(acc.counters()))));
        io.gfxstats.frame.FrameInfo f = new io.gfxstats.frame.FrameInfo();
        long vsync = 1_000_000L;
        // 25 s at 60 frames per second, one snapshot a second; then 10 frames in 12 s.
        for (int second = 1; second <= 37; second++) {
            int frames = second <= 25 ? 60 : (second == 26 ? 10 : 0);
            for (int i = 0; i < frames; i++) {
                long total = i == 0 ? 70_000_000L : 10_000_000L; // one NORMAL frame a second
                f.setMainTimes(vsync, vsync, vsync + total, vsync + total, 16_666_667L);
                acc.add(f, false, 60f);
                vsync += 16_666_667L;
            }
            t += 1_000_000_000L;
            reports.addAll(slicer.accept(new LiveSnapshot(t, t / 1_000_000L, List.of(acc.counters()))));
        }
        // Slices open at 0 s and 10 s (reports at 10 s and 20 s); the one opened at 20 s closes at 30 s
        // with 5 x 60 + 10 frames; the 10 frames after 26 s never make a slice of more than 20.
        assertEquals(3, reports.size(), reports.toString());
        assertEquals(600, reports.get(0).frames());
        assertEquals(10, reports.get(0).dropLevel(MatrixRule.NORMAL));
        assertEquals(30, reports.get(0).dropSum(MatrixRule.NORMAL)); // 70 ms: round(3.2)
        assertEquals(10_000L, reports.get(0).timeMillis());
        assertEquals(20_000L, reports.get(1).timeMillis());
        assertEquals(310, reports.get(2).frames());
        assertNull(reports.get(0).avgDurations(), "main times only: no stage keys");
        assertTrue(MatrixFormat.V2_1.json(reports.get(0)).contains("\"DROP_COUNT\":0,\"REFRESH_RATE\":60,"));
        assertTrue(slicer.flush(40_000L).isEmpty());
    }
}
