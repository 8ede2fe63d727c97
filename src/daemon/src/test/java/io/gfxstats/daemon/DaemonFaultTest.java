package io.gfxstats.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gfxstats.dayfile.DayFileCodec;
import io.gfxstats.proto.GraphicsStatsProto;
import io.gfxstats.store.Days;
import io.gfxstats.testing.Await;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The daemon is SIGKILLed and restarted while real clients record; nothing may be lost or doubled. */
class DaemonFaultTest {
    private Path state;
    private DaemonProcess daemon;

    @BeforeEach
    void setUp() throws Exception {
        state = Files.createTempDirectory(Path.of("/tmp"), "gfxf");
    }

    @AfterEach
    void tearDown() throws Exception {
        if (daemon != null) {
            daemon.close();
        }
        TestFiles.deleteTree(state);
    }

    private DaemonProcess newDaemon() {
        // Saves every 150 ms, so kills land before, during and after saves.
        return new DaemonProcess(state, "--set", "flush.interval=150ms", "--set", "heartbeat.timeout=3s");
    }

    @Test
    void shouldCountEveryFrameExactlyOnceAcrossRepeatedDaemonKillsAndARotation() throws Exception {
        long now = System.currentTimeMillis();
        // Put the daemon's clock 4 s before a UTC midnight, so one of the restarts crosses it.
        long offset = Days.nextDayStart(now) - now - 4_000;
        daemon = newDaemon();
        daemon.setClockOffset(offset);
        daemon.start();
        List<ClientProcess> clients = new ArrayList<>();
        long perClient = 4_000;
        try {
            for (int i = 0; i < 3; i++) {
                clients.add(ClientProcess.start(daemon, "com.example.fault" + (i % 2), 1, perClient, 40, 15));
            }
            Random random = new Random(42);
            for (int kill = 0; kill < 6 && clients.stream().anyMatch(c -> c.recorded() < perClient); kill++) {
                Thread.sleep(250 + random.nextInt(400));
                daemon.kill();
                Thread.sleep(random.nextInt(300));
                daemon = newDaemon();
                daemon.start();
            }
            for (ClientProcess c : clients) {
                assertEquals(0, c.waitFor(), "client exit code");
            }
        } finally {
            for (ClientProcess c : clients) {
                c.close();
            }
        }
        awaitNoLiveBuffers();
        long total = daemon.totalFrames("com.example.fault0") + daemon.totalFrames("com.example.fault1");
        assertEquals(3 * perClient, total, daemon.logText());
        assertEquals(2 * perClient, daemon.totalFrames("com.example.fault0"));
    }

    @Test
    void shouldSplitFramesAtMidnightWithoutLossOrDoubleCount() throws Exception {
        long now = System.currentTimeMillis();
        long midnight = Days.nextDayStart(now);
        daemon = newDaemon();
        daemon.setClockOffset(midnight - now - 60_000);
        daemon.start();
        long oldDay = daemon.health().getCurrentDayStart();
        assertEquals(Days.dayStart(midnight - 1), oldDay);
        try (ClientProcess c = ClientProcess.start(daemon, "com.example.rotate", 5, 700, 300, 0, "wait-attach", "stdin")) {
            c.await("recorded 300", 30);
            daemon.setClockOffset(midnight - System.currentTimeMillis() + 1_000);
            awaitDay(midnight);
            c.proceed();
            c.await("recorded 600", 30);
            c.proceed();
            c.await("recorded 700", 30);
            assertEquals(0, c.waitFor());
        }
        awaitNoLiveBuffers();
        GraphicsStatsProto before = read(oldDay, "com.example.rotate", 5);
        GraphicsStatsProto after = read(midnight, "com.example.rotate", 5);
        assertEquals(300, before.getSummary().getTotalFrames());
        assertEquals(400, after.getSummary().getTotalFrames());
        assertTrue(before.getStatsEnd() <= midnight, "old day ends at midnight");
        assertTrue(after.getStatsStart() >= midnight, "new day starts at midnight");
        assertEquals(700, daemon.totalFrames("com.example.rotate"));
    }

    private GraphicsStatsProto read(long day, String pkg, long version) throws Exception {
        Path f = daemon.dataDir().resolve(Long.toString(day)).resolve(pkg).resolve(Long.toString(version)).resolve("total");
        return DayFileCodec.decode(Files.readAllBytes(f));
    }

    private void awaitDay(long day) throws Exception {
        Await.until(() -> daemon.health().getCurrentDayStart() == day, Duration.ofSeconds(60),
                () -> "daemon did not rotate to " + day + "\n" + daemon.logText());
    }

    private void awaitNoLiveBuffers() throws Exception {
        Await.until(() -> daemon.health().getLiveBuffers() == 0, Duration.ofSeconds(60),
                () -> "buffers still live\n" + daemon.logText());
    }
}
