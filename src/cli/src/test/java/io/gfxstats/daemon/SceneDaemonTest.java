package io.gfxstats.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gfxstats.buffer.SceneGroup;
import io.gfxstats.matrix.MatrixLevels;
import io.gfxstats.matrix.MatrixRule;
import io.gfxstats.proto.GfxstatsSceneStats;
import io.gfxstats.rpc.GfxStatsClient;
import io.gfxstats.rpc.v1.LivePackage;
import io.gfxstats.rpc.v1.LiveSnapshot;
import io.gfxstats.rpc.v1.PullRequest;
import io.gfxstats.rpc.v1.SceneEntry;
import io.gfxstats.rpc.v1.ScenesRequest;
import io.gfxstats.rpc.v1.ScenesResponse;
import io.gfxstats.rpc.v1.WatchRequest;
import io.gfxstats.testing.Await;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Scenes through real client processes and a real daemon that is SIGKILLed while they record:
 * frames straddling a scene switch go by intended vsync, per-scene sums equal the package's
 * frames, nothing is lost or doubled; Scenes, Watch and pull carry them.
 */
class SceneDaemonTest {
    private static final String PKG = "com.example.scenes";
    private Path state;
    private DaemonProcess daemon;

    @BeforeEach
    void setUp() throws Exception {
        state = Files.createTempDirectory(Path.of("/tmp"), "gfxs");
    }

    @AfterEach
    void tearDown() throws Exception {
        if (daemon != null) {
            daemon.close();
        }
        TestFiles.deleteTree(state);
    }

    private DaemonProcess newDaemon() {
        return new DaemonProcess(state, "--set", "flush.interval=150ms", "--set", "heartbeat.timeout=3s");
    }

    /** What FrameClient records with "scenes", per scene: frames and Matrix level counts. */
    private static Map<String, long[]> expected(long frames, int clients) {
        Map<String, long[]> m = new TreeMap<>();
        for (long i = 0; i < frames; i++) {
            long d = FrameClient.duration(i);
            int dropped = MatrixRule.droppedFrames21(d, MatrixRule.refreshHz(FrameClient.INTERVAL, 0f));
            long[] v = m.computeIfAbsent(FrameClient.scene(i), k -> new long[1 + SceneGroup.LEVELS]);
            v[0] += clients;
            v[1 + MatrixLevels.DEFAULT.level(dropped)] += clients;
        }
        return m;
    }

    @Test
    void shouldCountScenesExactlyOnceAcrossDaemonKillsAndServeThemByRpcAndPull() throws Exception {
        daemon = newDaemon();
        daemon.start();
        long perClient = 3_000;
        int batch = 300;
        List<ClientProcess> clients = new ArrayList<>();
        List<LiveSnapshot> watched = new ArrayList<>();
        try {
            for (int i = 0; i < 2; i++) {
                clients.add(ClientProcess.start(daemon, PKG, 4, perClient, batch, 0, "wait-attach", "stdin", "scenes"));
            }
            // Steps instead of timing: each client records a batch, then waits for a line. The
            // daemon is SIGKILLed right after the clients are let go, so kills overlap recording
            // and saves, and between kills every client has recorded more.
            for (int step = 1; step * batch <= perClient; step++) {
                for (ClientProcess c : clients) {
                    c.await("recorded " + step * batch, 120);
                }
                if (step == 1) {
                    try (GfxStatsClient client = GfxStatsClient.unix(daemon.socket())) {
                        client.watch(WatchRequest.newBuilder().setIntervalMs(200).setPackageName(PKG).build(),
                                Duration.ofSeconds(60), s -> {
                                    watched.add(s);
                                    return watched.size() < 3;
                                });
                    }
                }
                if (step * batch == perClient) {
                    break;
                }
                for (ClientProcess c : clients) {
                    c.proceed();
                }
                if (step % 2 == 0) {
                    daemon.kill();
                    daemon = newDaemon();
                    daemon.start();
                }
            }
            for (ClientProcess c : clients) {
                assertEquals(0, c.waitFor(), "client exit code");
            }
        } finally {
            for (ClientProcess c : clients) {
                c.close();
            }
        }
        assertEquals(3, watched.size());
        for (int i = 1; i < watched.size(); i++) {
            assertTrue(watched.get(i).getMonotonicNanos() - watched.get(i - 1).getMonotonicNanos() >= 150_000_000L,
                    "snapshots about 200 ms apart");
        }
        LivePackage live = watched.get(2).getPackages(0);
        long liveSceneFrames = live.getScenesList().stream().mapToLong(e -> e.getStats().getTotalFrames()).sum();
        assertEquals(2L * batch, live.getTotalFrames(), "the live buffers hold what the clients recorded");
        assertEquals(live.getTotalFrames(), liveSceneFrames, "live scenes add up to the live frames");

        awaitNoLiveBuffers();
        Map<String, long[]> expected = expected(perClient, 2);
        try (GfxStatsClient client = GfxStatsClient.unix(daemon.socket())) {
            ScenesResponse scenes = client.scenes(ScenesRequest.newBuilder().setPackageName(PKG).build());
            Map<String, long[]> got = new TreeMap<>();
            long sum = 0;
            for (SceneEntry e : scenes.getEntriesList()) {
                GfxstatsSceneStats s = e.getStats();
                long[] v = got.computeIfAbsent(s.getScene(), k -> new long[1 + SceneGroup.LEVELS]);
                v[0] += s.getTotalFrames();
                for (int l = 0; l < SceneGroup.LEVELS; l++) {
                    v[1 + l] += s.getLevelCounts(l);
                }
                sum += s.getTotalFrames();
                assertTrue(e.getMatrixFps() > 0 && e.getMatrixFps() <= 60.0001, "Matrix fps " + e.getMatrixFps());
            }
            assertEquals(expected.keySet(), got.keySet(), daemon.logText());
            for (String scene : expected.keySet()) {
                assertEquals(java.util.Arrays.toString(expected.get(scene)), java.util.Arrays.toString(got.get(scene)),
                        "scene " + scene + ": frames and Matrix levels, exactly once\n" + daemon.logText());
            }
            assertEquals(2 * perClient, sum);
            assertEquals(daemon.totalFrames(PKG), sum, "the scenes add up to the package's frames");
            long pulled = client.pull(PullRequest.newBuilder().build()).getScenesList().stream()
                    .filter(e -> e.getPackageName().equals(PKG)).mapToLong(e -> e.getStats().getTotalFrames()).sum();
            assertTrue(pulled <= sum && pulled > 0, "pull carries today's scenes");
        }
    }

