package io.gfxstats.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gfxstats.dayfile.DayFileCodec;
import io.gfxstats.dayfile.StatsProtos;
import io.gfxstats.proto.GraphicsStatsProto;
import io.gfxstats.stats.Counters;
import io.gfxstats.stats.ProfileData;
import io.gfxstats.store.Days;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Issue 11, item 1: an oversized day file is quarantined unread; every dump keeps working. */
class DaemonDayFileLimitsTest {
    private Path state;
    private DaemonProcess daemon;

    @BeforeEach
    void setUp() throws Exception {
        state = Files.createTempDirectory(Path.of("/tmp"), "gfxd");
    }

    @AfterEach
    void tearDown() throws Exception {
        if (daemon != null) {
            daemon.close();
        }
        TestFiles.deleteTree(state);
    }

    static GraphicsStatsProto entry(String pkg, long version, long day, int frames) {
        ProfileData p = new ProfileData();
        p.add(Counters.TOTAL_FRAMES, frames);
        p.add(Counters.cpuBucket(3), frames);
        return StatsProtos.toProto(p, new StatsProtos.Source(pkg, version, 1000, day + 1000, day + 2000));
    }

    static Path dayFile(Path state, long day, String pkg, long version) throws Exception {
        Path dir = state.resolve("data").resolve(Long.toString(day)).resolve(pkg).resolve(Long.toString(version));
        Files.createDirectories(dir);
        return dir.resolve("total");
    }

    @Test
    void shouldQuarantineABigDayFileUnreadAndKeepDumping() throws Exception {
        long today = Days.dayStart(System.currentTimeMillis());
        Files.write(dayFile(state, today, "com.good.app", 1), DayFileCodec.encode(entry("com.good.app", 1, today, 42)));
        Path big = dayFile(state, today, "com.big.app", 1);
        try (RandomAccessFile raf = new RandomAccessFile(big.toFile(), "rw")) {
            raf.write(new byte[60_000_000]); // real zeros, as in the report: 60,000,000 bytes
        }

        daemon = new DaemonProcess(state).withProductionHeap().start();
        for (int i = 0; i < 3; i++) {
            List<GraphicsStatsProto> stats = daemon.dumpProto().getStatsList();
            assertEquals(1, stats.size(), daemon.logText());
            assertEquals(42, stats.get(0).getSummary().getTotalFrames());
        }
        assertTrue(daemon.isAlive());
        try (Stream<Path> s = Files.walk(state.resolve("data").resolve("quarantine"))) {
            List<Path> moved = s.filter(Files::isRegularFile).toList();
            assertEquals(1, moved.size(), moved.toString());
            assertEquals(60_000_000, Files.size(moved.get(0)));
            assertTrue(moved.get(0).toString().contains("com.big.app"), moved.toString());
        }
        assertTrue(daemon.logText().contains("60000000 bytes, more than the day-file size cap (4194304 bytes, "
                + "setting data.file.max.size)"), daemon.logText());
    }

    @Test
    void shouldHonourAConfiguredCap() throws Exception {
        long today = Days.dayStart(System.currentTimeMillis());
        byte[] good = DayFileCodec.encode(entry("com.good.app", 1, today, 42));
        Files.write(dayFile(state, today, "com.good.app", 1), good);
        Path padded = dayFile(state, today, "com.padded.app", 1);
        Files.write(padded, new byte[100 * 1024]);

        daemon = new DaemonProcess(state, "--set", "data.file.max.size=64KiB").start();

        assertEquals(1, daemon.dumpProto().getStatsCount());
        assertTrue(Files.notExists(padded), "quarantined");
    }
}
