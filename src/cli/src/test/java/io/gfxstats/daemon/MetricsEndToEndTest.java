package io.gfxstats.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.gfxstats.daemon.metrics.FrameMetrics;
import io.gfxstats.dayfile.StatsProtos;
import io.gfxstats.proto.GraphicsStatsProto;
import io.gfxstats.proto.GraphicsStatsServiceDumpProto;
import io.gfxstats.stats.Counters;
import io.gfxstats.stats.Histograms;
import io.gfxstats.stats.JankType;
import io.gfxstats.stats.ProfileData;
import io.gfxstats.store.Days;
import io.gfxstats.testing.Exposition;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Prometheus exposition of a real daemon process fed by real client processes: it equals the
 * dump with live frames included, and stays so (never going down) when clients exit, the day
 * rotates and the daemon restarts.
 */
class MetricsEndToEndTest {
    private static final String[] METRICS_ON = {"--set", "metrics.enabled=true", "--set", "metrics.port=0",
        "--set", "flush.interval=1h"};
    private static final List<JankType> CAUSES = List.of(JankType.MISSED_VSYNC, JankType.HIGH_INPUT_LATENCY,
            JankType.SLOW_UI_THREAD, JankType.SLOW_BITMAP_UPLOAD, JankType.SLOW_DRAW, JankType.MISSED_DEADLINE);

    @TempDir
    Path tmp;

    @Test
    void shouldEqualTheDumpWithLiveFramesAndStayMonotonicAcrossExitRotationAndRestart() throws Exception {
        try (DaemonProcess daemon = new DaemonProcess(tmp.resolve("s"), METRICS_ON).start()) {
            ClientProcess a = ClientProcess.start(daemon, "com.example.metrics", 3, 700, 700, 0, "wait-attach", "hang");
            a.await("recorded 700", 60);
            Exposition live = scrape(daemon);
            assertEquals(700, live.value("gfxstats_frames_total", "package=\"com.example.metrics\""));
            assertMatchesDump(daemon, live, "com.example.metrics");

            try (ClientProcess b = ClientProcess.start(daemon, "com.example.other", 1, 300, 300, 0, "wait-attach",
                    "exit")) {
                assertEquals(0, b.waitFor());
            }
            a.kill();
            awaitLiveBuffers(daemon, 0);
            Exposition saved = scrape(daemon);
            assertEquals(700, saved.value("gfxstats_frames_total", "package=\"com.example.metrics\""));
            assertEquals(300, saved.value("gfxstats_frames_total", "package=\"com.example.other\""));
            assertMatchesDump(daemon, saved, "com.example.metrics");
            assertMatchesDump(daemon, saved, "com.example.other");
            assertNotBelow(live, saved);

            long now = System.currentTimeMillis();
            long midnight = Days.nextDayStart(now);
            daemon.setClockOffset(midnight - now + 1_000);
            awaitDay(daemon, midnight);
            Exposition rotated = scrape(daemon);
            assertNotBelow(saved, rotated);
            try (ClientProcess c = ClientProcess.start(daemon, "com.example.metrics", 3, 140, 140, 0, "wait-attach",
                    "hang")) {
                c.await("recorded 140", 60);
                Exposition nextDay = scrape(daemon);
                assertEquals(840, nextDay.value("gfxstats_frames_total", "package=\"com.example.metrics\""));
                assertMatchesDump(daemon, nextDay, "com.example.metrics");
                assertNotBelow(rotated, nextDay);
            }
            awaitLiveBuffers(daemon, 0);
            Exposition health = scrape(daemon);
            assertTrue(health.value("gfxstats_daemon_saves_total", "result=\"ok\"") >= 3, health.text());
            assertEquals(1140, health.sum("gfxstats_daemon_saved_frames_total"), health.text());
            assertTrue(health.series().containsKey("gfxstats_daemon_live_buffers"), health.text());

            assertEquals(0, daemon.stop());
        }
        // A restarted daemon starts its counters from the day files: still the dump's numbers.
        try (DaemonProcess again = new DaemonProcess(tmp.resolve("s"), METRICS_ON).start()) {
            Exposition restarted = scrape(again);
            assertEquals(1140, restarted.sum("gfxstats_frames_total"), restarted.text());
            assertMatchesDump(again, restarted, "com.example.metrics");
            assertMatchesDump(again, restarted, "com.example.other");
        }
    }

