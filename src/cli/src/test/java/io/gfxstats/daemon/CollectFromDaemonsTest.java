package io.gfxstats.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gfxstats.cli.Main;
import io.gfxstats.proto.GraphicsStatsServiceDumpProto;
import io.gfxstats.testing.Await;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** `gfxstats collect` against real daemons on loopback TCP ports, one target down. */
class CollectFromDaemonsTest {
    private final List<DaemonProcess> daemons = new ArrayList<>();
    private final List<Path> dirs = new ArrayList<>();

    @AfterEach
    void tearDown() throws Exception {
        for (DaemonProcess d : daemons) {
            d.close();
        }
        for (Path p : dirs) {
            TestFiles.deleteTree(p);
        }
    }

    private static int freePort() throws Exception {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    private DaemonProcess daemon(int port) throws Exception {
        Path dir = Files.createTempDirectory(Path.of("/tmp"), "gfxc");
        dirs.add(dir);
        DaemonProcess d = new DaemonProcess(dir, "--set", "tcp.enabled=true", "--set", "tcp.host=127.0.0.1",
                "--set", "tcp.port=" + port);
        daemons.add(d);
        return d.start();
    }

    @Test
    void shouldMergeEveryReachableDaemonAndReportTheOneThatIsDown() throws Exception {
        int p1 = freePort();
        int p2 = freePort();
        int down = freePort();
        DaemonProcess a = daemon(p1);
        DaemonProcess b = daemon(p2);
        // The same package on both devices (summed), one package on one device only.
        try (ClientProcess c1 = ClientProcess.start(a, "com.fleet.shared", 4, 300, 100, 0);
             ClientProcess c2 = ClientProcess.start(b, "com.fleet.shared", 4, 200, 100, 0);
             ClientProcess c3 = ClientProcess.start(b, "com.fleet.only", 1, 50, 50, 0, "wait-attach", "hang")) {
            assertEquals(0, c1.waitFor());
            assertEquals(0, c2.waitFor());
            c3.await("recorded 50", 30);
            awaitTotal(a, "com.fleet.shared", 300);
            awaitTotal(b, "com.fleet.shared", 200);

            Path out = Files.createTempDirectory(Path.of("/tmp"), "gfxo");
            dirs.add(out);
            ByteArrayOutputStream stdout = new ByteArrayOutputStream();
            ByteArrayOutputStream stderr = new ByteArrayOutputStream();
            int code = Main.run(new String[] {"collect", "--targets",
                    "127.0.0.1:" + p1 + ",127.0.0.1:" + p2 + ",127.0.0.1:" + down,
                    "--out", out.toString(), "--deadline", "5", "--retries", "1"},
                    new PrintStream(stdout, true, StandardCharsets.UTF_8), new PrintStream(stderr, true, StandardCharsets.UTF_8));
            assertEquals(0, code, stderr.toString(StandardCharsets.UTF_8));

            GraphicsStatsServiceDumpProto merged = GraphicsStatsServiceDumpProto.parseFrom(
                    Files.readAllBytes(out.resolve("merged.pb")));
            assertEquals(500, frames(merged, "com.fleet.shared"), "summed across devices");
            assertEquals(50, frames(merged, "com.fleet.only"), "live data included");
            String status = Files.readString(out.resolve("status.tsv"));
            assertTrue(status.contains("127.0.0.1:" + down), status);
            long ok = status.lines().filter(l -> l.contains("\tok\t")).count();
            assertEquals(2, ok, status);
        }
    }

    private static long frames(GraphicsStatsServiceDumpProto dump, String pkg) {
        return dump.getStatsList().stream().filter(p -> p.getPackageName().equals(pkg))
                .mapToLong(p -> p.getSummary().getTotalFrames()).sum();
    }

    private static void awaitTotal(DaemonProcess d, String pkg, long expected) throws Exception {
        Await.until(() -> d.totalFrames(pkg) == expected, Duration.ofSeconds(60),
                () -> pkg + ": " + d.totalFrames(pkg) + " frames, not " + expected + "\n" + d.logText());
    }
}
