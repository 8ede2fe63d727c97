package io.gfxstats.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gfxstats.cli.Main;
import io.gfxstats.testing.Chromium;
import io.gfxstats.testing.JavaProcess;
import io.gfxstats.testing.TestData;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code gfxstats report} opened in a real headless Chromium: no console errors, every chart
 * painted, and the numbers on the page are the dump's. The screenshot stays in the test's
 * directory (target/report-screenshots keeps a copy to look at).
 */
class ReportEndToEndTest {
    private static final Pattern CELL = Pattern.compile("<td id=\"([a-z0-9_-]+)\">([^<]*)</td>");
    private static final Pattern CHART = Pattern.compile("<div [^>]*id=\"(chart-[a-z]+)\"[^>]*>");
    private static final Pattern NUMBER = Pattern.compile("data-([a-z-]+)=\"(\\d+)\"");

    @TempDir
    Path tmp;

    @Test
    void shouldShowTheDumpsNumbersInChartsThatChromiumPaints() throws Exception {
        Chromium chromium = Chromium.require(tmp);
        try (DaemonProcess daemon = new DaemonProcess(tmp.resolve("s")).start()) {
            Process synth = JavaProcess.builder(Main.class, "synth", "--socket", daemon.socket().toString(),
                    "--package", "com.example.report", "--version-code", "4", "--seconds", "2", "--fps", "120",
                    "--seed", "5").redirectErrorStream(true).redirectOutput(daemon.clientLog().toFile()).start();
            try (ClientProcess other = ClientProcess.start(daemon, "com.example.other", 1, 400, 400, 0,
                    "wait-attach", "exit")) {
                assertEquals(0, other.waitFor());
            }
            assertTrue(synth.waitFor(60, TimeUnit.SECONDS));
            assertEquals(0, synth.exitValue(), Files.readString(daemon.clientLog()));

            Path html = tmp.resolve("report.html");
            report("--socket", daemon.socket().toString(), "--package", "com.example.report",
                    "--out", html.toString());
            String file = Files.readString(html);
            assertFalse(Pattern.compile("(src|href)=\"?(https?:)?//").matcher(file).find(), "fetches something");

            Chromium.Page page = checkLayout(chromium, html, tmp, "chart-cpu", "chart-causes", "chart-days",
                    "chart-gpu");

            // The dump of the same package, as dumpsys prints it: every number the page shows.
            String dump = new String(dumpText(daemon, "com.example.report"));
            java.util.Map<String, String> cells = cells(page.dom());
            assertEquals(field(dump, "Total frames rendered: (\\d+)"), cells.get("total-frames"));
            assertEquals(field(dump, "Janky frames: (\\d+ \\([^)]*\\))"), cells.get("janky-frames"));
            for (int p : new int[] {50, 90, 95, 99}) {
                assertEquals(field(dump, "\n" + p + "th percentile: (\\d+ms)"), cells.get("p" + p));
                assertEquals(field(dump, "\n" + p + "th gpu percentile: (\\d+ms)"), cells.get("gpu-p" + p));
            }
            for (String[] c : new String[][] {{"missed_vsync", "Missed Vsync"},
                {"high_input_latency", "High input latency"}, {"slow_ui_thread", "Slow UI thread"},
                {"slow_bitmap_upload", "Slow bitmap uploads"}, {"slow_draw", "Slow issue draw commands"},
                {"missed_deadline", "Frame deadline missed"}}) {
                assertEquals(field(dump, "Number " + c[1] + ": (\\d+)"), cells.get("cause-" + c[0]), c[1]);
            }
            // The causes chart draws the summary's numbers: janky frames, then the four causes.
            String causes = field(field(page.dom(), "id=\"report-data\">(.*?)</script>"),
                    "\"causes\":\\{\"labels\":\\[[^]]*\\],\"values\":\\[([^]]*)\\]");
            assertEquals(String.join(",", field(dump, "Janky frames: (\\d+)"),
                    field(dump, "Number Missed Vsync: (\\d+)"), field(dump, "Number Slow UI thread: (\\d+)"),
                    field(dump, "Number Slow bitmap uploads: (\\d+)"),
                    field(dump, "Number Slow issue draw commands: (\\d+)")), causes);
            // What the frame-time chart draws is the dump's histogram.
            String histogram = field(dump, "\nHISTOGRAM: ([^\n]*)");
            List<String> counts = new ArrayList<>();
            for (String bucket : histogram.split(" ")) {
                counts.add(bucket.substring(bucket.indexOf('=') + 1));
            }
            String data = field(page.dom(), "id=\"report-data\">(.*?)</script>");
            String cpuCounts = field(data, "\"cpu\":\\{\"labels\":\\[[^]]*\\],\"counts\":\\[([^]]*)\\]");
            assertEquals(String.join(",", counts), cpuCounts);

            picture(chromium, html, "report-daemon.png", 3300);
        }
    }