    @Test
    void shouldExposeTheFrameTimelineCountersOfAClientThatRecordsThem() throws Exception {
        Path log = tmp.resolve("frames.jsonl");
        Files.write(log, TimelineClientEndToEndTest.frameLog(600));
        Path state = tmp.resolve("tl");
        try (DaemonProcess daemon = new DaemonProcess(state, METRICS_ON).start()) {
            Process client = io.gfxstats.testing.JavaProcess.builder(TimelineClient.class, daemon.socket().toString(),
                    "com.example.wayland", "3", log.toString())
                    .redirectError(ProcessBuilder.Redirect.appendTo(daemon.clientLog().toFile())).start();
            String out = new String(client.getInputStream().readAllBytes());
            assertTrue(client.waitFor(60, java.util.concurrent.TimeUnit.SECONDS));
            assertEquals(0, client.exitValue(), out + Files.readString(daemon.clientLog()));
            awaitLiveBuffers(daemon, 0);
            io.gfxstats.timeline.TimelineCounters saved = savedTimeline(daemon);
            assertEquals(600, saved.get(io.gfxstats.timeline.TimelineCounter.FRAMES));
            assertTimelineMatches(scrape(daemon), saved);
            assertEquals(0, daemon.stop());
        }
        // Seeded from the day file by a restarted daemon: the same counters.
        try (DaemonProcess again = new DaemonProcess(state, METRICS_ON).start()) {
            assertTimelineMatches(scrape(again), savedTimeline(again));
        }
    }

    @Test
    void shouldShowTheFramesAClientsFullRingDroppedInMetricsTopAndReportLiveSavedAndSeeded() throws Exception {
        Path state = tmp.resolve("drops");
        String label = "package=\"com.example.drops\"";
        try (DaemonProcess daemon = new DaemonProcess(state, METRICS_ON).start()) {
            Process client = io.gfxstats.testing.JavaProcess.builder(io.gfxstats.client.RingDropClient.class,
                    daemon.socket().toString(), "com.example.drops", "37")
                    .redirectError(ProcessBuilder.Redirect.appendTo(daemon.clientLog().toFile())).start();
            try {
                String line = new java.io.BufferedReader(new java.io.InputStreamReader(client.getInputStream()))
                        .readLine();
                assertTrue(line != null && line.startsWith("dropped 37 of "), line + Files.readString(daemon.clientLog()));
                long recorded = Long.parseLong(line.substring("dropped 37 of ".length()));
                Exposition live = scrape(daemon);
                assertEquals(37, live.value(FrameMetrics.RING_DROPPED + "_total", label), live.text());
                assertEquals(recorded - 37, live.value("gfxstats_frames_total", label), "the dropped frames are not frames");
                // top, the view users watch, shows them too: as LOST, apart from Matrix's DROPPED.
                String json = top(daemon, "--json");
                JsonObject pkg = JsonParser.parseString(json).getAsJsonObject().getAsJsonArray("packages")
                        .get(0).getAsJsonObject();
                assertEquals("com.example.drops", pkg.get("packageName").getAsString(), json);
                assertEquals(37, pkg.get("ringDroppedFrames").getAsLong(), json);
                List<String> screen = top(daemon).lines().toList();
                assertTrue(screen.get(1).endsWith(" LOST"), String.join("\n", screen));
                assertTrue(screen.stream().anyMatch(l -> l.startsWith("com.example.drops ") && l.endsWith(" 37")),
                        String.join("\n", screen));
                // The HTML report too; Android's proto dump stays without them.
                assertReportShowsLost(report(daemon), "com.example.drops", 37);
                GraphicsStatsProto dumped = GraphicsStatsServiceDumpProto.parseFrom(cli(daemon, "dump", "--proto"))
                        .getStats(0);
                assertTrue(!dumped.hasGfxstatsRingDroppedFrames() && dumped.getUnknownFields().asMap().isEmpty(),
                        dumped.toString());
            } finally {
                client.destroyForcibly();
                client.waitFor();
            }
            awaitLiveBuffers(daemon, 0);
            assertEquals(37, scrape(daemon).value(FrameMetrics.RING_DROPPED + "_total", label), "saved once");
            assertEquals(0, daemon.stop());
        }
        try (DaemonProcess again = new DaemonProcess(state, METRICS_ON).start()) {
            assertEquals(37, scrape(again).value(FrameMetrics.RING_DROPPED + "_total", label), "seeded from the day file");
            assertReportShowsLost(report(again), "com.example.drops", 37);
        }
    }

