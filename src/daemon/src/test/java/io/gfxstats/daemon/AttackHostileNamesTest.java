package io.gfxstats.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gfxstats.rpc.GfxStatsClient;
import io.gfxstats.rpc.v1.SceneEntry;
import io.gfxstats.rpc.v1.ScenesRequest;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 26, item 3: a real client process that writes its own mapped buffer (as a client not
 * using our library can) names its scenes with escape sequences and a newline forging a log
 * line. The daemon must read them as unnamed with one log line naming the pid and package and
 * what it refused, escaped; the package's counts stay exact and the scenes answer and the
 * Prometheus exposition carry none of the hostile bytes.
 */
class AttackHostileNamesTest {
    private static final String PKG = "com.example.hostile";
    private static final long FRAMES = 700; // scene blocks default, level-1, level-2, menu, level-1, level-2, menu

    private Path state;
    private DaemonProcess daemon;

    @BeforeEach
    void setUp() throws Exception {
        state = Files.createTempDirectory(Path.of("/tmp"), "gfxs");
        daemon = new DaemonProcess(state, "--set", "metrics.enabled=true", "--set", "metrics.port=0").start();
    }

    @AfterEach
    void tearDown() throws Exception {
        daemon.close();
        TestFiles.deleteTree(state);
    }

    @Test
    void shouldReadHostileSceneNamesAsUnnamedWithOneEscapedLogLineAndKeepTheCounts() throws Exception {
        try (ClientProcess c = ClientProcess.start(daemon, PKG, 1, FRAMES, (int) FRAMES, 0, "wait-attach", "hang",
                "scenes", "hostile")) {
            c.await("hostile", 60);
            String marker = "buffer of pid " + c.pid() + " (" + PKG + "): refused";
            // Every read of the buffer applies the rules; the first logs.
            for (int i = 0; i < 5; i++) {
                assertEquals(FRAMES, daemon.totalFrames(PKG), "the buffer's counts stay exact");
            }
            assertTrue(daemon.logText().contains(marker), daemon.logText());

            List<SceneEntry> scenes;
            try (GfxStatsClient client = GfxStatsClient.unix(daemon.socket())) {
                scenes = client.scenes(ScenesRequest.newBuilder().setPackageName(PKG).build()).getEntriesList();
            }
            Set<String> names = scenes.stream().map(e -> e.getStats().getScene()).collect(Collectors.toSet());
            assertTrue(names.contains("default"), names.toString());
            for (String hostile : FrameClient.HOSTILE.values()) {
                assertFalse(names.contains(hostile), names.toString());
            }
            for (String n : names) {
                assertTrue(n.chars().noneMatch(Character::isISOControl), "a control character in scene '" + n + "'");
            }

            String metrics = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                            URI.create("http://127.0.0.1:" + daemon.metricsPort() + "/metrics")).build(),
                    HttpResponse.BodyHandlers.ofString()).body();
            assertTrue(metrics.contains(PKG), "the package is still exposed");
            assertTrue(metrics.chars().noneMatch(ch -> ch == 0x1b || ch == 0x07), "escape bytes in the exposition");
            assertFalse(metrics.contains("\n[ERR]"), "a forged line in the exposition");

            String log = daemon.logText();
            assertEquals(1, log.lines().filter(l -> l.contains(marker)).count(), "one line per buffer:\n" + log);
            assertTrue(log.chars().noneMatch(ch -> ch == 0x1b || ch == 0x07), "escape bytes in the log:\n" + log);
            assertTrue(log.lines().noneMatch(l -> l.startsWith("[ERR]")), "a forged log line:\n" + log);
            String line = log.lines().filter(l -> l.contains(marker)).findFirst().orElseThrow();
            System.out.println(line);
            assertTrue(line.contains("'x\\n[ERR]'"), line);
            assertTrue(line.contains("\\e]0;ow") || line.contains("\\u001b]0;ow") || line.contains("\\x1b]0;ow"), line);
        }
    }

    @Test
    void shouldSetAsideALeftoverBufferWhosePackageNameItsClientRewroteWhileNoDaemonRan() throws Exception {
        // Dumps and pulls stay byte-exact to Android, so the package name a buffer's header
        // gives at recovery must pass Register's rules again: the client owns the file.
        String pkg = "com.example.evil";
        String hostile = "com.\u001b[2Jxle.evil"; // as long in UTF-8
        try (ClientProcess c = ClientProcess.start(daemon, pkg, 1, 100, 100, 0, "wait-attach", "hang")) {
            c.await("recorded 100", 60);
            daemon.kill();
            c.kill();
        }
        Path buffer;
        try (java.util.stream.Stream<Path> files = Files.list(daemon.bufferDir())) {
            buffer = files.filter(f -> f.toString().endsWith(".gfxbuf")).findFirst().orElseThrow();
        }
        byte[] image = Files.readAllBytes(buffer);
        byte[] from = pkg.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        byte[] to = hostile.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        assertEquals(from.length, to.length);
        int at = -1;
        for (int i = 0; i + from.length <= image.length && at < 0; i++) {
            if (java.util.Arrays.equals(image, i, i + from.length, from, 0, from.length)) {
                at = i;
            }
        }
        assertTrue(at >= 0, "the package name is in the header");
        System.arraycopy(to, 0, image, at, to.length);
        Files.write(buffer, image);

        long logBefore = Files.size(state.resolve("daemon.log"));
        daemon = new DaemonProcess(state, "--set", "metrics.enabled=true", "--set", "metrics.port=0").start();
        String dump = daemon.dumpText();
        assertFalse(dump.contains("xle.evil"), dump);
        String log = Files.readString(state.resolve("daemon.log")).substring((int) logBefore);
        List<String> lines = log.lines().filter(l -> l.contains("which Register would refuse")).toList();
        assertEquals(1, lines.size(), log);
        assertTrue(lines.get(0).contains("com.\\e[2Jxle.evil"), lines.get(0));
        assertTrue(log.chars().noneMatch(ch -> ch == 0x1b), "an escape byte in the log:\n" + log);
        assertFalse(Files.exists(buffer), "moved aside");
    }
}
