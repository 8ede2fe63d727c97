package io.gfxstats.buffer;

import io.gfxstats.buffer.BufferFormatException.Reason;
import io.gfxstats.stats.Counters;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import static io.gfxstats.buffer.BufferDescriptor.*;
import static org.junit.jupiter.api.Assertions.*;

class BufferReaderTest {
    @TempDir
    Path dir;

    private Path buffer() throws IOException {
        return TestBuffers.create(dir, "b.gfxbuf", 4);
    }

    private Reason rejection(Path file) {
        return rejection(file, -1);
    }

    private Reason rejection(Path file, long expectedLength) {
        BufferFormatException e = assertThrows(BufferFormatException.class, () -> {
            if (expectedLength < 0) {
                BufferReader.open(file, TestBuffers.uid()).close();
            } else {
                BufferReader.open(file, TestBuffers.uid(), expectedLength).close();
            }
        });
        assertTrue(e.getMessage().contains(file.toString()), "the message names the file: " + e.getMessage());
        return e.reason();
    }

    @Test
    void shouldRejectWrongMagic() throws IOException {
        Path file = buffer();
        TestBuffers.putInt(file, MAGIC_OFFSET, 0x12345678);
        assertEquals(Reason.WRONG_MAGIC, rejection(file));
    }

    @Test
    void shouldRejectAFileThatIsNotABufferAtAll() throws IOException {
        Path file = dir.resolve("text");
        Files.writeString(file, "this is a perfectly ordinary text file, long enough to hold a header prefix");
        assertEquals(Reason.WRONG_MAGIC, rejection(file));
    }

    @Test
    void shouldRejectShortFiles() throws IOException {
        Path empty = Files.createFile(dir.resolve("empty"));
        assertEquals(Reason.TOO_SHORT, rejection(empty));

        Path headerOnly = buffer();
        TestBuffers.truncate(headerOnly, 100);
        assertEquals(Reason.TOO_SHORT, rejection(headerOnly));

        Path cut = TestBuffers.create(dir, "cut", 4);
        TestBuffers.truncate(cut, Files.size(cut) - 4);
        assertEquals(Reason.TOO_SHORT, rejection(cut));
    }

    @Test
    void shouldRejectFutureAndUnknownLayoutVersions() throws IOException {
        Path file = buffer();
        TestBuffers.putInt(file, LAYOUT_VERSION_OFFSET, CURRENT_LAYOUT_VERSION + 1);
        assertEquals(Reason.UNSUPPORTED_VERSION, rejection(file));
        TestBuffers.putInt(file, LAYOUT_VERSION_OFFSET, 0);
        assertEquals(Reason.UNSUPPORTED_VERSION, rejection(file));
    }

    @Test
    void shouldRejectABufferItsCreatorHasNotMarkedReady() throws IOException {
        Path file = buffer();
        TestBuffers.putInt(file, STATE_OFFSET, STATE_INITIALISING);
        assertEquals(Reason.NOT_READY, rejection(file));
    }

    @Test
    void shouldRejectSizeMismatches() throws IOException {
        Path grown = buffer();
        Files.write(grown, new byte[64], StandardOpenOption.APPEND);
        assertEquals(Reason.SIZE_MISMATCH, rejection(grown));

        Path ok = TestBuffers.create(dir, "ok", 4);
        assertEquals(Reason.SIZE_MISMATCH, rejection(ok, Files.size(ok) + 768));
    }

    @Test
    void shouldRejectInconsistentHeaders() throws IOException {
        Path stripes = TestBuffers.create(dir, "stripes", 4);
        TestBuffers.putInt(stripes, STRIPE_COUNT_OFFSET, 0);
        assertEquals(Reason.CORRUPT_HEADER, rejection(stripes));

        Path declared = TestBuffers.create(dir, "declared", 4);
        TestBuffers.putLong(declared, TOTAL_LENGTH_OFFSET, 1 << 20);
        assertEquals(Reason.CORRUPT_HEADER, rejection(declared));

        Path name = TestBuffers.create(dir, "name", 4);
        TestBuffers.putInt(name, PACKAGE_NAME_OFFSET, PACKAGE_NAME_MAX_BYTES + 1);
        assertEquals(Reason.CORRUPT_HEADER, rejection(name));

        Path state = TestBuffers.create(dir, "state", 4);
        TestBuffers.putInt(state, STATE_OFFSET, 7);
        assertEquals(Reason.CORRUPT_HEADER, rejection(state));
    }

