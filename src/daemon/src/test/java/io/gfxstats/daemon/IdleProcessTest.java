package io.gfxstats.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gfxstats.proto.GraphicsStatsProto;
import io.gfxstats.store.Days;
import io.gfxstats.testing.Await;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A process that registers and draws nothing is kept, as Android keeps it. */
class IdleProcessTest {
    private Path state;

    @BeforeEach
    void setUp() throws Exception {
        state = Files.createTempDirectory(Path.of("/tmp"), "gfxidle");
    }

    @AfterEach
    void tearDown() throws Exception {
        TestFiles.deleteTree(state);
    }

    @Test
    void shouldSaveAndKeepShowingAProcessThatDrewNoFrames() throws Exception {
        try (DaemonProcess daemon = new DaemonProcess(state).start()) {
            try (ClientProcess c = ClientProcess.start(daemon, "com.example.idle", 4, 0, 100, 0)) {
                c.await("attached", 30);
                assertEquals(0, c.waitFor());
            }
            Await.until(() -> daemon.health().getLiveBuffers() == 0, Duration.ofSeconds(60),
                    "the process is gone: no live buffer");
            Optional<GraphicsStatsProto> entry = daemon.entry("com.example.idle", 4);
            assertTrue(entry.isPresent(), "still in the dump after exit:\n" + daemon.dumpText());
            assertEquals(0, entry.get().getSummary().getTotalFrames());
            assertTrue(entry.get().getStatsStart() > 0 && entry.get().getStatsEnd() >= entry.get().getStatsStart());
            assertTrue(Files.exists(daemon.dataDir().resolve(Long.toString(Days.dayStart(System.currentTimeMillis())))
                    .resolve("com.example.idle").resolve("4").resolve("total")), "a day file was written");
            assertTrue(daemon.dumpText().contains("\nPackage: com.example.idle\n"), daemon.dumpText());
            assertEquals(0, daemon.stop(), daemon.logText());
        }
        try (DaemonProcess again = new DaemonProcess(state).start()) {
            Optional<GraphicsStatsProto> kept = again.entry("com.example.idle", 4);
            assertTrue(kept.isPresent(), "gone after a daemon restart:\n" + again.dumpText());
            assertEquals(0, kept.get().getSummary().getTotalFrames());
        }
    }
}