    @Test
    void shouldShowTheScenesOfAClientThatNamesThem() throws Exception {
        Chromium chromium = Chromium.require(tmp);
        try (DaemonProcess daemon = new DaemonProcess(tmp.resolve("sc")).start()) {
            try (ClientProcess c = ClientProcess.start(daemon, "com.example.scenes", 2, 700, 700, 0, "wait-attach",
                    "exit", "scenes")) {
                assertEquals(0, c.waitFor());
            }
            java.util.Map<String, Long> frames = new java.util.TreeMap<>();
            for (long i = 0; i < 700; i++) {
                frames.merge(FrameClient.scene(i), 1L, Long::sum);
            }
            Path html = tmp.resolve("scenes.html");
            report("--socket", daemon.socket().toString(), "--out", html.toString());
            Chromium.Page page = checkLayout(chromium, html, tmp, "chart-cpu", "chart-scenes");
            String table = field(page.dom(), "<table class=\"list\" id=\"scenes\">(.*?)</table>");
            for (java.util.Map.Entry<String, Long> e : frames.entrySet()) {
                assertTrue(table.contains("<td>com.example.scenes</td><td>" + e.getKey() + "</td><td>" + e.getValue()
                        + "</td>"), e + " in " + table);
            }
            chromium.screenshot(html, tmp.resolve("scenes.png"), 1000, 2600);
        }
    }

    @Test
    void shouldShowTheFrameTimelineCountersOfAClientAsDumpFrametimelinePrintsThem() throws Exception {
        Chromium chromium = Chromium.require(tmp);
        Path log = tmp.resolve("frames.jsonl");
        Files.write(log, TimelineClientEndToEndTest.frameLog(600));
        try (DaemonProcess daemon = new DaemonProcess(tmp.resolve("ft")).start()) {
            Process client = JavaProcess.builder(TimelineClient.class, daemon.socket().toString(), "com.example.wayland",
                    "3", log.toString()).redirectError(ProcessBuilder.Redirect.appendTo(daemon.clientLog().toFile())).start();
            String said = new String(client.getInputStream().readAllBytes());
            assertTrue(client.waitFor(60, TimeUnit.SECONDS));
            assertEquals(0, client.exitValue(), said + Files.readString(daemon.clientLog()));

            Path html = tmp.resolve("frametimeline.html");
            report("--socket", daemon.socket().toString(), "--package", "com.example.wayland", "--out", html.toString());
            Chromium.Page page = checkLayout(chromium, html, tmp, "chart-frametimeline");

            Process p = JavaProcess.builder(Main.class, "dump", "--frametimeline", "--socket", daemon.socket().toString(),
                    "--package", "com.example.wayland").start();
            String dump = new String(p.getInputStream().readAllBytes());
            assertEquals(0, p.waitFor());
            java.util.Map<String, String> cells = cells(page.dom());
            String frames = field(dump, "\ntotalTimelineFrames = (\\d+)\n");
            String janky = field(dump, "\njankyFrames = (\\d+)\n");
            assertEquals("600", frames);
            assertEquals(frames, cells.get("ft0-frames"));
            assertEquals(janky, cells.get("ft0-janky"));
            assertEquals(io.gfxstats.dump.JankyPercent.format(io.gfxstats.dump.JankyPercent.of(Integer.parseInt(janky),
                    Integer.parseInt(frames))) + "%", cells.get("ft0-jank-percent"));
            Matcher types = Pattern.compile("\njankType (\\w+) = (\\d+)").matcher(dump);
            int shown = 0;
            while (types.find()) {
                String cell = cells.get("ft0-jank-" + types.group(1).toLowerCase(java.util.Locale.ROOT));
                // Every type that occurred has its column, with the dump's count; the others have none.
                assertEquals(types.group(2).equals("0") ? null : types.group(2), cell, types.group(1));
                shown += cell == null ? 0 : 1;
            }
            assertTrue(shown >= 2, "the frame log has app deadline and buffer stuffing jank: " + dump);
            for (String[] t : new String[][] {{"OnTime", "on-time"}, {"Late", "late"}, {"Early", "early"}}) {
                assertEquals(field(dump, "\npresent" + t[0] + "Frames = (\\d+)\n"), cells.get("ft0-present-" + t[1]), t[0]);
            }
            picture(chromium, html, "report-frametimeline.png", 2300);
        }
    }