    @Test
    void shouldRejectSymbolicLinksAndNonFilesWithoutFollowingThem() throws IOException {
        Path real = buffer();
        Path link = Files.createSymbolicLink(dir.resolve("link.gfxbuf"), real);
        assertEquals(Reason.NOT_REGULAR_FILE, rejection(link));
        assertEquals(Reason.NOT_REGULAR_FILE, rejection(Files.createDirectory(dir.resolve("d"))));
        assertThrows(NoSuchFileException.class, () -> BufferReader.open(dir.resolve("missing"), TestBuffers.uid()));
    }

    @Test
    void shouldRejectAFileOwnedByAnotherUid() throws IOException {
        Path file = buffer();
        BufferFormatException e = assertThrows(BufferFormatException.class,
                () -> BufferReader.open(file, TestBuffers.uid() + 1));
        assertEquals(Reason.WRONG_OWNER, e.reason());
    }

    @Test
    void shouldReportTruncationUnderTheMappingInsteadOfCrashing() throws IOException {
        Path file = buffer();
        try (BufferReader reader = BufferReader.open(file, TestBuffers.uid())) {
            assertEquals(0, reader.snapshot().totalFrames());
            TestBuffers.truncate(file, 64);
            BufferFormatException e = assertThrows(BufferFormatException.class, reader::snapshot);
            assertEquals(Reason.TOO_SHORT, e.reason());
        }
    }

    @Test
    void shouldSumAllStripesAndNeverWriteTheFile() throws IOException {
        Path file = buffer();
        try (BufferWriter writer = BufferWriter.open(file)) {
            StripeWriter a = writer.claimStripe();
            StripeWriter b = writer.claimStripe();
            a.increment(Counters.TOTAL_FRAMES);
            b.increment(Counters.TOTAL_FRAMES);
            b.add(Counters.cpuBucket(60), 5);
            a.release();
            b.release();
        }
        byte[] before = Files.readAllBytes(file);
        try (BufferReader reader = BufferReader.open(file, TestBuffers.uid(), before.length)) {
            BufferSnapshot s = reader.snapshot();
            assertEquals(2, s.totalFrames());
            assertEquals(5, s.counter(Counters.cpuBucket(60)));
            assertEquals(0, s.claimedStripes(), "released stripes keep their counts but not their claim");
            assertEquals("com.example.app", reader.packageName());
            assertEquals(42, reader.versionCode());
        }
        assertArrayEquals(before, Files.readAllBytes(file));
    }

    @Test
    void shouldReadCountersAsUnsigned32Bit() throws IOException {
        Path file = buffer();
        long stripe1 = stripeOffset(LAYOUT_VERSION_1, 4, 1);
        long stripe2 = stripeOffset(LAYOUT_VERSION_1, 4, 2);
        TestBuffers.putInt(file, stripe1, -1);
        TestBuffers.putInt(file, stripe2, -1);
        try (BufferReader reader = BufferReader.open(file, TestBuffers.uid())) {
            assertEquals(2 * 0xffff_ffffL, reader.snapshot().totalFrames());
        }
    }

    @Test
    void shouldNeverMapTheFileAndRefuseSnapshotsAfterClose() throws IOException {
        Path file = buffer();
        BufferReader reader = BufferReader.open(file, TestBuffers.uid());
        reader.snapshot();
        assertEquals(java.util.List.of(), TestBuffers.mappingsOf(file), "the daemon side reads, never maps");
        reader.close();
        assertTrue(reader.isClosed());
        assertThrows(IllegalStateException.class, reader::snapshot);
        reader.close();
    }

    @Test
    void shouldKeepReadingAFileUnlinkedAfterOpening() throws IOException {
        Path file = buffer();
        try (BufferWriter writer = BufferWriter.open(file);
             BufferReader reader = BufferReader.open(file, TestBuffers.uid())) {
            Files.delete(file);
            StripeWriter s = writer.claimStripe();
            s.increment(Counters.TOTAL_FRAMES);
            assertEquals(1, reader.snapshot().totalFrames());
            s.release();
        }
    }
}
