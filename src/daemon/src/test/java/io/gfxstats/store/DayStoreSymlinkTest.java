package io.gfxstats.store;

import static io.gfxstats.store.StoreFixtures.CLOCK;
import static io.gfxstats.store.StoreFixtures.DAY;
import static io.gfxstats.store.StoreFixtures.NOW;
import static io.gfxstats.store.StoreFixtures.encoded;
import static io.gfxstats.store.StoreFixtures.proto;
import static io.gfxstats.store.StoreFixtures.tree;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Links planted inside the root, each pointing at a complete, valid-looking store tree outside
 * it: the store must neither read through them, nor write through them, nor delete through them.
 */
class DayStoreSymlinkTest {
    static final EntryKey KEY = new EntryKey(DAY, "com.example.app", 42);

    @TempDir
    Path tmp;
    Path root;
    Path outside;
    DayStore store;

    @BeforeEach
    void open() throws IOException {
        root = tmp.resolve("data");
        store = DayStore.open(root, CLOCK);
        outside = tmp.resolve("outside");
        Path t = Files.createDirectories(outside.resolve("1700006400000/com.example.app/42"));
        Files.write(t.resolve("total"), encoded(KEY, 666));
    }

    @AfterEach
    void close() throws IOException {
        store.close();
    }

    @Test
    void shouldNotFollowALinkPlantedAsDayDirectory() throws IOException {
        Files.createSymbolicLink(root.resolve("1700006400000"), outside.resolve("1700006400000"));
        assertNotFollowed("1700006400000", "");
    }

    @Test
    void shouldNotFollowALinkPlantedAsPackageDirectory() throws IOException {
        Files.createDirectories(root.resolve("1700006400000"));
        Files.createSymbolicLink(root.resolve("1700006400000/com.example.app"),
                outside.resolve("1700006400000/com.example.app"));
        assertNotFollowed("1700006400000/com.example.app", "1700006400000/");
    }

    @Test
    void shouldNotFollowALinkPlantedAsVersionDirectory() throws IOException {
        Files.createDirectories(root.resolve("1700006400000/com.example.app"));
        Files.createSymbolicLink(root.resolve("1700006400000/com.example.app/42"),
                outside.resolve("1700006400000/com.example.app/42"));
        assertNotFollowed("1700006400000/com.example.app/42", "1700006400000/com.example.app/");
    }

    /** Reads and listings see nothing; a write moves the link to quarantine and writes inside the root. */
    private void assertNotFollowed(String linkPath, String quarantineParent) throws IOException {
        List<String> outsideBefore = tree(outside);

        assertEquals(List.of(), store.list());
        assertInstanceOf(ReadResult.Missing.class, store.read(KEY));
        assertTrue(store.stamp(KEY).isAbsent());
        assertEquals(List.of(), store.applyRetention(1));

        store.write(KEY, proto(KEY, 5), FileStamp.ABSENT);

        assertEquals(outsideBefore, tree(outside));
        assertArrayEquals(encoded(KEY, 666), Files.readAllBytes(outside.resolve("1700006400000/com.example.app/42/total")));
        Path movedLink = root.resolve("quarantine/" + quarantineParent + Path.of(linkPath).getFileName() + "." + NOW);
        assertTrue(Files.isSymbolicLink(movedLink), "the link itself is kept in quarantine: " + tree(root));
        assertTrue(Files.isDirectory(root.resolve(linkPath), java.nio.file.LinkOption.NOFOLLOW_LINKS));
        assertEquals(5, store.read(KEY).proto().orElseThrow().getSummary().getTotalFrames());
        assertEquals(List.of(KEY), store.list().stream().map(StoredEntry::key).toList());
    }

    @Test
    void shouldQuarantineALinkPlantedAsTheFileWithoutReadingItsTarget() throws IOException {
        Files.createDirectories(root.resolve("1700006400000/com.example.app/42"));
        Path target = outside.resolve("1700006400000/com.example.app/42/total");
        Files.createSymbolicLink(root.resolve("1700006400000/com.example.app/42/total"), target);

        assertEquals(List.of(KEY), store.list().stream().map(StoredEntry::key).toList(), "listed: a read decides");
        ReadResult r = store.read(KEY);

        QuarantineEvent e = assertInstanceOf(ReadResult.Quarantined.class, r).event();
        assertTrue(e.reason().contains("symbolic link"), e.reason());
        assertTrue(Files.isSymbolicLink(e.quarantinedTo()));
        assertEquals(target, Files.readSymbolicLink(e.quarantinedTo()));
        assertArrayEquals(encoded(KEY, 666), Files.readAllBytes(target), "target untouched");
        assertTrue(r.proto().isEmpty(), "the 666 frames behind the link were never read");
    }

    @Test
    void shouldMoveAsideALinkAppearingAsTheFileBeforeAWrite() throws IOException {
        Files.createDirectories(root.resolve("1700006400000/com.example.app/42"));
        Path target = outside.resolve("1700006400000/com.example.app/42/total");
        Files.createSymbolicLink(root.resolve("1700006400000/com.example.app/42/total"), target);

        store.write(KEY, proto(KEY, 1), FileStamp.ABSENT);

        assertArrayEquals(encoded(KEY, 666), Files.readAllBytes(target), "not written through the link");
        assertTrue(Files.isSymbolicLink(root.resolve("quarantine/1700006400000/com.example.app/42/total." + NOW)));
        assertEquals(1, store.read(KEY).proto().orElseThrow().getSummary().getTotalFrames());
    }

    @Test
    void shouldDeleteOldDaysWithoutFollowingLinksInsideThem() throws IOException {
        long old = DAY - 5 * Days.MILLIS_PER_DAY;
        EntryKey oldKey = new EntryKey(old, "com.example.app", 42);
        store.write(oldKey, proto(oldKey, 1), FileStamp.ABSENT);
        store.write(KEY, proto(KEY, 1), FileStamp.ABSENT);
        Path oldDay = root.resolve(Long.toString(old));
        Files.createSymbolicLink(oldDay.resolve("escape"), outside);
        Files.createSymbolicLink(oldDay.resolve("com.example.app/42/escape-file"),
                outside.resolve("1700006400000/com.example.app/42/total"));
        // a link named like an old day, pointing outside: not a real day directory, so not retention's
        Files.createSymbolicLink(root.resolve(Long.toString(old - Days.MILLIS_PER_DAY)), outside);
        List<String> outsideBefore = tree(outside);

        assertEquals(List.of(old), store.applyRetention(1));

        assertEquals(outsideBefore, tree(outside));
        assertTrue(Files.isSymbolicLink(root.resolve(Long.toString(old - Days.MILLIS_PER_DAY))));
        assertEquals(List.of(DAY), store.days());
    }
}