    @Test
    void shouldReportAFramestatsCaptureOffline() throws Exception {
        Chromium chromium = Chromium.require(tmp);
        Path capture = typed(TestData.file("android-gfxinfo", "aNavMode-gfxinfo-framestats.txt"));
        Path html = tmp.resolve("capture.html");
        report("--framestats", capture.toString(), "--out", html.toString());

        // The offline replay's own numbers, from `gfxstats framestats` on the same capture.
        Process framestats = JavaProcess.builder(Main.class, "framestats", capture.toString())
                .redirectErrorStream(true).start();
        String text = new String(framestats.getInputStream().readAllBytes());
        assertEquals(0, framestats.waitFor());
        long total = 0;
        Matcher m = Pattern.compile("Total frames rendered: (\\d+)").matcher(text);
        int windows = 0;
        while (m.find()) {
            total += Long.parseLong(m.group(1));
            windows++;
        }
        Chromium.Page page = checkLayout(chromium, html, tmp, "chart-frames", "chart-cpu", "chart-causes",
                "chart-gpu");
        assertTrue(page.dom().indexOf("id=\"chart-frames\"") < page.dom().indexOf("id=\"chart-cpu\""),
                "a capture leads with its frames over time");
        // The frames drawn are the frames counted, the janky ones marked once each.
        com.google.gson.JsonObject f = framesOf(page.dom());
        assertEquals(total, f.getAsJsonArray("ms").size());
        long marked = marked(f);
        long janky = 0;
        Matcher jm = Pattern.compile("Janky frames: (\\d+)").matcher(text);
        while (jm.find()) {
            janky += Long.parseLong(jm.group(1));
        }
        assertEquals(janky, marked, "janky frames marked");
        assertSource(page.dom(), capture);
        assertTrue(page.dom().contains("Left out: "), "the chart says what it leaves out");
        assertFalse(page.dom().contains("id=\"chart-days\""), "a capture has no days");
        assertFalse(page.dom().contains(">capture<"), "no day labelled capture");
        assertEquals(Long.toString(total), cells(page.dom()).get("total-frames"));
        int rows = page.dom().split("<tr>").length - 1;
        assertTrue(rows >= windows, "one row per window");
        picture(chromium, html, "report-capture.png", 2300);
    }

