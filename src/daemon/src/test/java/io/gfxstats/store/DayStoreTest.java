package io.gfxstats.store;

import static io.gfxstats.store.StoreFixtures.CLOCK;
import static io.gfxstats.store.StoreFixtures.DAY;
import static io.gfxstats.store.StoreFixtures.proto;
import static io.gfxstats.store.StoreFixtures.tree;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gfxstats.dayfile.DayFileCodec;
import io.gfxstats.proto.GraphicsStatsHistogramBucketProto;
import io.gfxstats.proto.GraphicsStatsProto;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DayStoreTest {
    @TempDir
    Path tmp;
    Path root;
    DayStore store;
    final EntryKey key = new EntryKey(DAY, "com.example.app", 42);

    @BeforeEach
    void open() throws IOException {
        root = tmp.resolve("data");
        store = DayStore.open(root, CLOCK);
    }

    @AfterEach
    void close() throws IOException {
        store.close();
    }

    @Test
    void shouldReadBackWhatWasWritten() throws IOException {
        GraphicsStatsProto p = proto(key, 120);
        FileStamp stamp = store.write(key, p, FileStamp.ABSENT);

        ReadResult r = store.read(key);
        ReadResult.Found found = assertInstanceOf(ReadResult.Found.class, r);
        assertEquals(p, found.stored());
        assertEquals(stamp, found.stamp());
        assertEquals(stamp, store.stamp(key));
        assertTrue(r.quarantine().isEmpty());
    }

    @Test
    void shouldReportAbsentEntryAsMissingWithAbsentStamp() throws IOException {
        ReadResult r = store.read(key);
        assertInstanceOf(ReadResult.Missing.class, r);
        assertTrue(r.proto().isEmpty());
        assertTrue(r.stamp().isAbsent());
        assertTrue(store.stamp(key).isAbsent());
        assertEquals(List.of(".lock"), tree(root), "reading creates nothing");
    }

    @Test
    void shouldWriteAndroidDayFileFormatAtSpecPath() throws IOException {
        GraphicsStatsProto p = proto(key, 7);
        store.write(key, p, FileStamp.ABSENT);
        Path file = root.resolve("1700006400000/com.example.app/42/total");
        assertEquals(file, store.pathOf(key));
        byte[] bytes = Files.readAllBytes(file);
        assertArrayEquals(new byte[] {1, 0, 0, 0}, java.util.Arrays.copyOf(bytes, 4), "LE int32 version 1");
        assertEquals(p, GraphicsStatsProto.parseFrom(java.util.Arrays.copyOfRange(bytes, 4, bytes.length)));
    }

    @Test
    void shouldLeaveNoTempFilesAndOwnerOnlyPermissions() throws IOException {
        for (int i = 1; i <= 20; i++) {
            store.write(key, proto(key, i), store.stamp(key));
        }
        assertEquals(List.of(".lock", "1700006400000/", "1700006400000/com.example.app/",
                "1700006400000/com.example.app/42/", "1700006400000/com.example.app/42/total"), tree(root));
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(root)));
        assertEquals("rwx------", PosixFilePermissions.toString(
                Files.getPosixFilePermissions(root.resolve("1700006400000/com.example.app/42"))));
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(store.pathOf(key))));
        assertEquals(20, store.read(key).proto().orElseThrow().getSummary().getTotalFrames());
    }

    @Test
    void shouldChangeStampOnEveryWrite() throws IOException {
        FileStamp a = store.write(key, proto(key, 1), FileStamp.ABSENT);
        FileStamp b = store.write(key, proto(key, 1), a);
        assertNotEquals(a, b, "same bytes, new file: the stamp still changes");
        assertEquals(b, store.stamp(key));
    }

    @Test
    void shouldRefuseToOverwriteAFileTheCallerHasNotRead() throws IOException {
        FileStamp first = store.write(key, proto(key, 10), FileStamp.ABSENT);

        StaleWriteException e = assertThrows(StaleWriteException.class,
                () -> store.write(key, proto(key, 99), FileStamp.ABSENT));
        assertEquals(first, e.actual());
        assertEquals(10, store.read(key).proto().orElseThrow().getSummary().getTotalFrames(), "nothing written");

        // another process replaced the file behind our back
        Path outside = Files.write(tmp.resolve("copied"), DayFileCodec.encode(proto(key, 55)));
        Files.move(outside, store.pathOf(key), StandardCopyOption.REPLACE_EXISTING);
        assertThrows(StaleWriteException.class, () -> store.write(key, proto(key, 99), first));
        ReadResult now = store.read(key);
        assertEquals(55, now.proto().orElseThrow().getSummary().getTotalFrames());
        store.write(key, proto(key, 56), now.stamp());
        assertEquals(List.of(".lock", "1700006400000/", "1700006400000/com.example.app/",
                "1700006400000/com.example.app/42/", "1700006400000/com.example.app/42/total"), tree(root));
    }

    @Test
    void shouldMergeAgainWhenTheFileChangesDuringAnUpdate() throws IOException {
        store.update(key, stored -> {
            assertTrue(stored.isEmpty());
            return proto(key, 10);
        });
        List<Integer> seen = new ArrayList<>();
        store.update(key, stored -> {
            int frames = stored.orElseThrow().getSummary().getTotalFrames();
            seen.add(frames);
            if (seen.size() == 1) {
                // someone else saves between our read and our write
                Path copy = Files.write(tmp.resolve("copy"), DayFileCodec.encode(proto(key, 100)));
                Files.move(copy, store.pathOf(key), StandardCopyOption.REPLACE_EXISTING);
            }
            return proto(key, frames + 1);
        });
        assertEquals(List.of(10, 100), seen, "merged again with what was really on disk");
        assertEquals(101, store.read(key).proto().orElseThrow().getSummary().getTotalFrames());
    }

    @Test
    void shouldRefuseProtoThatContradictsItsPath() throws IOException {
        EntryKey other = new EntryKey(DAY, "com.other", 42);
        assertThrows(IllegalArgumentException.class, () -> store.write(key, proto(other, 1), FileStamp.ABSENT));
        EntryKey otherVersion = new EntryKey(DAY, key.packageName(), 43);
        assertThrows(IllegalArgumentException.class, () -> store.write(key, proto(otherVersion, 1), FileStamp.ABSENT));
        EntryKey nextDay = new EntryKey(DAY + Days.MILLIS_PER_DAY, key.packageName(), 42);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> store.write(key, proto(nextDay, 1), FileStamp.ABSENT));
        assertTrue(e.getMessage().contains("not on day 1700006400000"), e.getMessage());
        GraphicsStatsProto badHistogram = proto(key, 1).toBuilder()
                .addHistogram(GraphicsStatsHistogramBucketProto.newBuilder().setRenderMillis(9999)).build();
        assertThrows(IllegalArgumentException.class, () -> store.write(key, badHistogram, FileStamp.ABSENT));
        assertEquals(List.of(".lock"), tree(root));
    }

    @Test
    void shouldLetAReaderHoldingTheOldFileFinishReadingIt() throws IOException {
        FileStamp s = store.write(key, proto(key, 1), FileStamp.ABSENT);
        byte[] oldBytes = Files.readAllBytes(store.pathOf(key));
        try (FileChannel reader = FileChannel.open(store.pathOf(key), StandardOpenOption.READ)) {
            ByteBuffer firstHalf = ByteBuffer.allocate(oldBytes.length / 2);
            reader.read(firstHalf);

            store.write(key, proto(key, 2_000_000), s);

            ByteBuffer rest = ByteBuffer.allocate(oldBytes.length);
            while (reader.read(rest) > 0) {
                // keep reading the old inode
            }
            byte[] seen = new byte[firstHalf.position() + rest.position()];
            System.arraycopy(firstHalf.array(), 0, seen, 0, firstHalf.position());
            System.arraycopy(rest.array(), 0, seen, firstHalf.position(), rest.position());
            assertArrayEquals(oldBytes, seen, "the open reader sees the complete old file, not a mix");
        }
        assertEquals(2_000_000, store.read(key).proto().orElseThrow().getSummary().getTotalFrames());
    }

    @Test
    void shouldNeverShowConcurrentReadersATornOrMissingFile() throws Exception {
        store.write(key, proto(key, 0), FileStamp.ABSENT);
        AtomicBoolean writing = new AtomicBoolean(true);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            Future<Integer> writer = pool.submit(() -> {
                try {
                    for (int i = 1; i <= 150; i++) {
                        store.write(key, proto(key, i * 1000), store.stamp(key));
                    }
                    return 150;
                } finally {
                    writing.set(false);
                }
            });
            Future<Integer> reader = pool.submit(() -> {
                int reads = 0;
                int last = 0;
                while (writing.get() || reads == 0) {
                    ReadResult r = store.read(key);
                    int frames = assertInstanceOf(ReadResult.Found.class, r).stored().getSummary().getTotalFrames();
                    assertEquals(0, frames % 1000, "a complete proto from one write");
                    assertTrue(frames >= last, "never goes back to an older file");
                    last = frames;
                    reads++;
                }
                return reads;
            });
            assertEquals(150, writer.get(60, TimeUnit.SECONDS));
            assertTrue(reader.get(60, TimeUnit.SECONDS) > 0);
        } finally {
            pool.shutdownNow();
        }
        assertEquals(150_000, store.read(key).proto().orElseThrow().getSummary().getTotalFrames());
        assertFalse(Files.exists(store.quarantineRoot()), "nothing was ever considered corrupt");
        assertEquals(List.of("total"), names(root.resolve("1700006400000/com.example.app/42")));
    }

    @Test
    void shouldListEntriesInDayPackageVersionOrder() throws IOException {
        long d2 = DAY + Days.MILLIS_PER_DAY;
        List<EntryKey> keys = new ArrayList<>(List.of(
                new EntryKey(DAY, "com.b", 9), new EntryKey(DAY, "com.b", 10), new EntryKey(DAY, "com.B", 1),
                new EntryKey(DAY, "com.a", 100), new EntryKey(d2, "com.a", 1), new EntryKey(DAY, "com.b", 0)));
        Collections.shuffle(keys, new Random(7));
        for (EntryKey k : keys) {
            store.write(k, proto(k, 1), FileStamp.ABSENT);
        }
        List<EntryKey> expected = List.of(new EntryKey(DAY, "com.B", 1), new EntryKey(DAY, "com.a", 100),
                new EntryKey(DAY, "com.b", 0), new EntryKey(DAY, "com.b", 9), new EntryKey(DAY, "com.b", 10),
                new EntryKey(d2, "com.a", 1));
        assertEquals(expected, store.list().stream().map(StoredEntry::key).toList());
        assertEquals(expected.subList(0, 5), store.list(DAY).stream().map(StoredEntry::key).toList());
        assertEquals(root.resolve("1700006400000/com.B/1/total"), store.list().get(0).path());
        assertEquals(List.of(DAY, d2), store.days());
    }

    @Test
    void shouldSkipForeignNamesWhenListingAndLeaveThemAlone() throws IOException {
        EntryKey good = new EntryKey(DAY, "com.good", 1);
        store.write(good, proto(good, 1), FileStamp.ABSENT);
        Path day = root.resolve("1700006400000");
        Files.createDirectories(root.resolve("notes"));
        Files.createDirectories(root.resolve("12345/com.x/1"));           // numeric, not a midnight
        Files.write(root.resolve("12345/com.x/1/total"), new byte[] {1, 0, 0, 0});
        Files.createDirectories(root.resolve("01700006400000/com.x/1"));  // not canonical
        Files.write(root.resolve("1728000000000"), new byte[] {1});        // a file where a day dir belongs
        Files.createDirectories(day.resolve("Bad..Name/1"));
        Files.write(day.resolve("Bad..Name/1/total"), new byte[] {1, 0, 0, 0});
        Files.createDirectories(day.resolve("com.good/latest"));
        Files.createDirectories(day.resolve("com.good/007"));
        Files.createDirectories(day.resolve("com.good/-1"));
        Files.createDirectories(day.resolve("com.good/99999999999999999999")); // past int64
        Files.createDirectories(day.resolve("com.good/5"));                 // no total yet: not an entry
        Files.write(day.resolve("com.good/1/README"), new byte[] {1});
        List<String> before = tree(root);

        assertEquals(List.of(good), store.list().stream().map(StoredEntry::key).toList());
        assertEquals(List.of(DAY), store.days());
        assertEquals(before, tree(root), "listing never deletes or moves foreign things");
    }

    @Test
    void shouldRefuseASecondOpenOfTheSameRootUntilClosed() throws IOException {
        StoreLockedException e = assertThrows(StoreLockedException.class, () -> DayStore.open(root, CLOCK));
        assertTrue(e.getMessage().contains(root.toString()), e.getMessage());
        store.close();
        assertThrows(IllegalStateException.class, () -> store.read(key));
        try (DayStore again = DayStore.open(root, CLOCK)) {
            assertTrue(again.read(key) instanceof ReadResult.Missing);
        }
    }

    @Test
    void shouldRemoveTempFilesLeftByAnInterruptedWriteOnOpen() throws IOException {
        FileStamp s = store.write(key, proto(key, 5), FileStamp.ABSENT);
        store.close();
        // what a writer killed between creating and renaming its temp file leaves behind
        Path dir = root.resolve("1700006400000/com.example.app/42");
        Files.write(dir.resolve(".total.tmp-00112233aabbccdd"), new byte[] {1, 0, 0});
        Files.write(dir.resolve("other-file"), new byte[] {1});

        store = DayStore.open(root, CLOCK);
        assertEquals(List.of("other-file", "total"), names(dir));
        ReadResult r = store.read(key);
        assertEquals(5, r.proto().orElseThrow().getSummary().getTotalFrames());
        assertEquals(s, r.stamp());
    }

    @Test
    void shouldCreateTheRootWithOwnerOnlyPermissions() throws IOException {
        Path nested = tmp.resolve("a/b/c");
        try (DayStore s = DayStore.open(nested, CLOCK)) {
            assertEquals(nested, s.root());
            assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(nested)));
        }
        Path file = Files.write(tmp.resolve("plain-file"), new byte[0]);
        assertThrows(IOException.class, () -> DayStore.open(file, CLOCK));
    }

    private static List<String> names(Path dir) throws IOException {
        try (var s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }
}