    /** {@code gfxstats top --once} against the daemon (after one short interval): what it printed. */
    private static String top(DaemonProcess daemon, String... extra) {
        List<String> args = new ArrayList<>(List.of("--once", "--interval", "0.2", "--no-color"));
        args.addAll(List.of(extra));
        return new String(cli(daemon, "top", args.toArray(String[]::new)), StandardCharsets.UTF_8);
    }

    /** {@code gfxstats report} of the daemon: the HTML file it wrote. */
    private String report(DaemonProcess daemon) throws Exception {
        Path html = tmp.resolve("report.html");
        cli(daemon, "report", "--out", html.toString());
        return Files.readString(html, StandardCharsets.UTF_8);
    }

    /** A command of the CLI, in-process, against the daemon's socket: what it printed (it must succeed). */
    private static byte[] cli(DaemonProcess daemon, String command, String... args) {
        List<String> all = new ArrayList<>(List.of(command, "--socket", daemon.socket().toString()));
        all.addAll(List.of(args));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = io.gfxstats.cli.Main.run(all.toArray(String[]::new), new PrintStream(out, true),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(0, exit, err.toString(StandardCharsets.UTF_8));
        return out.toByteArray();
    }

    /** The report's "By package" row of a package shows {@code lost} in its Lost column, explained. */
    private static void assertReportShowsLost(String html, String pkg, long lost) {
        assertTrue(html.contains("<th>99th</th><th>Lost</th></tr>") && html.contains("id=\"lost-note\""), html);
        assertTrue(html.lines().anyMatch(l -> l.startsWith("<tr><td>" + pkg + "</td>") && l.endsWith("<td>" + lost
                + "</td></tr>")), "a row of " + pkg + " ending in " + lost + ": " + html);
    }

    @Test
    void shouldExposeSceneCountersLiveSavedAndSeeded() throws Exception {
        Path state = tmp.resolve("sc");
        java.util.Map<String, long[]> expected = new java.util.TreeMap<>();
        for (long i = 0; i < 700; i++) {
            long d = FrameClient.duration(i);
            int dropped = io.gfxstats.matrix.MatrixRule.droppedFrames21(d,
                    io.gfxstats.matrix.MatrixRule.refreshHz(FrameClient.INTERVAL, 0f));
            long[] v = expected.computeIfAbsent(FrameClient.scene(i),
                    k -> new long[1 + io.gfxstats.buffer.SceneGroup.LEVELS]);
            v[0]++;
            v[1 + io.gfxstats.matrix.MatrixLevels.DEFAULT.level(dropped)]++;
        }
        try (DaemonProcess daemon = new DaemonProcess(state, METRICS_ON).start()) {
            ClientProcess c = ClientProcess.start(daemon, "com.example.scenes", 2, 700, 700, 0, "wait-attach", "hang",
                    "scenes");
            c.await("recorded 700", 60);
            assertScenes(scrape(daemon), expected); // live, unsaved
            c.kill();
            awaitLiveBuffers(daemon, 0);
            assertScenes(scrape(daemon), expected); // saved
            assertEquals(0, daemon.stop());
        }
        try (DaemonProcess again = new DaemonProcess(state, METRICS_ON).start()) {
            assertScenes(scrape(again), expected); // seeded from the day file
        }
    }

    private static void assertScenes(Exposition e, java.util.Map<String, long[]> expected) {
        String pkg = "package=\"com.example.scenes\"";
        long sum = 0;
        for (java.util.Map.Entry<String, long[]> s : expected.entrySet()) {
            String scene = "scene=\"" + s.getKey() + "\"";
            assertEquals(s.getValue()[0], e.value("gfxstats_scene_frames_total", pkg, scene), s.getKey() + e.text());
            for (int l = 0; l < io.gfxstats.buffer.SceneGroup.LEVELS; l++) {
                String level = "level=\"" + io.gfxstats.matrix.MatrixRule.levelName(l).toLowerCase(java.util.Locale.ROOT)
                        + "\"";
                assertEquals(s.getValue()[1 + l], e.value("gfxstats_scene_matrix_frames_total", pkg, scene, level),
                        s.getKey() + " " + level);
            }
            sum += s.getValue()[0];
        }
        assertEquals(sum, e.value("gfxstats_frames_total", pkg), "scenes add up to the frames");
    }

    private static io.gfxstats.timeline.TimelineCounters savedTimeline(DaemonProcess daemon) throws Exception {
        long today = Days.dayStart(System.currentTimeMillis());
        Path file = daemon.dataDir().resolve(Long.toString(today)).resolve("com.example.wayland").resolve("3")
                .resolve("total");
        return io.gfxstats.timeline.TimelineProtos.fromProto(io.gfxstats.dayfile.DayFileCodec.decode(
                Files.readAllBytes(file)).getGfxstatsFrameTimeline());
    }

    private static void assertTimelineMatches(Exposition e, io.gfxstats.timeline.TimelineCounters saved) {
        String label = "package=\"com.example.wayland\"";
        assertEquals(saved.get(io.gfxstats.timeline.TimelineCounter.FRAMES),
                e.value("gfxstats_frametimeline_frames_total", label), e.text());
        assertEquals(saved.get(io.gfxstats.timeline.TimelineCounter.JANKY_FRAMES),
                e.value("gfxstats_frametimeline_janky_frames_total", label));
        long jank = 0;
        for (io.gfxstats.timeline.TimelineCounter t : io.gfxstats.timeline.TimelineCounter.values()) {
            if (t.name().startsWith("JANK_")) {
                assertEquals(saved.get(t), e.value("gfxstats_frametimeline_jank_total", label,
                        "jank_type=\"" + FrameMetrics.jankTypeName(t) + "\""), t.name());
                jank += saved.get(t);
            }
        }
        assertTrue(jank > 0, "the log has janky frames");
    }

    @Test
    void shouldAnswerOnlyScrapersWithTheBearerTokenWhenOneIsConfigured() throws Exception {
        Path token = tmp.resolve("token");
        Files.writeString(token, "s3cret-token-for-metrics\n");
        Files.setPosixFilePermissions(token, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
        try (DaemonProcess daemon = new DaemonProcess(tmp.resolve("t"), "--set", "metrics.enabled=true",
                "--set", "metrics.port=0", "--set", "tcp.token.file=" + token).start()) {
            String url = "http://127.0.0.1:" + daemon.metricsPort() + "/metrics";
            assertEquals(401, Exposition.scrape(url, null).status());
            assertEquals(401, Exposition.scrape(url, "wrong").status());
            Exposition ok = Exposition.scrape(url, "s3cret-token-for-metrics");
            assertEquals(200, ok.status());
            assertTrue(ok.text().contains("gfxstats_daemon_live_buffers"), ok.text());
        }
    }

    @Test
    void shouldServeHttpsWithTheTcpCertificateWhenTlsIsConfigured() throws Exception {
        Path cert = tmp.resolve("cert.pem");
        Path key = tmp.resolve("key.pem");
        Process openssl = new ProcessBuilder("openssl", "req", "-x509", "-newkey", "ec",
                "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "2",
                "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
                "-keyout", key.toString(), "-out", cert.toString()).redirectErrorStream(true).start();
        String output = new String(openssl.getInputStream().readAllBytes());
        assertEquals(0, openssl.waitFor(), output);
        Path token = tmp.resolve("token");
        Files.writeString(token, "tls-metrics-token\n");
        Files.setPosixFilePermissions(token, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
        try (DaemonProcess daemon = new DaemonProcess(tmp.resolve("h"), "--set", "metrics.enabled=true",
                "--set", "metrics.host=0.0.0.0", "--set", "metrics.port=0", "--set", "tcp.tls.cert=" + cert,
                "--set", "tcp.tls.key=" + key, "--set", "tcp.token.file=" + token).start()) {
            assertTrue(daemon.logText().contains("metrics: https://0.0.0.0:"), daemon.logText());
            java.security.KeyStore trust = java.security.KeyStore.getInstance("PKCS12");
            trust.load(null, null);
            try (var in = Files.newInputStream(cert)) {
                trust.setCertificateEntry("gfxstatsd",
                        java.security.cert.CertificateFactory.getInstance("X.509").generateCertificate(in));
            }
            javax.net.ssl.TrustManagerFactory tmf = javax.net.ssl.TrustManagerFactory.getInstance("PKIX");
            tmf.init(trust);
            javax.net.ssl.SSLContext ssl = javax.net.ssl.SSLContext.getInstance("TLS");
            ssl.init(null, tmf.getTrustManagers(), null);
            java.net.http.HttpClient client = java.net.http.HttpClient.newBuilder().sslContext(ssl).build();
            String url = "https://127.0.0.1:" + daemon.metricsPort() + "/metrics";
            assertEquals(401, Exposition.scrape(client, url, null).status());
            assertEquals(200, Exposition.scrape(client, url, "tls-metrics-token").status());
            // plain HTTP gets no exposition from a TLS listener
            assertThrows(java.io.IOException.class, () -> Exposition.scrape(
                    "http://127.0.0.1:" + daemon.metricsPort() + "/metrics", "tls-metrics-token"));
        }
    }

    @Test
    void shouldExplainHighInputLatencyCountTheSeriesOfAPackageAndExposeTheDaemonsProcess() throws Exception {
        try (DaemonProcess daemon = new DaemonProcess(tmp.resolve("n"), METRICS_ON).start()) {
            ClientProcess c = ClientProcess.start(daemon, "com.example.count", 2, 700, 700, 0, "wait-attach", "hang");
            c.await("recorded 700", 60);
            Exposition e = scrape(daemon);
            List<String> help = e.text().lines().filter(l -> l.startsWith("# HELP gfxstats_jank_cause")).toList();
            assertEquals(List.of("# HELP gfxstats_jank_cause_total Android's jank counters: missed_vsync, "
                    + "slow_ui_thread, slow_bitmap_uploads, slow_issue_draw_commands and frame_deadline_missed count "
                    + "janky frames (a frame can have several); high_input_latency counts frames that made their "
                    + "deadline only thanks to triple buffering, up to twice a frame by Android's rule, so it can "
                    + "exceed gfxstats_frames_total"), help);
            // docs/operations.md: 163 series per (package, version, uid), 27 more with GPU times, 7 per
            // scene (every session has "default"); this client records GPU times and no other scene.
            String label = "package=\"com.example.count\"";
            long series = e.series().keySet().stream().filter(k -> k.contains(label)).count();
            assertTrue(e.series().keySet().stream()
                    .anyMatch(k -> k.startsWith("gfxstats_gpu_duration_seconds") && k.contains(label)), e.text());
            assertTrue(e.value("gfxstats_scene_frames_total", label, "scene=\"default\"") > 0, e.text());
            assertEquals(163 + 27 + 7, series, e.text());
            for (String own : List.of("process_cpu_seconds_total", "process_resident_memory_bytes",
                    "process_open_fds", "jvm_memory_used_bytes", "jvm_threads_current")) {
                assertTrue(e.series().keySet().stream().anyMatch(k -> k.equals(own) || k.startsWith(own + "{")),
                        "the daemon's own " + own + ":\n" + e.text());
            }
            c.kill();
        }
    }

    @Test
    void shouldServeNoMetricsByDefault() throws Exception {
        try (DaemonProcess daemon = new DaemonProcess(tmp.resolve("d")).start()) {
            assertTrue(!daemon.logText().contains("metrics: http"), daemon.logText());
        }
    }

    static Exposition scrape(DaemonProcess daemon) throws Exception {
        Exposition e = Exposition.scrape("http://127.0.0.1:" + daemon.metricsPort() + "/metrics", null);
        assertEquals(200, e.status(), e.text());
        return e;
    }

    /** Every counter and cumulative bucket of one package equals the dump's sum over its days. */
    static void assertMatchesDump(DaemonProcess daemon, Exposition e, String pkg) throws Exception {
        ProfileData dump = new ProfileData();
        for (GraphicsStatsProto p : daemon.dumpProto().getStatsList()) {
            if (p.getPackageName().equals(pkg)) {
                dump.merge(StatsProtos.toProfileData(p));
            }
        }
        String label = "package=\"" + pkg + "\"";
        assertEquals(dump.totalFrames(), e.value("gfxstats_frames_total", label), pkg);
        assertEquals(dump.jankyFrames(), e.value("gfxstats_janky_frames_total", label), pkg);
        for (JankType t : CAUSES) {
            assertEquals(dump.jankCount(t), e.value("gfxstats_jank_cause_total", label,
                    "cause=\"" + FrameMetrics.causeName(t) + "\""), pkg + " " + t);
        }
        assertEquals(cumulative(dump, Counters.CPU_BUCKET_BASE, Histograms.CPU_BUCKETS),
                buckets(e, "gfxstats_frame_duration_seconds_bucket", label));
        assertEquals(dump.totalFrames(), e.value("gfxstats_frame_duration_seconds_count", label), pkg);
        List<Long> gpu = cumulative(dump, Counters.GPU_BUCKET_BASE, Histograms.GPU_BUCKETS);
        if (gpu.get(gpu.size() - 1) > 0) {
            assertEquals(gpu, buckets(e, "gfxstats_gpu_duration_seconds_bucket", label));
        }
    }

    private static List<Long> cumulative(ProfileData d, int base, int n) {
        List<Long> out = new ArrayList<>();
        long sum = 0;
        for (int i = 0; i < n; i++) {
            sum += d.get(base + i);
            out.add(sum);
        }
        return out;
    }

    /** The cumulative bucket counts of one series, by ascending le. */
    private static List<Long> buckets(Exposition e, String name, String label) {
        TreeMap<Double, Long> byLe = new TreeMap<>();
        for (Map.Entry<String, Double> s : e.series().entrySet()) {
            String k = s.getKey();
            if (k.startsWith(name + "{") && k.contains(label)) {
                String le = k.replaceAll(".*le=\"([^\"]*)\".*", "$1");
                byLe.put(le.equals("+Inf") ? Double.POSITIVE_INFINITY : Double.parseDouble(le), s.getValue().longValue());
            }
        }
        return new ArrayList<>(byLe.values());
    }

    private static void assertNotBelow(Exposition before, Exposition after) {
        for (Map.Entry<String, Double> s : before.series().entrySet()) {
            if (!s.getKey().startsWith("gfxstats_") || s.getKey().startsWith("gfxstats_daemon_live_buffers")
                    || s.getKey().startsWith("gfxstats_daemon_last_save")) {
                continue; // gauges, and the daemon's own JVM and process metrics, which belong to one process
            }
            Double now = after.series().get(s.getKey());
            assertTrue(now != null && now >= s.getValue(), s.getKey() + " went from " + s.getValue() + " to " + now);
        }
    }

    private static void awaitLiveBuffers(DaemonProcess daemon, int n) throws Exception {
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (daemon.health().getLiveBuffers() != n) {
            assertTrue(System.nanoTime() < deadline, "live buffers stayed at " + daemon.health().getLiveBuffers());
            Thread.sleep(50);
        }
    }

    private static void awaitDay(DaemonProcess daemon, long dayStart) throws Exception {
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (daemon.health().getCurrentDayStart() != dayStart) {
            assertTrue(System.nanoTime() < deadline, "the daemon did not rotate");
            Thread.sleep(50);
        }
    }
}