    @Test
    void shouldReportATraceOffline() throws Exception {
        Chromium chromium = Chromium.require(tmp);
        Path trace = typed(TestData.file("openharmony-trace", "codrax-donghu-rs-excerpt.ftrace"));
        Path html = tmp.resolve("trace.html");
        report("--trace", trace.toString(), "--out", html.toString());

        // What `gfxstats trace --format dumpsys` prints for the same trace.
        Process dumpsys = JavaProcess.builder(Main.class, "trace", trace.toString(), "--format", "dumpsys").start();
        String text = new String(dumpsys.getInputStream().readAllBytes());
        assertEquals(0, dumpsys.waitFor());
        long total = 0;
        long janky = 0;
        Matcher m = Pattern.compile("Total frames rendered: (\\d+)\nJanky frames: (\\d+)").matcher(text);
        while (m.find()) {
            total += Long.parseLong(m.group(1));
            janky += Long.parseLong(m.group(2));
        }
        assertTrue(total > 0, text);
        Chromium.Page page = checkLayout(chromium, html, tmp, "chart-frames", "chart-cpu", "chart-gpu");
        java.util.Map<String, String> cells = cells(page.dom());
        assertEquals(Long.toString(total), cells.get("total-frames"));
        assertTrue(cells.get("janky-frames").startsWith(janky + " ("), cells.get("janky-frames"));
        assertTrue(page.dom().indexOf("id=\"chart-frames\"") < page.dom().indexOf("id=\"chart-cpu\""),
                "a trace leads with its frames over time");
        // The frames drawn are the frames the summary counts, the janky ones marked once each.
        com.google.gson.JsonObject f = framesOf(page.dom());
        assertEquals(total, f.getAsJsonArray("ms").size());
        assertEquals(janky, marked(f), "janky frames marked");
        assertSource(page.dom(), trace);
        assertTrue(page.dom().contains("Left out: "), "the chart says what it leaves out");

        // `gfxstats trace --format json`'s own count, per process, is on the page too.
        Process json = JavaProcess.builder(Main.class, "trace", trace.toString(), "--format", "json").start();
        String jsonText = new String(json.getInputStream().readAllBytes());
        assertEquals(0, json.waitFor());
        com.google.gson.JsonArray processes = com.google.gson.JsonParser.parseString(jsonText).getAsJsonObject()
                .getAsJsonArray("processes");
        assertFalse(processes.isEmpty(), jsonText);
        for (int i = 0; i < processes.size(); i++) {
            com.google.gson.JsonObject summary = processes.get(i).getAsJsonObject().getAsJsonObject("summary");
            assertEquals(summary.get("totalFrames").getAsString(), cells.get("tc" + i + "-frames"));
            assertTrue(cells.get("tc" + i + "-janky").startsWith(summary.get("jankyFrames").getAsString() + " ("),
                    cells.get("tc" + i + "-janky"));
        }
        picture(chromium, html, "report-trace.png", 2600);
    }

    /**
     * A test file as a user types it, relative to the repository's root (every test's working
     * directory, so the report's process finds it): the pictures in docs/img show this path, not
     * where some checkout happens to live.
     */
    private static Path typed(Path file) {
        Path relative = Path.of("").toAbsolutePath().relativize(file);
        assertFalse(relative.startsWith(".."), "test data outside the repository: " + file);
        return relative;
    }

    /** The page names its input as it was given, and nothing of the directory it was made in. */
    private static void assertSource(String dom, Path input) {
        String source = field(dom, "<p class=\"source\">([^<]*)</p>");
        assertTrue(source.contains(" " + input + " "), source);
        assertFalse(dom.contains(Path.of("").toAbsolutePath().toString()), "the page names the working directory");
    }

