package io.gfxstats.daemon.dump;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.gfxstats.dayfile.StatsProtos;
import io.gfxstats.proto.GraphicsStatsProto;
import io.gfxstats.stats.Counters;
import io.gfxstats.stats.ProfileData;
import io.gfxstats.store.DayStore;
import io.gfxstats.store.Days;
import io.gfxstats.store.EntryKey;
import io.gfxstats.store.FileStamp;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DayFileCacheTest {
    private static final long DAY = Days.dayStart(Instant.parse("2026-03-04T10:00:00Z").toEpochMilli());
    private static final Duration RECHECK = Duration.ofSeconds(1);

    @TempDir
    Path dir;
    private DayStore store;
    private final AtomicLong nanos = new AtomicLong(1_000_000_000L);

    @BeforeEach
    void setUp() throws Exception {
        store = DayStore.open(dir.resolve("data"), Clock.fixed(Instant.ofEpochMilli(DAY + 5000), ZoneOffset.UTC));
    }

    @AfterEach
    void tearDown() throws Exception {
        store.close();
    }

    private static GraphicsStatsProto proto(EntryKey key, int frames) {
        ProfileData p = new ProfileData();
        p.add(Counters.TOTAL_FRAMES, frames);
        p.add(Counters.cpuBucket(2), frames);
        return StatsProtos.toProto(p, new StatsProtos.Source(key.packageName(), key.versionCode(), 1000,
                key.dayStart() + 1000, key.dayStart() + 2000));
    }

    private static long frames(Map<EntryKey, GraphicsStatsProto> files, EntryKey key) {
        return files.get(key).getSummary().getTotalFrames();
    }

    private DayFileCache cache(boolean enabled) {
        return new DayFileCache(store, enabled, nanos::get, RECHECK);
    }

    @Test
    void shouldServeDumpsFromMemoryUntilTheRecheckIntervalWhenTheDaemonChangedNothing() throws Exception {
        EntryKey a = new EntryKey(DAY, "com.example.a", 1);
        EntryKey b = new EntryKey(DAY, "com.example.b", 1);
        store.write(a, proto(a, 10), FileStamp.ABSENT);
        DayFileCache cache = cache(true);
        Map<EntryKey, GraphicsStatsProto> first = cache.readAll();
        assertEquals(10, frames(first, a));

        // Written behind the daemon's back (no invalidate): not looked for until the interval passes.
        store.write(b, proto(b, 20), FileStamp.ABSENT);
        nanos.addAndGet(RECHECK.toNanos() - 1);
        assertSame(first, cache.readAll());
        nanos.addAndGet(1);
        Map<EntryKey, GraphicsStatsProto> later = cache.readAll();
        assertEquals(Map.of(a, 10L, b, 20L), Map.of(a, frames(later, a), b, frames(later, b)));
    }

    @Test
    void shouldShowTheDaemonsOwnSaveOnTheVeryNextDump() throws Exception {
        EntryKey a = new EntryKey(DAY, "com.example.a", 1);
        EntryKey c = new EntryKey(DAY - Days.MILLIS_PER_DAY, "com.example.c", 3);
        FileStamp stamp = store.write(a, proto(a, 10), FileStamp.ABSENT);
        DayFileCache cache = cache(true);
        assertEquals(10, frames(cache.readAll(), a));

        store.write(a, proto(a, 15), stamp);
        store.write(c, proto(c, 7), FileStamp.ABSENT);
        cache.invalidate();
        Map<EntryKey, GraphicsStatsProto> after = cache.readAll();
        assertEquals(15, frames(after, a));
        assertEquals(7, frames(after, c));
        assertEquals(Map.of(c, 7L), Map.of(c, frames(cache.readDay(c.dayStart()), c)));
        assertEquals(1, cache.readDay(DAY).size());
    }

    @Test
    void shouldQuarantineAFileDamagedByHandAtTheVeryNextDump() throws Exception {
        EntryKey a = new EntryKey(DAY, "com.example.a", 1);
        EntryKey b = new EntryKey(DAY, "com.example.b", 1);
        store.write(a, proto(a, 10), FileStamp.ABSENT);
        store.write(b, proto(b, 20), FileStamp.ABSENT);
        DayFileCache cache = cache(true);
        assertEquals(2, cache.readAll().size());

        Files.write(store.pathOf(a), new byte[] {1, 0});
        Map<EntryKey, GraphicsStatsProto> after = cache.readAll();
        assertFalse(after.containsKey(a));
        assertEquals(20, frames(after, b));
        try (Stream<Path> q = Files.walk(store.quarantineRoot())) {
            assertEquals(1, q.filter(Files::isRegularFile).count());
        }
        assertEquals(1, cache.size());
    }

    @Test
    void shouldDropAFileRemovedByHandAtTheVeryNextDump() throws Exception {
        EntryKey a = new EntryKey(DAY, "com.example.a", 1);
        EntryKey b = new EntryKey(DAY - Days.MILLIS_PER_DAY, "com.example.b", 1);
        store.write(a, proto(a, 10), FileStamp.ABSENT);
        store.write(b, proto(b, 20), FileStamp.ABSENT);
        DayFileCache cache = cache(true);
        assertEquals(2, cache.readAll().size());

        Files.delete(store.pathOf(b));
        assertEquals(Map.of(a, 10L), Map.of(a, frames(cache.readAll(), a)));
        assertEquals(1, cache.readAll().size());
        assertEquals(0, cache.readDay(b.dayStart()).size());
    }

    @Test
    void shouldReadTheDiskOnEveryDumpWhenDisabled() throws Exception {
        EntryKey a = new EntryKey(DAY, "com.example.a", 1);
        FileStamp stamp = store.write(a, proto(a, 10), FileStamp.ABSENT);
        DayFileCache cache = cache(false);
        assertEquals(10, frames(cache.readAll(), a));
        store.write(a, proto(a, 11), stamp);
        assertEquals(11, frames(cache.readAll(), a));
        assertEquals(0, cache.size());
    }
}
