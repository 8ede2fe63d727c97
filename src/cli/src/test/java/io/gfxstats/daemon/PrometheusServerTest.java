package io.gfxstats.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gfxstats.cli.Main;
import io.gfxstats.stats.BucketBounds;
import io.gfxstats.dayfile.StatsProtos;
import io.gfxstats.proto.GraphicsStatsProto;
import io.gfxstats.stats.Histograms;
import io.gfxstats.stats.ProfileData;
import io.gfxstats.testing.ExternalTool;
import io.gfxstats.testing.JavaProcess;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real Prometheus server (Debian's, installed by scripts/ci-deps) scraping a
 * real daemon fed by {@code gfxstats synth}: PromQL through its HTTP API gives the dump's total
 * frames and a 90th percentile in the bucket of the dump's.
 */
class PrometheusServerTest {
    private static final String PKG = "com.example.prom";
    private static final Pattern VALUE = Pattern.compile("\"value\":\\[[0-9.e+]+,\"([^\"]+)\"\\]");

    @TempDir
    Path tmp;

    @Test
    void shouldAnswerPromQlWithTheDumpsNumbers() throws Exception {
        Path prometheus = ExternalTool.require("prometheus", "prometheus");
        try (DaemonProcess daemon = new DaemonProcess(tmp.resolve("s"), "--set", "metrics.enabled=true",
                "--set", "metrics.port=0").start()) {
            Process synth = JavaProcess.builder(Main.class, "synth", "--socket", daemon.socket().toString(),
                    "--package", PKG, "--version-code", "7", "--seconds", "3", "--fps", "120", "--seed", "11")
                    .redirectErrorStream(true).redirectOutput(daemon.clientLog().toFile()).start();
            assertTrue(synth.waitFor(90, TimeUnit.SECONDS), "synth did not finish");
            assertEquals(0, synth.exitValue(), Files.readString(daemon.clientLog()));

            ProfileData dump = new ProfileData();
            for (GraphicsStatsProto p : daemon.dumpProto().getStatsList()) {
                dump.merge(StatsProtos.toProfileData(p));
            }
            assertTrue(dump.totalFrames() > 200, "synth recorded " + dump.totalFrames());

            int webPort = freePort();
            Path config = tmp.resolve("prometheus.yml");
            Files.writeString(config, """
                    global:
                      scrape_interval: 1s
                      scrape_timeout: 1s
                    scrape_configs:
                      - job_name: gfxstats
                        static_configs:
                          - targets: ['127.0.0.1:%d']
                    """.formatted(daemon.metricsPort()));
            Process server = new ProcessBuilder(prometheus.toString(), "--config.file=" + config,
                    "--storage.tsdb.path=" + tmp.resolve("tsdb"), "--web.listen-address=127.0.0.1:" + webPort)
                    .redirectErrorStream(true).redirectOutput(tmp.resolve("prometheus.log").toFile()).start();
            try {
                String api = "http://127.0.0.1:" + webPort;
                awaitScrapes(api, server, 2);
                assertEquals(dump.totalFrames(), Math.round(query(api, "sum(gfxstats_frames_total)")));
                assertEquals(dump.jankyFrames(), Math.round(query(api, "sum(gfxstats_janky_frames_total)")));

                int p90 = dump.cpuPercentile(90);
                int bucket = labelIndex(p90);
                double q = query(api,
                        "histogram_quantile(0.9, sum by (le) (gfxstats_frame_duration_seconds_bucket))");
                // Android names the bucket holding the frame just past 90 %; Prometheus interpolates
                // inside the bucket where the cumulative count reaches 90 %: the same bucket, or its
                // lower edge when 90 % falls exactly on it.
                assertTrue(q >= BucketBounds.cpuLower(bucket) && q <= BucketBounds.cpu()[bucket],
                        "p90 " + q + " s outside the dump's " + p90 + " ms bucket [" + BucketBounds.cpuLower(bucket)
                                + ", " + BucketBounds.cpu()[bucket] + "]");
            } finally {
                server.destroy();
                if (!server.waitFor(20, TimeUnit.SECONDS)) {
                    server.destroyForcibly().waitFor();
                }
            }
        }
    }

    /**
     * config/grafana/gfxstats-dashboard.json: every query of every panel, with the dashboard's
     * variables at "All", answers with data from a real Prometheus scraping a real daemon that a
     * synth feeds (one synth has exited, so a save happened; another renders meanwhile).
     */
    @Test
    void shouldReturnDataForEveryQueryOfTheGrafanaDashboard() throws Exception {
        Path prometheus = ExternalTool.require("prometheus", "prometheus");
        com.google.gson.JsonObject dashboard = com.google.gson.JsonParser.parseString(Files.readString(
                Path.of("config", "grafana", "gfxstats-dashboard.json"))).getAsJsonObject();
        List<String[]> queries = new ArrayList<>();
        for (com.google.gson.JsonElement p : dashboard.getAsJsonArray("panels")) {
            for (com.google.gson.JsonElement t : p.getAsJsonObject().getAsJsonArray("targets")) {
                queries.add(new String[] {p.getAsJsonObject().get("title").getAsString(),
                        t.getAsJsonObject().get("expr").getAsString()});
            }
        }
        assertTrue(queries.size() >= 12, "panels: " + queries.size());
        try (DaemonProcess daemon = new DaemonProcess(tmp.resolve("g"), "--set", "metrics.enabled=true",
                "--set", "metrics.port=0").start()) {
            Process first = JavaProcess.builder(Main.class, "synth", "--socket", daemon.socket().toString(),
                    "--package", PKG, "--version-code", "7", "--seconds", "2", "--seed", "3")
                    .redirectErrorStream(true).redirectOutput(daemon.clientLog().toFile()).start();
            assertTrue(first.waitFor(90, TimeUnit.SECONDS), "synth did not finish");
            Process running = JavaProcess.builder(Main.class, "synth", "--socket", daemon.socket().toString(),
                    "--package", "com.example.running", "--version-code", "2", "--seconds", "120",
                    "--jank-profile", "janky", "--seed", "4")
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(
                            daemon.clientLog().toFile())).start();
            Process server = null;
            try {
                int webPort = freePort();
                Path config = tmp.resolve("prometheus.yml");
                Files.writeString(config, """
                        global:
                          scrape_interval: 1s
                          scrape_timeout: 1s
                        scrape_configs:
                          - job_name: gfxstats
                            static_configs:
                              - targets: ['127.0.0.1:%d']
                        """.formatted(daemon.metricsPort()));
                server = new ProcessBuilder(prometheus.toString(), "--config.file=" + config,
                        "--storage.tsdb.path=" + tmp.resolve("tsdb-g"), "--web.listen-address=127.0.0.1:" + webPort)
                        .redirectErrorStream(true).redirectOutput(tmp.resolve("prometheus.log").toFile()).start();
                String api = "http://127.0.0.1:" + webPort;
                awaitScrapes(api, server, 4);
                for (String[] q : queries) {
                    // Grafana's variables: every package and job, a rate window of several scrapes.
                    String expr = q[1].replace("$__rate_interval", "20s").replace("$package", ".+")
                            .replace("$job", ".+");
                    String body = get(api, expr);
                    assertTrue(body.contains("\"status\":\"success\"") && body.contains("\"value\":["),
                            q[0] + ": " + expr + " returned no data: " + body);
                }
            } finally {
                running.destroy();
                running.waitFor(20, TimeUnit.SECONDS);
                running.destroyForcibly().waitFor();
                if (server != null) {
                    server.destroy();
                    if (!server.waitFor(20, TimeUnit.SECONDS)) {
                        server.destroyForcibly().waitFor();
                    }
                }
            }
        }
    }

    private static String get(String api, String promql) throws IOException, InterruptedException {
        HttpRequest r = HttpRequest.newBuilder(URI.create(api + "/api/v1/query?query="
                + URLEncoder.encode(promql, StandardCharsets.UTF_8))).timeout(Duration.ofSeconds(10)).build();
        return HttpClient.newHttpClient().send(r, HttpResponse.BodyHandlers.ofString()).body();
    }

    private static int labelIndex(int label) {
        for (int i = 0; i < Histograms.CPU_BUCKETS; i++) {
            if (Histograms.cpuLabel(i) == label) {
                return i;
            }
        }
        throw new AssertionError("no bucket labelled " + label);
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    private void awaitScrapes(String api, Process server, int scrapes) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (true) {
            assertTrue(server.isAlive(), "prometheus exited:\n" + Files.readString(tmp.resolve("prometheus.log")));
            try {
                if (query(api, "count_over_time(up{job=\"gfxstats\"}[10m]) and up{job=\"gfxstats\"} == 1")
                        >= scrapes) {
                    return;
                }
            } catch (IOException | AssertionError e) {
                // not ready yet
            }
            assertTrue(System.nanoTime() < deadline, "prometheus scraped fewer than " + scrapes + " times:\n"
                    + Files.readString(tmp.resolve("prometheus.log")));
            Thread.sleep(250);
        }
    }

    /** One instant query's single value. */
    private static double query(String api, String promql) throws IOException, InterruptedException {
        HttpRequest r = HttpRequest.newBuilder(URI.create(api + "/api/v1/query?query="
                + URLEncoder.encode(promql, StandardCharsets.UTF_8))).timeout(Duration.ofSeconds(10)).build();
        String body = HttpClient.newHttpClient().send(r, HttpResponse.BodyHandlers.ofString()).body();
        Matcher m = VALUE.matcher(body);
        if (!body.contains("\"status\":\"success\"") || !m.find()) {
            throw new AssertionError(promql + ": " + body);
        }
        String v = m.group(1);
        assertTrue(!m.find(), promql + " gave several values: " + body);
        return Double.parseDouble(v);
    }
}
