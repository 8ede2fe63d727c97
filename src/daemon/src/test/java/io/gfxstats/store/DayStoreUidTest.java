package io.gfxstats.store;

import static io.gfxstats.store.StoreFixtures.CLOCK;
import static io.gfxstats.store.StoreFixtures.DAY;
import static io.gfxstats.store.StoreFixtures.NOW;
import static io.gfxstats.store.StoreFixtures.proto;
import static io.gfxstats.store.StoreFixtures.tree;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gfxstats.dayfile.DayFileCodec;
import io.gfxstats.proto.GraphicsStatsProto;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Entries are keyed by uid: the daemon's own keep Android's layout, another uid's get an @uid level. */
class DayStoreUidTest {
    static final int OTHER = 4242;
    static final int THIRD = (int) 3_000_000_000L; // above 2^31: unsigned in names
    static final EntryKey OWN = new EntryKey(DAY, "com.example.app", 7);
    static final EntryKey OTHERS = new EntryKey(DAY, "com.example.app", 7, OTHER);
    static final EntryKey THIRDS = new EntryKey(DAY, "com.example.app", 7, THIRD);

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

    static GraphicsStatsProto of(EntryKey key, int frames) {
        return proto(key, frames).toBuilder().setUid(key.uid()).build();
    }

    @Test
    void shouldKeepTheSamePackageOfTwoUidsApartAndTheOwnLayoutUnchanged() throws IOException {
        store.write(OWN, of(OWN, 10), FileStamp.ABSENT);
        store.write(OTHERS, of(OTHERS, 20), FileStamp.ABSENT);
        store.write(THIRDS, of(THIRDS, 30), FileStamp.ABSENT);

        assertEquals(List.of("1700006400000/", "1700006400000/@3000000000/",
                "1700006400000/@3000000000/com.example.app/", "1700006400000/@3000000000/com.example.app/7/",
                "1700006400000/@3000000000/com.example.app/7/total",
                "1700006400000/@4242/", "1700006400000/@4242/com.example.app/",
                "1700006400000/@4242/com.example.app/7/", "1700006400000/@4242/com.example.app/7/total",
                "1700006400000/com.example.app/", "1700006400000/com.example.app/7/",
                "1700006400000/com.example.app/7/total"),
                tree(root).stream().filter(p -> !p.startsWith(".lock")).toList());
        assertEquals(root.resolve("1700006400000/com.example.app/7/total"), store.pathOf(OWN), "Android's layout");
        assertEquals(List.of(OWN, OTHERS, THIRDS), store.list().stream().map(StoredEntry::key).toList(),
                "two entries, ordered by unsigned uid after (day, package, version)");
        assertEquals(10, ((ReadResult.Found) store.read(OWN)).stored().getSummary().getTotalFrames());
        assertEquals(20, ((ReadResult.Found) store.read(OTHERS)).stored().getSummary().getTotalFrames());
        assertEquals(OTHER, ((ReadResult.Found) store.read(OTHERS)).stored().getUid());
        assertEquals(List.of(OWN, OTHERS, THIRDS), store.list(DAY).stream().map(StoredEntry::key).toList());
    }

    @Test
    void shouldRefuseToWriteAndQuarantineOnReadAnotherUidsContentsAtAUidLevel() throws IOException {
        assertThrows(IllegalArgumentException.class,
                () -> store.write(OTHERS, of(OTHERS, 5).toBuilder().setUid(OTHER + 1).build(), FileStamp.ABSENT));
        Path planted = root.resolve("1700006400000/@4242/com.example.app/7/total");
        Files.createDirectories(planted.getParent());
        Files.write(planted, DayFileCodec.encode(of(OTHERS, 5).toBuilder().setUid(1).build()));
        ReadResult.Quarantined q = assertInstanceOf(ReadResult.Quarantined.class, store.read(OTHERS));
        assertTrue(q.event().reason().contains("holds uid 1, not 4242"), q.event().reason());
        assertEquals(root.resolve("quarantine/1700006400000/@4242/com.example.app/7/total." + NOW),
                q.event().quarantinedTo());
    }

    @Test
    void shouldIgnoreNamesThatAreNotAnotherUidsLevel() throws IOException {
        store.write(OWN, of(OWN, 10), FileStamp.ABSENT);
        for (String bad : List.of("@", "@x1", "@01", "@4294967296", "@" + Integer.toUnsignedString(EntryKey.OWN_UID))) {
            Path p = root.resolve("1700006400000").resolve(bad).resolve("com.example.app/7");
            Files.createDirectories(p);
            Files.write(p.resolve("total"), DayFileCodec.encode(of(OWN, 1)));
        }
        assertEquals(List.of(OWN), store.list().stream().map(StoredEntry::key).toList());
    }

    @Test
    void shouldDeleteOtherUidsEntriesWithTheirDay() throws IOException {
        EntryKey old = new EntryKey(DAY - 5 * 86_400_000L, "com.example.app", 7, OTHER);
        store.write(old, proto(old, 3).toBuilder().setUid(OTHER).setStatsStart(old.dayStart() + 1)
                .setStatsEnd(old.dayStart() + 2).build(), FileStamp.ABSENT);
        store.write(OTHERS, of(OTHERS, 20), FileStamp.ABSENT);
        assertEquals(List.of(old.dayStart()), store.applyRetention(1));
        assertEquals(List.of(OTHERS), store.list().stream().map(StoredEntry::key).toList());
    }

    @Test
    void shouldNameTheUidLevelInKeys() {
        assertEquals("1700006400000/@4242/com.example.app/7", OTHERS.toString());
        assertEquals("1700006400000/com.example.app/7", OWN.toString());
    }
}