    /**
     * The report's picture at 1000 px wide, in target/report-screenshots under the name docs/img
     * gives it (scripts/docs-pictures copies them there).
     */
    private void picture(Chromium chromium, Path html, String name, int height) throws Exception {
        Path png = tmp.resolve(name);
        chromium.screenshot(html, png, 1000, height);
        Path shots = Path.of("target", "report-screenshots");
        Files.createDirectories(shots);
        Files.copy(png, shots.resolve(name), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }

    @Test
    void shouldReportAPerfettoTraceOfflineWithTimelinePerfettosNumbers() throws Exception {
        Chromium chromium = Chromium.require(tmp);
        io.gfxstats.timeline.perfetto.GameFrameTimeline.Trace trace =
                io.gfxstats.timeline.perfetto.GameFrameTimeline.write();
        Files.write(tmp.resolve("game.pftrace"), trace.bytes());
        // Run where the trace is, named as a reader would name it: the page (and its picture) shows that name.
        reportIn(tmp, "--perfetto", "game.pftrace", "--out", "perfetto.html");
        Path html = tmp.resolve("perfetto.html");

        Process cli = JavaProcess.builder(Main.class, "timeline", "perfetto", "--json",
                tmp.resolve("game.pftrace").toString()).start();
        String jsonText = new String(cli.getInputStream().readAllBytes());
        assertEquals(0, cli.waitFor());
        com.google.gson.JsonObject json = com.google.gson.JsonParser.parseString(jsonText).getAsJsonObject();

        Chromium.Page page = checkLayout(chromium, html, tmp, "chart-frames");
        java.util.Map<String, String> cells = cells(page.dom());
        for (String[] pair : new String[][] {{"surface-frames", "surfaceFrames"}, {"display-frames", "displayFrames"},
                {"total-frames", "totalFrames"}, {"missed-app-frames", "missedAppFrames"},
                {"dropped-frames", "droppedFrames"}}) {
            assertEquals(json.get(pair[1]).getAsString(), cells.get(pair[0]), pair[1]);
        }
        com.google.gson.JsonArray processes = json.getAsJsonArray("processes");
        assertEquals(2, processes.size(), jsonText);
        String[] names = {"process", "pid", "totalFrames", "jankyFrames", "missedAppFrames", "missedSfFrames",
                "droppedFrames"};
        for (int i = 0; i < processes.size(); i++) {
            com.google.gson.JsonObject p = processes.get(i).getAsJsonObject();
            for (int c = 0; c < names.length; c++) {
                assertEquals(p.get(names[c]).getAsString(), cells.get("tl" + i + "-" + c), names[c] + " of " + i);
            }
            String[] pct = {"p50Ms", "p90Ms", "p99Ms"};
            for (int c = 0; c < pct.length; c++) {
                double cli99 = p.getAsJsonObject("frameDuration").get(pct[c]).getAsDouble();
                assertEquals(String.format(java.util.Locale.ROOT, "%.3f", cli99), cells.get("tl" + i + "-" + (7 + c)),
                        pct[c]);
            }
        }
        assertFalse(page.dom().contains("id=\"chart-cpu\""), "no dump histogram for a FrameTimeline input");
        // Every app frame drawn, the janky ones marked once each; SurfaceFlinger's display frames only counted.
        com.google.gson.JsonObject f = framesOf(page.dom());
        long actual = json.get("surfaceFrames").getAsLong();
        assertEquals(io.gfxstats.timeline.perfetto.GameFrameTimeline.FRAMES, actual);
        assertEquals(actual, f.getAsJsonArray("ms").size());
        assertEquals(trace.jankySurfaces(), marked(f), "app frames with a jank type marked");
        assertEquals(16.667, f.get("refreshMs").getAsDouble(), 0.001, "60 Hz vsyncs");
        assertTrue(page.dom().contains("Left out: 0 of the input's 600 closed actual SurfaceFrames, 0 SurfaceFrames never"
                + " closed by a FrameEnd, and SurfaceFlinger's 600 display frames"), "says what it leaves out");
        assertTrue(page.dom().contains("FrameTimeline of the Perfetto trace game.pftrace"), "the name as given");
        picture(chromium, html, "report-perfetto.png", 1000);
    }

    @Test
    void shouldReportAFrameLogOfflineWithTimelineClassifysNumbers() throws Exception {
        Chromium chromium = Chromium.require(tmp);
        Files.writeString(tmp.resolve("frames.jsonl"), frameLog(300));
        reportIn(tmp, "--timeline-log", "frames.jsonl", "--out", "log.html");
        Path html = tmp.resolve("log.html");

        // What `gfxstats timeline classify` writes for the same log, counted per jank type.
        Process cli = JavaProcess.builder(Main.class, "timeline", "classify", tmp.resolve("frames.jsonl").toString())
                .start();
        List<String> lines = new String(cli.getInputStream().readAllBytes()).lines().toList();
        assertEquals(0, cli.waitFor());
        assertEquals(300, lines.size());
        java.util.Map<String, long[]> types = new java.util.TreeMap<>();
        long jankyDisplays = 0;
        long jankySurfaces = 0;
        long surfaces = 0;
        long marked = 0;
        for (int i = 0; i < lines.size(); i++) {
            com.google.gson.JsonObject o = com.google.gson.JsonParser.parseString(lines.get(i)).getAsJsonObject();
            boolean any = countTypes(o, types, 0);
            jankyDisplays += any ? 1 : 0;
            for (com.google.gson.JsonElement sf : o.getAsJsonArray("surfaces")) {
                surfaces++;
                boolean s = countTypes(sf.getAsJsonObject(), types, 1);
                jankySurfaces += s ? 1 : 0;
                any |= s;
            }
            // The first frame has no frame time (no present before it): not drawn.
            marked += any && i > 0 ? 1 : 0;
        }
        assertTrue(jankyDisplays > 0 && jankySurfaces > 0, "the log has jank to show: " + types.keySet());

        Chromium.Page page = checkLayout(chromium, html, tmp, "chart-frames");
        java.util.Map<String, String> cells = cells(page.dom());
        assertEquals("300", cells.get("display-frames"));
        assertEquals(Long.toString(jankyDisplays), cells.get("janky-display-frames"));
        assertEquals(Long.toString(surfaces), cells.get("surface-frames"));
        assertEquals(Long.toString(jankySurfaces), cells.get("janky-surface-frames"));
        int row = 0;
        for (java.util.Map.Entry<String, long[]> e : types.entrySet()) {
            // The page lists the types in the classifier's table order; find this one's row.
            int r = 0;
            while (cells.containsKey("tl" + r + "-0") && !cells.get("tl" + r + "-0").equals(e.getKey())) {
                r++;
            }
            assertEquals(e.getKey(), cells.get("tl" + r + "-0"), "a row per jank type");
            assertEquals(Long.toString(e.getValue()[0]), cells.get("tl" + r + "-1"), e.getKey() + " display frames");
            assertEquals(Long.toString(e.getValue()[1]), cells.get("tl" + r + "-2"), e.getKey() + " surface frames");
            row++;
        }
        assertFalse(cells.containsKey("tl" + row + "-0"), "no row for a type that did not occur");
        com.google.gson.JsonObject f = framesOf(page.dom());
        assertEquals(299, f.getAsJsonArray("ms").size(), "every frame after the first");
        assertEquals(marked, marked(f), "janky frames marked once each");
        assertEquals(16.667, f.get("refreshMs").getAsDouble(), 0.001);
        assertTrue(page.dom().contains("Left out: 0 of the input's 299 display frames with a present after another, 0"
                + " display frames whose present fence never signalled (present -1), and 1 with no earlier present"),
                "says what it leaves out");
        assertTrue(page.dom().contains("display frames of the frame log frames.jsonl"), "the name as given");
        assertTrue(page.dom().contains("at its present, its time since the previous present"), "what a point is");
        picture(chromium, html, "report-timeline-log.png", 900);
    }

    /** Adds a classified frame's jank types to column {@code column}; whether it had any. */
    private static boolean countTypes(com.google.gson.JsonObject o, java.util.Map<String, long[]> types, int column) {
        boolean any = false;
        for (com.google.gson.JsonElement j : o.getAsJsonArray("jank")) {
            if (!j.getAsString().equals("None")) {
                types.computeIfAbsent(j.getAsString(), k -> new long[2])[column]++;
                any = true;
            }
        }
        return any;
    }

    /**
     * A 60 Hz frame log: one app surface per display frame, mostly on time; now and then the app
     * finishes late, SurfaceFlinger presents a vsync late, or a present comes early.
     */
    private static String frameLog(int frames) {
        long period = 16_666_667;
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < frames; i++) {
            long start = 1_000_000_000L + i * period;
            long predictedPresent = start + 2 * period;
            // Late by less than a vsync, so each present still comes after the one before (every frame has a frame time).
            long late = i % 29 == 7 ? 2 * period / 3 : i % 41 == 13 ? period / 2 : 0;
            long appEnd = start - 2_000_000 + (i % 23 == 5 ? period + 4_000_000 : -(i * 7919L % 6_000_000));
            long present = predictedPresent + late + (i % 37 == 19 ? -period / 2 : 0);
            long end = start + 4_000_000 + (i * 104_729L % 3_000_000);
            sb.append("{\"token\":").append(1000 + i).append(",\"prediction\":\"valid\",\"predicted\":{\"start\":")
                    .append(start).append(",\"end\":").append(start + 8_000_000).append(",\"present\":")
                    .append(predictedPresent).append("},\"actual\":{\"start\":").append(start).append(",\"end\":")
                    .append(end).append(",\"present\":").append(present).append("},\"refresh_period\":").append(period)
                    .append(",\"render_period\":").append(period).append(",\"surfaces\":[{\"token\":").append(5000 + i)
                    .append(",\"layer\":\"app\",\"prediction\":\"valid\",\"predicted\":{\"start\":")
                    .append(start - period).append(",\"end\":").append(start).append(",\"present\":")
                    .append(predictedPresent).append("},\"actual\":{\"start\":").append(start - period)
                    .append(",\"end\":").append(appEnd).append("}}]}\n");
        }
        return sb.toString();
    }

