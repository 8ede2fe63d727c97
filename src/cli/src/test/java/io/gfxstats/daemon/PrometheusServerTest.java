package io.gfxstats.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gfxstats.cli.Main;
import io.gfxstats.stats.BucketBounds;
import io.gfxstats.dayfile.StatsProtos;
import io.gfxstats.proto.GraphicsStatsProto;
import io.gfxstats.stats.Histograms;
import io.gfxstats.stats.ProfileData;
import io.gfxstats.testing.Await;
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
            Process synth = synth(daemon, PKG, "7", "--seconds", "3", "--fps", "120", "--seed", "11");
            assertTrue(synth.waitFor(90, TimeUnit.SECONDS), "synth did not finish");
            assertEquals(0, synth.exitValue(), Files.readString(daemon.clientLog()));

            ProfileData dump = new ProfileData();
            for (GraphicsStatsProto p : daemon.dumpProto().getStatsList()) {
                dump.merge(StatsProtos.toProfileData(p));
            }
            assertTrue(dump.totalFrames() > 200, "synth recorded " + dump.totalFrames());

            try (Prometheus server = Prometheus.start(prometheus, daemon, tmp)) {
                server.awaitScrapes(2);
                assertEquals(dump.totalFrames(), Math.round(server.query("sum(gfxstats_frames_total)")));
                assertEquals(dump.jankyFrames(), Math.round(server.query("sum(gfxstats_janky_frames_total)")));

                int p90 = dump.cpuPercentile(90);
                int bucket = labelIndex(p90);
                double q = server.query(
                        "histogram_quantile(0.9, sum by (le) (gfxstats_frame_duration_seconds_bucket))");
                // Android names the bucket holding the frame just past 90 %; Prometheus interpolates
                // inside the bucket where the cumulative count reaches 90 %: the same bucket, or its
                // lower edge when 90 % falls exactly on it.
                assertTrue(q >= BucketBounds.cpuLower(bucket) && q <= BucketBounds.cpu()[bucket],
                        "p90 " + q + " s outside the dump's " + p90 + " ms bucket [" + BucketBounds.cpuLower(bucket)
                                + ", " + BucketBounds.cpu()[bucket] + "]");
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
            Process first = synth(daemon, PKG, "7", "--seconds", "2", "--seed", "3");
            assertTrue(first.waitFor(90, TimeUnit.SECONDS), "synth did not finish");
            Process running = synth(daemon, "com.example.running", "2", "--seconds", "120",
                    "--jank-profile", "janky", "--seed", "4");
            try (Prometheus server = Prometheus.start(prometheus, daemon, tmp)) {
                server.awaitScrapes(4);
                for (String[] q : queries) {
                    // Grafana's variables: every package and job, a rate window of several scrapes.
                    String expr = q[1].replace("$__rate_interval", "20s").replace("$package", ".+")
                            .replace("$job", ".+");
                    String body = server.get(expr);
                    assertTrue(body.contains("\"status\":\"success\"") && body.contains("\"value\":["),
                            q[0] + ": " + expr + " returned no data: " + body);
                }
            } finally {
                running.destroy();
                running.waitFor(20, TimeUnit.SECONDS);
                running.destroyForcibly().waitFor();
            }
        }
    }

    /** A synth for {@code pkg} feeding the daemon, its output appended to the daemon's client log. */
    private static Process synth(DaemonProcess daemon, String pkg, String versionCode, String... more)
            throws IOException {
        List<String> args = new ArrayList<>(List.of("synth", "--socket", daemon.socket().toString(),
                "--package", pkg, "--version-code", versionCode));
        args.addAll(List.of(more));
        return JavaProcess.builder(Main.class, args.toArray(String[]::new)).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(daemon.clientLog().toFile())).start();
    }

    /** A Prometheus server scraping the daemon's metrics every second; closing stops it. */
    private record Prometheus(Process process, String api, Path log) implements AutoCloseable {
        static Prometheus start(Path binary, DaemonProcess daemon, Path tmp) throws IOException {
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
            Path log = tmp.resolve("prometheus.log");
            Process p = new ProcessBuilder(binary.toString(), "--config.file=" + config,
                    "--storage.tsdb.path=" + tmp.resolve("tsdb"), "--web.listen-address=127.0.0.1:" + webPort)
                    .redirectErrorStream(true).redirectOutput(log.toFile()).start();
            return new Prometheus(p, "http://127.0.0.1:" + webPort, log);
        }

        /** Returns once the daemon has been scraped up {@code scrapes} times. */
        void awaitScrapes(int scrapes) throws Exception {
            Await.until(() -> {
                assertTrue(process.isAlive(), "prometheus exited:\n" + Files.readString(log));
                try {
                    return query("count_over_time(up{job=\"gfxstats\"}[10m]) and up{job=\"gfxstats\"} == 1")
                            >= scrapes;
                } catch (IOException | AssertionError e) {
                    return false; // not ready yet
                }
            }, Duration.ofSeconds(90), () -> "prometheus scraped fewer than " + scrapes + " times:\n"
                    + Files.readString(log));
        }

        /** One instant query's response body. */
        String get(String promql) throws IOException, InterruptedException {
            HttpRequest r = HttpRequest.newBuilder(URI.create(api + "/api/v1/query?query="
                    + URLEncoder.encode(promql, StandardCharsets.UTF_8))).timeout(Duration.ofSeconds(10)).build();
            return HttpClient.newHttpClient().send(r, HttpResponse.BodyHandlers.ofString()).body();
        }

        /** One instant query's single value. */
        double query(String promql) throws IOException, InterruptedException {
            String body = get(promql);
            Matcher m = VALUE.matcher(body);
            if (!body.contains("\"status\":\"success\"") || !m.find()) {
                throw new AssertionError(promql + ": " + body);
            }
            String v = m.group(1);
            assertTrue(!m.find(), promql + " gave several values: " + body);
            return Double.parseDouble(v);
        }

        @Override
        public void close() {
            process.destroy();
            try {
                if (!process.waitFor(20, TimeUnit.SECONDS)) {
                    process.destroyForcibly().waitFor();
                }
            } catch (InterruptedException e) {
                process.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
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
}