    @Test
    void shouldKeepEverySceneCountOfAClientKilledWithSigkill() throws Exception {
        daemon = newDaemon();
        daemon.start();
        long frames = 1_250;
        try (ClientProcess c = ClientProcess.start(daemon, PKG, 5, frames, 250, 0, "wait-attach", "hang", "scenes")) {
            c.await("recorded " + frames, 60);
            c.kill(); // SIGKILL: no close, no flush; the counts are in its mapped buffer
        }
        awaitNoLiveBuffers();
        Map<String, long[]> expected = expected(frames, 1);
        try (GfxStatsClient client = GfxStatsClient.unix(daemon.socket())) {
            Map<String, Long> got = new TreeMap<>();
            for (SceneEntry e : client.scenes(ScenesRequest.newBuilder().setPackageName(PKG).build()).getEntriesList()) {
                if (e.getVersionCode() == 5) {
                    got.merge(e.getStats().getScene(), e.getStats().getTotalFrames(), Long::sum);
                }
            }
            Map<String, Long> want = new TreeMap<>();
            expected.forEach((k, v) -> want.put(k, v[0]));
            assertEquals(want, got, daemon.logText());
        }
    }

    @Test
    void shouldShowFpsAndLevelsPerSceneInTopOnceJsonForARunningClient() throws Exception {
        daemon = newDaemon();
        daemon.start();
        try (ClientProcess c = ClientProcess.start(daemon, PKG, 4, 1_000_000, 20, 20, "wait-attach", "exit", "scenes")) {
            c.await("recorded 200", 60);
            Process top = io.gfxstats.testing.JavaProcess.builder(io.gfxstats.cli.Main.class, "top", "--socket",
                    daemon.socket().toString(), "--once", "--json", "--interval", "0.5").start();
            String out = new String(top.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            String err = new String(top.getErrorStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            assertEquals(0, top.waitFor(), err);
            assertTrue(out.contains("\"packageName\":\"" + PKG + "\""), out);
            assertTrue(out.matches("(?s).*\"scene\":\"(menu|level-1|level-2|default)\".*"), out);
            java.util.regex.Matcher fps = java.util.regex.Pattern.compile("\"fps\":([0-9.]+)").matcher(out);
            assertTrue(fps.find() && Double.parseDouble(fps.group(1)) > 0, "throughput FPS of a running client: " + out);
            assertTrue(out.matches("(?s).*\"levelCounts\":\\[\\d+,\\d+,\\d+,\\d+,\\d+\\].*"), "Matrix's five levels: " + out);
        }
    }

    private void awaitNoLiveBuffers() throws Exception {
        Await.until(() -> daemon.health().getLiveBuffers() == 0, Duration.ofSeconds(60),
                () -> "buffers still live\n" + daemon.logText());
    }
}