    /** The page's frames-over-time data. */
    private static com.google.gson.JsonObject framesOf(String dom) {
        String frames = field(field(dom, "id=\"report-data\">(.*?)</script>"), "\"frames\":(\\{.*\\})\\}$");
        return com.google.gson.JsonParser.parseString(frames).getAsJsonObject();
    }

    /** How many frames carry a cause mark, and that no two marks share a colour. */
    private static long marked(com.google.gson.JsonObject f) {
        long marked = 0;
        java.util.Set<String> colours = new java.util.HashSet<>();
        for (com.google.gson.JsonElement mark : f.getAsJsonArray("marks")) {
            assertTrue(colours.add(mark.getAsJsonObject().get("color").getAsString()), "one colour per cause: " + f.get("marks"));
            for (com.google.gson.JsonElement v : mark.getAsJsonObject().getAsJsonArray("values")) {
                marked += v.isJsonNull() ? 0 : 1;
            }
        }
        return marked;
    }

    /**
     * Marks, on the page's root, every two pieces of text whose boxes overlap (the DOM's and the
     * labels the charts draw on their canvas), every text cut by the window's right edge and every
     * chart label outside its plot; run after the report's own scripts.
     */
    private static final String LAYOUT_CHECK = """
            <script>(function () {
              var els = [];
              document.querySelectorAll('h1,h2,p,th,td,.u-legend .u-label,.u-legend .u-value').forEach(function (e) {
                var r = e.getBoundingClientRect();
                if (r.width > 0 && r.height > 0 && e.textContent.trim()) els.push({ e: e, r: r });
              });
              var bad = [];
              // The charts' own labels are canvas text: their boxes come from the chart (data-labels),
              // and each must lie inside the plot, away from the axes' numbers and titles.
              document.querySelectorAll('[data-labels]').forEach(function (chart) {
                var at = chart.querySelector('canvas').getBoundingClientRect();
                var plot = JSON.parse(chart.getAttribute('data-plot'));
                JSON.parse(chart.getAttribute('data-labels')).forEach(function (l) {
                  if (l[1] < plot[0] - 1 || l[2] < plot[1] - 1 || l[3] > plot[2] + 1 || l[4] > plot[3] + 1) {
                    bad.push('outside the plot: ' + l[0]);
                  }
                  els.push({ t: l[0], r: { left: at.left + l[1], top: at.top + l[2], right: at.left + l[3],
                    bottom: at.top + l[4] } });
                });
              });
              var w = document.documentElement.clientWidth;
              function text(x) { return (x.e ? x.e.textContent : x.t).trim().slice(0, 40); }
              for (var i = 0; i < els.length; i++) {
                var a = els[i].r;
                if (a.right > w + 1) bad.push('cut: ' + text(els[i]));
                for (var j = i + 1; j < els.length; j++) {
                  if (els[i].e && els[j].e && (els[i].e.contains(els[j].e) || els[j].e.contains(els[i].e))) continue;
                  var c = els[j].r;
                  if (a.left < c.right - 1 && c.left < a.right - 1 && a.top < c.bottom - 1 && c.top < a.bottom - 1) {
                    bad.push(text(els[i]) + ' / ' + text(els[j]));
                  }
                }
              }
              document.documentElement.setAttribute('data-overlaps', bad.join(' | '));
            })();</script>
            """;

