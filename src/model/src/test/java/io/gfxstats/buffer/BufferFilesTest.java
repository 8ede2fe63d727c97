package io.gfxstats.buffer;

import io.gfxstats.stats.Counters;
import io.gfxstats.stats.Pipeline;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

import static io.gfxstats.buffer.BufferDescriptor.*;
import static org.junit.jupiter.api.Assertions.*;

class BufferFilesTest {
    @TempDir
    Path dir;

    @Test
    void shouldCreateReadyBufferWhoseHeaderReadsBackAsSpecified() throws IOException {
        BufferSpec spec = BufferSpec.builder()
                .pid(4242).uid(10123).packageName("com.example.game").versionCode(9_000_000_001L)
                .registrationId("0f8e-registration").statsStartMillis(TestBuffers.START).pipeline(Pipeline.GL)
                .stripeCount(5).predecessorId("older-id").build();
        Path file = dir.resolve("b.gfxbuf");
        BufferFiles.CreatedBuffer created = BufferFiles.create(file, spec,
                PosixFilePermissions.fromString("rw-rw----"));

        assertEquals(totalLength(5, CounterGroups.KNOWN), created.length());
        assertEquals(created.length(), Files.size(file));
        assertEquals(CURRENT_LAYOUT_VERSION, created.layoutVersion());
        assertEquals("rw-rw----", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)),
                "permissions are exact, not filtered by the umask");
        try (BufferReader reader = BufferReader.open(file, TestBuffers.uid(), created.length())) {
            BufferSnapshot s = reader.snapshot();
            assertEquals(BufferState.READY, s.state());
            assertEquals(4242, s.pid());
            assertEquals(10123, s.uid());
            assertEquals("com.example.game", s.packageName());
            assertEquals(9_000_000_001L, s.versionCode());
            assertEquals("0f8e-registration", s.registrationId());
            assertEquals("older-id", s.predecessorId());
            assertEquals("", s.successorId());
            assertEquals(TestBuffers.START, s.statsStartMillis());
            assertEquals(0, s.heartbeatMillis());
            assertEquals(Pipeline.GL, s.pipeline());
            assertEquals(5, s.stripeCount());
            assertEquals(0, s.claimedStripes());
            assertArrayEquals(new long[Counters.COUNT], s.counters());
        }
    }

    @Test
    void shouldKeepEveryCounterAlignedAndTheDocumentedOffsets() {
        assertEquals(0, STATE_OFFSET % 4);
        assertEquals(0, TOTAL_LENGTH_OFFSET % 8);
        assertEquals(0, VERSION_CODE_OFFSET % 8);
        assertEquals(0, STATS_START_OFFSET % 8);
        assertEquals(0, HEARTBEAT_OFFSET % 8);
        assertEquals(72, PACKAGE_NAME_OFFSET);
        assertEquals(332, REGISTRATION_ID_OFFSET);
        assertEquals(536, claimsOffset(LAYOUT_VERSION_1));
        assertEquals(768, stripeLength(LAYOUT_VERSION_1));
        assertEquals(640, headerLength(LAYOUT_VERSION_1, 16));
        assertEquals(640 + 17 * 768, totalLength(LAYOUT_VERSION_1, 16));
        for (int stripes : new int[] {1, 7, 16, MAX_STRIPES}) {
            for (int s = 0; s <= stripes; s++) {
                assertEquals(0, stripeOffset(LAYOUT_VERSION_1, stripes, s) % 64, "stripes start on a cache line");
            }
            assertEquals(0, claimOffset(LAYOUT_VERSION_1, stripes) % 4);
        }
    }

    @Test
    void shouldRefuseToReplaceAnExistingFile() throws IOException {
        Path file = dir.resolve("taken");
        Files.writeString(file, "precious");
        assertThrows(FileAlreadyExistsException.class,
                () -> BufferFiles.create(file, TestBuffers.spec("id", 2), BufferFiles.OWNER_READ_WRITE));
        assertEquals("precious", Files.readString(file));
    }

    @Test
    void shouldNeverCreateThroughASymbolicLink() throws IOException {
        Path target = dir.resolve("elsewhere");
        Path link = Files.createSymbolicLink(dir.resolve("link"), target);
        assertThrows(FileAlreadyExistsException.class,
                () -> BufferFiles.create(link, TestBuffers.spec("id", 2), BufferFiles.OWNER_READ_WRITE));
        assertFalse(Files.exists(target));
    }

    @Test
    void shouldRejectSpecsThatCannotBeWrittenFaithfully() {
        BufferSpec.Builder ok = BufferSpec.builder().pid(1).packageName("p").registrationId("r");
        assertDoesNotThrow(ok::build);
        assertThrows(IllegalArgumentException.class, () -> ok.packageName("").build());
        assertThrows(IllegalArgumentException.class, () -> ok.packageName("x".repeat(257)).build());
        assertThrows(IllegalArgumentException.class, () -> ok.packageName("a\nb").build());
        ok.packageName("p");
        assertThrows(IllegalArgumentException.class, () -> ok.registrationId("has space").build());
        assertThrows(IllegalArgumentException.class, () -> ok.registrationId("r".repeat(65)).build());
        ok.registrationId("r");
        assertThrows(IllegalArgumentException.class, () -> ok.stripeCount(0).build());
        assertThrows(IllegalArgumentException.class, () -> ok.stripeCount(256).build());
        ok.stripeCount(1);
        assertThrows(IllegalArgumentException.class, () -> ok.pid(0).build());
        ok.pid(1);
        assertThrows(IllegalArgumentException.class, () -> ok.statsStartMillis(-1).build());
    }
}
