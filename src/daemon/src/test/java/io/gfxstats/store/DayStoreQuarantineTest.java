package io.gfxstats.store;

import static io.gfxstats.store.StoreFixtures.CLOCK;
import static io.gfxstats.store.StoreFixtures.DAY;
import static io.gfxstats.store.StoreFixtures.NOW;
import static io.gfxstats.store.StoreFixtures.encoded;
import static io.gfxstats.store.StoreFixtures.plant;
import static io.gfxstats.store.StoreFixtures.proto;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.gfxstats.dayfile.DayFileCodec;
import io.gfxstats.proto.GraphicsStatsHistogramBucketProto;
import io.gfxstats.proto.GraphicsStatsProto;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class DayStoreQuarantineTest {
    static final EntryKey KEY = new EntryKey(DAY, "com.example.app", 42);
    static final EntryKey NEIGHBOUR = new EntryKey(DAY, "com.example.other", 1);

    @TempDir
    Path tmp;
    Path root;
    DayStore store;

    @BeforeEach
    void open() throws IOException {
        root = tmp.resolve("data");
        store = DayStore.open(root, CLOCK);
        store.write(NEIGHBOUR, proto(NEIGHBOUR, 3), FileStamp.ABSENT);
    }

    @AfterEach
    void close() throws IOException {
        store.close();
    }

    static Stream<Arguments> unusableFiles() {
        byte[] good = encoded(KEY, 10);
        byte[] body = proto(KEY, 10).toByteArray();
        ByteBuffer v2 = ByteBuffer.allocate(4 + body.length).order(ByteOrder.LITTLE_ENDIAN).putInt(2).put(body);
        GraphicsStatsProto tenBuckets = GraphicsStatsProto.newBuilder().setPackageName(KEY.packageName())
                .setVersionCode(KEY.versionCode())
                .addAllHistogram(Stream.generate(() -> GraphicsStatsHistogramBucketProto.newBuilder()
                        .setRenderMillis(5).setFrameCount(1).build()).limit(10).toList()).build();
        GraphicsStatsProto relabelled = proto(KEY, 10).toBuilder()
                .setGpuHistogram(0, GraphicsStatsHistogramBucketProto.newBuilder().setRenderMillis(77)).build();
        return Stream.of(
                Arguments.of("empty", new byte[0], "too short"),
                Arguments.of("truncated header", new byte[] {1, 0}, "too short"),
                Arguments.of("wrong version", v2.array(), "version 2"),
                Arguments.of("zero-filled", new byte[64], "version 0"),
                Arguments.of("unparseable body", new byte[] {1, 0, 0, 0, 0x0f, 1, 2}, "does not parse"),
                Arguments.of("truncated body", Arrays.copyOf(good, good.length - 1), "does not parse"),
                Arguments.of("histogram with 10 buckets", DayFileCodec.encode(tenBuckets), "histogram"),
                Arguments.of("relabelled gpu bucket", DayFileCodec.encode(relabelled), "histogram"),
                Arguments.of("another package's file", encoded(new EntryKey(DAY, "com.elsewhere", 42), 10),
                        "holds package \"com.elsewhere\""),
                Arguments.of("another version's file", encoded(new EntryKey(DAY, KEY.packageName(), 41), 10),
                        "holds version 41"),
                Arguments.of("another day's file", encoded(new EntryKey(DAY - Days.MILLIS_PER_DAY,
                        KEY.packageName(), 42), 10), "not on day"),
                Arguments.of("a shell script", "#!/bin/sh\necho hi\n".getBytes(StandardCharsets.US_ASCII),
                        "expected 1"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("unusableFiles")
    void shouldQuarantineUnusableFileAndKeepEverythingElse(String what, byte[] content, String reason)
            throws IOException {
        Path file = plant(root, KEY, content);

        ReadResult r = store.read(KEY);

        ReadResult.Quarantined q = assertInstanceOf(ReadResult.Quarantined.class, r, what);
        QuarantineEvent e = q.event();
        assertTrue(e.reason().contains(reason), () -> "'" + e.reason() + "' should say " + reason);
        assertEquals(KEY, e.key());
        assertEquals(file, e.from());
        assertEquals(root.resolve("quarantine/1700006400000/com.example.app/42/total." + NOW), e.quarantinedTo());
        assertEquals(NOW, e.atMillis());
        assertArrayEquals(content, Files.readAllBytes(e.quarantinedTo()), "moved, byte for byte, never deleted");
        assertFalse(Files.exists(file, LinkOption.NOFOLLOW_LINKS));
        assertTrue(r.stamp().isAbsent());

        assertInstanceOf(ReadResult.Missing.class, store.read(KEY), "now simply absent");
        assertEquals(List.of(NEIGHBOUR), store.list().stream().map(StoredEntry::key).toList());
        assertEquals(3, store.read(NEIGHBOUR).proto().orElseThrow().getSummary().getTotalFrames());

        store.write(KEY, proto(KEY, 8), r.stamp());
        assertEquals(8, store.read(KEY).proto().orElseThrow().getSummary().getTotalFrames());
        assertArrayEquals(content, Files.readAllBytes(e.quarantinedTo()), "the new file did not touch it");
    }

    @Test
    void shouldNeverOverwriteAnEarlierQuarantinedFile() throws IOException {
        plant(root, KEY, new byte[] {9});
        QuarantineEvent first = store.read(KEY).quarantine().orElseThrow();
        plant(root, KEY, new byte[] {8, 8});
        QuarantineEvent second = store.read(KEY).quarantine().orElseThrow();
        plant(root, KEY, new byte[] {7, 7, 7});
        QuarantineEvent third = store.read(KEY).quarantine().orElseThrow();

        assertEquals("total." + NOW, first.quarantinedTo().getFileName().toString());
        assertEquals("total." + NOW + "-1", second.quarantinedTo().getFileName().toString());
        assertEquals("total." + NOW + "-2", third.quarantinedTo().getFileName().toString());
        assertArrayEquals(new byte[] {9}, Files.readAllBytes(first.quarantinedTo()));
        assertArrayEquals(new byte[] {8, 8}, Files.readAllBytes(second.quarantinedTo()));
        assertArrayEquals(new byte[] {7, 7, 7}, Files.readAllBytes(third.quarantinedTo()));
    }

    @Test
    void shouldQuarantineADirectoryWhereTheFileBelongsWithItsContents() throws IOException {
        Path total = root.resolve("1700006400000/com.example.app/42/total");
        Files.createDirectories(total);
        Files.write(total.resolve("inside"), new byte[] {5});

        QuarantineEvent e = store.read(KEY).quarantine().orElseThrow();

        assertTrue(e.reason().contains("directory"), e.reason());
        assertArrayEquals(new byte[] {5}, Files.readAllBytes(e.quarantinedTo().resolve("inside")));
        assertInstanceOf(ReadResult.Missing.class, store.read(KEY));
    }

    @Test
    void shouldQuarantineAFifoWithoutBlockingOnIt() throws Exception {
        Path dir = Files.createDirectories(root.resolve("1700006400000/com.example.app/42"));
        Process mkfifo;
        try {
            mkfifo = new ProcessBuilder("mkfifo", dir.resolve("total").toString()).start();
        } catch (IOException e) {
            assumeTrue(false, "mkfifo not available");
            return;
        }
        assumeTrue(mkfifo.waitFor() == 0, "mkfifo failed");

        QuarantineEvent e = store.read(KEY).quarantine().orElseThrow();

        assertTrue(e.reason().contains("special file"), e.reason());
        assertTrue(Files.readAttributes(e.quarantinedTo(), java.nio.file.attribute.BasicFileAttributes.class,
                LinkOption.NOFOLLOW_LINKS).isOther());
    }

    @Test
    void shouldLogExactlyOneLinePerQuarantine() throws IOException {
        plant(root, KEY, new byte[] {1, 0});
        PrintStream original = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            store.read(KEY);
            store.read(KEY);
            store.list();
            store.read(NEIGHBOUR);
        } finally {
            System.setErr(original);
        }
        List<String> lines = captured.toString(StandardCharsets.UTF_8).lines().toList();
        assertEquals(1, lines.size(), () -> "log: " + lines);
        assertTrue(lines.get(0).contains("WARN"), lines.get(0));
        assertTrue(lines.get(0).contains("quarantined " + root.resolve("1700006400000/com.example.app/42/total")
                + " -> " + root.resolve("quarantine/1700006400000/com.example.app/42/total." + NOW)), lines.get(0));
        assertTrue(lines.get(0).contains("too short"), lines.get(0));
    }

    @Test
    void shouldQuarantineAFileTooLargeToBeADayFileWithoutReadingIt() throws IOException {
        Path file = plant(root, KEY, new byte[] {1, 0, 0, 0});
        try (java.io.RandomAccessFile raf = new java.io.RandomAccessFile(file.toFile(), "rw")) {
            raf.setLength(DayStore.MAX_FILE_BYTES + 1); // sparse: costs no disk
        }
        QuarantineEvent e = store.read(KEY).quarantine().orElseThrow();
        assertTrue(e.reason().contains("more than the day-file size cap"), e.reason());
        assertEquals(DayStore.MAX_FILE_BYTES + 1, Files.size(e.quarantinedTo()));
    }

    @Test
    void shouldNotQuarantineAValidFileWithoutPackageOrStart() throws IOException {
        // Older or partial writers may leave fields unset; that is not a contradiction.
        GraphicsStatsProto bare = GraphicsStatsProto.newBuilder().build();
        plant(root, KEY, DayFileCodec.encode(bare));
        ReadResult r = store.read(KEY);
        assertEquals(bare, assertInstanceOf(ReadResult.Found.class, r).stored());
        assertNull(r.quarantine().orElse(null));
        assertFalse(Files.exists(store.quarantineRoot().resolve("1700006400000/com.example.app")));
    }
}
