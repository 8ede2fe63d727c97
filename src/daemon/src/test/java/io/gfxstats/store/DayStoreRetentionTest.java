package io.gfxstats.store;

import static io.gfxstats.store.StoreFixtures.CLOCK;
import static io.gfxstats.store.StoreFixtures.DAY;
import static io.gfxstats.store.StoreFixtures.proto;
import static io.gfxstats.store.StoreFixtures.tree;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DayStoreRetentionTest {
    static final long D = Days.MILLIS_PER_DAY;

    @TempDir
    Path tmp;
    Path root;
    DayStore store;

    @BeforeEach
    void open() throws IOException {
        root = tmp.resolve("data");
        store = DayStore.open(root, CLOCK);
    }

    @AfterEach
    void close() throws IOException {
        store.close();
    }

    private void writeDays(long... days) throws IOException {
        for (long day : days) {
            for (String pkg : List.of("com.a", "com.b")) {
                EntryKey k = new EntryKey(day, pkg, 1);
                store.write(k, proto(k, 1), FileStamp.ABSENT);
            }
        }
    }

    @Test
    void shouldKeepExactlyTheNNewestDayDirectories() throws IOException {
        writeDays(DAY - 5 * D, DAY, DAY - D, DAY - 3 * D, DAY - 2 * D, DAY - 4 * D);

        List<Long> deleted = store.applyRetention(DayStore.DEFAULT_RETENTION_DAYS);

        assertEquals(List.of(DAY - 5 * D, DAY - 4 * D, DAY - 3 * D), deleted);
        assertEquals(List.of(DAY - 2 * D, DAY - D, DAY), store.days());
        assertEquals(6, store.list().size());
        for (long d : deleted) {
            assertTrue(Files.notExists(root.resolve(Long.toString(d))));
        }
        assertEquals(List.of(), store.applyRetention(3), "idempotent");
    }

    @Test
    void shouldUseThreeDaysByDefaultLikeAndroid() {
        assertEquals(3, DayStore.DEFAULT_RETENTION_DAYS);
    }

    @Test
    void shouldKeepEverythingWhenThereAreFewerDaysThanTheLimit() throws IOException {
        writeDays(DAY, DAY - D);
        assertEquals(List.of(), store.applyRetention(3));
        assertEquals(List.of(DAY - D, DAY), store.days());
    }

    @Test
    void shouldNeverTouchForeignNamesOrTheQuarantine() throws IOException {
        writeDays(DAY - 9 * D, DAY - 8 * D, DAY);
        Files.createDirectories(root.resolve("notes/inner"));
        Files.createDirectories(root.resolve("12345"));            // numeric, not a midnight
        Files.createDirectories(root.resolve("0" + (DAY - 20 * D))); // old, but not canonical
        Files.write(root.resolve(Long.toString(DAY - 30 * D)), new byte[] {1}); // a file with an old day's name
        EntryKey bad = new EntryKey(DAY - 9 * D, "com.bad", 1);
        StoreFixtures.plant(root, bad, new byte[] {0});
        store.read(bad); // quarantined under quarantine/<old day>/...

        assertEquals(List.of(DAY - 9 * D, DAY - 8 * D), store.applyRetention(1));

        assertEquals(List.of(".lock", "0" + (DAY - 20 * D) + "/", "12345/", Long.toString(DAY - 30 * D),
                "1700006400000/", "1700006400000/com.a/", "1700006400000/com.a/1/", "1700006400000/com.a/1/total",
                "1700006400000/com.b/", "1700006400000/com.b/1/", "1700006400000/com.b/1/total",
                "notes/", "notes/inner/", "quarantine/", "quarantine/" + (DAY - 9 * D) + "/",
                "quarantine/" + (DAY - 9 * D) + "/com.bad/", "quarantine/" + (DAY - 9 * D) + "/com.bad/1/",
                "quarantine/" + (DAY - 9 * D) + "/com.bad/1/total." + StoreFixtures.NOW), tree(root));
    }

    @Test
    void shouldNeverDeleteTodayEvenWhenFutureDaysOutnumberIt() throws IOException {
        // The clock went backwards: directories dated after "today" exist.
        writeDays(LongStream.rangeClosed(-2, 4).map(i -> DAY + i * D).toArray());

        List<Long> deleted = store.applyRetention(3);

        assertEquals(List.of(DAY - 2 * D, DAY - D), deleted);
        assertEquals(List.of(DAY, DAY + D, DAY + 2 * D, DAY + 3 * D, DAY + 4 * D), store.days(), "today survives");
    }

    @Test
    void shouldRefuseToKeepZeroDays() {
        assertThrows(IllegalArgumentException.class, () -> store.applyRetention(0));
    }
}
