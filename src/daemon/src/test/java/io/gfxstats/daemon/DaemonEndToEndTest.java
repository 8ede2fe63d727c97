package io.gfxstats.daemon;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gfxstats.dayfile.DayFileCodec;
import io.gfxstats.dayfile.StatsProtos;
import io.gfxstats.proto.GraphicsStatsProto;
import io.gfxstats.stats.Counters;
import io.gfxstats.stats.ProfileData;
import io.gfxstats.store.Days;
import io.gfxstats.testing.Await;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class DaemonEndToEndTest {
    private Path state;
    private DaemonProcess daemon;
    private DaemonFixture fixture;

    @BeforeEach
    void setUp() throws Exception {
        fixture = DaemonFixture.start("gfxd");
        state = fixture.state();
        daemon = fixture.daemon();
    }

    @AfterEach
    void tearDown() throws Exception {
        fixture.close();
    }

    @Test
    void shouldCountEveryFrameOfAClientThatExits() throws Exception {
        try (ClientProcess c = ClientProcess.start(daemon, "com.example.app", 7, 1000, 100, 0)) {
            assertEquals(0, c.waitFor());
        }
        awaitTotal("com.example.app", 1000);
        GraphicsStatsProto e = daemon.entry("com.example.app", 7).orElseThrow();
        ProfileData expected = FrameClientModel.expected(1000);
        assertEquals(expected.jankyFrames(), e.getSummary().getJankyFrames());
        for (int i = 0; i < 154; i++) {
            assertEquals(expected.get(Counters.cpuBucket(i)), e.getHistogram(i).getFrameCount(), "bucket " + i);
        }
        assertTrue(Files.exists(daemon.dataDir().resolve(Long.toString(Days.dayStart(System.currentTimeMillis())))
                .resolve("com.example.app").resolve("7").resolve("total")), "day file written at exit");
        try (Stream<Path> left = Files.list(daemon.bufferDir())) {
            assertEquals(0, left.filter(p -> p.toString().endsWith(".gfxbuf")).count(), "buffer file removed");
        }
    }

    @Test
    void shouldKeepEveryFrameOfAClientKilledMidRun() throws Exception {
        try (ClientProcess c = ClientProcess.start(daemon, "com.example.killed", 1, 700, 100, 20, "wait-attach", "hang")) {
            c.await("recorded 700", 30);
            c.kill();
        }
        awaitTotal("com.example.killed", 700);
        Path file = daemon.dataDir().resolve(Long.toString(Days.dayStart(System.currentTimeMillis())))
                .resolve("com.example.killed").resolve("1").resolve("total");
        awaitFile(file);
        GraphicsStatsProto saved = DayFileCodec.decode(Files.readAllBytes(file));
        assertEquals(700, saved.getSummary().getTotalFrames());
        assertArrayEquals(FrameClientModel.expected(700).toArray(), StatsProtos.toProfileData(saved).toArray());
    }

    @Test
    void shouldCountTwoProcessesOfOnePackageAndTheDayFileOnce() throws Exception {
        try (ClientProcess first = ClientProcess.start(daemon, "com.example.two", 3, 300, 100, 0)) {
            assertEquals(0, first.waitFor());
        }
        awaitTotal("com.example.two", 300);
        try (ClientProcess a = ClientProcess.start(daemon, "com.example.two", 3, 200, 100, 0, "wait-attach", "hang");
             ClientProcess b = ClientProcess.start(daemon, "com.example.two", 3, 250, 50, 0, "wait-attach", "hang")) {
            a.await("recorded 200", 30);
            b.await("recorded 250", 30);
            assertEquals(750, daemon.totalFrames("com.example.two"));
            assertEquals(1, daemon.dumpProto().getStatsList().stream()
                    .filter(p -> p.getPackageName().equals("com.example.two")).count(), "one entry per package/version/day");
        }
        awaitTotal("com.example.two", 750);
    }

    @Test
    void shouldSaveEveryLiveBufferAndExitZeroOnSigterm() throws Exception {
        try (ClientProcess c = ClientProcess.start(daemon, "com.example.term", 2, 200, 100, 0, "wait-attach", "hang")) {
            c.await("recorded 200", 30);
            assertEquals(0, daemon.stop(), daemon.logText());
            Path file = daemon.dataDir().resolve(Long.toString(Days.dayStart(System.currentTimeMillis())))
                    .resolve("com.example.term").resolve("2").resolve("total");
            assertEquals(200, DayFileCodec.decode(Files.readAllBytes(file)).getSummary().getTotalFrames());
            assertTrue(Files.exists(daemon.bufferDir()), "buffers stay for the live client");
            try (Stream<Path> left = Files.list(daemon.bufferDir())) {
                assertEquals(1, left.filter(p -> p.toString().endsWith(".gfxbuf")).count(), "the live client's buffer is kept");
            }
        }
    }

    private void awaitTotal(String pkg, long expected) throws Exception {
        Await.until(() -> daemon.totalFrames(pkg) == expected && daemon.health().getLiveBuffers() == 0,
                Duration.ofSeconds(60), () -> "total frames of " + pkg + " " + daemon.totalFrames(pkg) + ", expected "
                        + expected + ", with no live buffer\n" + daemon.logText());
    }

    private static void awaitFile(Path file) throws Exception {
        Await.until(() -> Files.exists(file), Duration.ofSeconds(60), () -> file + " never appeared");
    }
}