    /**
     * The report at 1280 and 800 pixels: no console error, every chart painted, no text on other
     * text nor cut by the window; returns the page at 1280.
     */
    static Chromium.Page checkLayout(Chromium chromium, Path html, Path tmp, String... charts) throws Exception {
        Path checked = tmp.resolve("layout-" + html.getFileName());
        Files.writeString(checked, Files.readString(html).replace("</body>", LAYOUT_CHECK + "</body>"));
        Chromium.Page wide = null;
        for (int width : new int[] {1280, 800}) {
            Chromium.Page page = chromium.dumpDom(checked, width);
            assertNoErrors(page);
            assertPainted(width, page.dom(), charts);
            String overlaps = field(page.dom(), "data-overlaps=\"([^\"]*)\"");
            assertEquals("", overlaps, width + " px: text on text or cut");
            if (wide == null) {
                wide = page;
            }
        }
        return wide;
    }

    /** Runs {@code gfxstats report ARGS} as its own process; it must succeed. */
    private static void report(String... args) throws Exception {
        String[] argv = new String[args.length + 1];
        argv[0] = "report";
        System.arraycopy(args, 0, argv, 1, args.length);
        Process report = JavaProcess.builder(Main.class, argv).redirectErrorStream(true).start();
        String said = new String(report.getInputStream().readAllBytes());
        assertTrue(report.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, report.exitValue(), said);
    }

    /** Runs {@code gfxstats report ARGS} in {@code dir}, so relative names stay as given; it must succeed. */
    private static void reportIn(Path dir, String... args) throws Exception {
        String[] argv = new String[args.length + 1];
        argv[0] = "report";
        System.arraycopy(args, 0, argv, 1, args.length);
        Process report = JavaProcess.builder(Main.class, argv).directory(dir.toFile()).redirectErrorStream(true).start();
        String said = new String(report.getInputStream().readAllBytes());
        assertTrue(report.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, report.exitValue(), said);
    }

    private static byte[] dumpText(DaemonProcess daemon, String pkg) throws Exception {
        Process p = JavaProcess.builder(Main.class, "dump", "--socket", daemon.socket().toString(), "--package", pkg)
                .start();
        byte[] out = p.getInputStream().readAllBytes();
        assertEquals(0, p.waitFor());
        return out;
    }

    private static void assertNoErrors(Chromium.Page page) {
        assertTrue(page.dom().contains("data-charts=\"drawn\""), "the charts' script did not finish");
        assertFalse(page.dom().contains("data-errors="), "script errors: " + page.dom());
        assertEquals(List.of(), page.consoleLines());
    }

    /**
     * Every chart on the page painted each of its non-zero points in the plot (a coloured pixel
     * where the line, bar top or dot must be), and some coloured pixels at all; the charts named
     * have points to paint.
     */
    private static void assertPainted(int width, String dom, String... charts) {
        java.util.Map<String, java.util.Map<String, Long>> painted = new java.util.HashMap<>();
        Matcher m = CHART.matcher(dom);
        while (m.find()) {
            java.util.Map<String, Long> numbers = new java.util.HashMap<>();
            Matcher a = NUMBER.matcher(m.group());
            while (a.find()) {
                numbers.put(a.group(1), Long.parseLong(a.group(2)));
            }
            painted.put(m.group(1), numbers);
            String what = width + " px: " + m.group(1) + " " + numbers;
            assertTrue(numbers.containsKey("points"), what);
            assertEquals(numbers.get("points"), numbers.get("points-painted"), what + ": points not painted");
            // If only thin bars and the percentile lines.
            assertTrue(numbers.get("coloured-pixels") > 300, what);
        }
        for (String c : charts) {
            java.util.Map<String, Long> numbers = painted.get(c);
            assertTrue(numbers != null && numbers.get("points") > 0, width + " px: " + c + " has nothing to paint: " + numbers);
        }
    }

    private static java.util.Map<String, String> cells(String dom) {
        java.util.Map<String, String> out = new java.util.HashMap<>();
        Matcher m = CELL.matcher(dom);
        while (m.find()) {
            out.put(m.group(1), m.group(2).replace("&amp;", "&"));
        }
        return out;
    }

    private static String field(String text, String regex) {
        Matcher m = Pattern.compile(regex, Pattern.DOTALL).matcher(text);
        assertTrue(m.find(), regex + " not in\n" + text);
        return m.group(1);
    }
}
