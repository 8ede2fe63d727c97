package io.gfxstats.client;

import io.gfxstats.buffer.BufferReader;
import io.gfxstats.buffer.BufferSnapshot;
import io.gfxstats.buffer.FrameStream;
import io.gfxstats.buffer.TestBuffers;
import io.gfxstats.testing.JavaProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.*;

class ClientProcessTest {
    @TempDir
    Path dir;

    @Test
    void shouldLeaveEveryFrameOfAClientKilledWithSigkillInItsBuffer() throws Exception {
        Process p = JavaProcess.start(ClientProcess.class, dir.toString(), "77", "50000");
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
            assertEquals("recorded", out.readLine());
            p.destroyForcibly();
            assertTrue(p.waitFor(10, TimeUnit.SECONDS));
        } finally {
            p.destroyForcibly();
        }
        try (BufferReader reader = BufferReader.open(onlyBuffer(), TestBuffers.uid())) {
            BufferSnapshot s = reader.snapshot();
            assertArrayEquals(FrameStream.expected(77, 50_000).toArray(), s.counters(),
                    "every frame recorded and drained is in the file after SIGKILL");
            assertEquals(p.pid(), s.pid());
            assertTrue(s.heartbeatMillis() > 0, "the dead client had published heartbeats");
            assertEquals(2, s.claimedStripes(), "a killed writer leaves its claims (session home + tracker)");
        }
    }

    @Test
    void shouldCountTheFramesStillInTheRingWhenTheProcessExitsWithoutClosing() throws Exception {
        // The child records into rings its drain thread does not empty (paused) and exits with
        // System.exit: only the session's shutdown hook can count those frames.
        Process p = JavaProcess.start(ClientProcess.class, dir.toString(), "78", "900", "exit");
        try {
            assertTrue(p.waitFor(60, TimeUnit.SECONDS));
            assertEquals(0, p.exitValue(), "the frames waited in the ring until exit");
        } finally {
            p.destroyForcibly();
        }
        try (BufferReader reader = BufferReader.open(onlyBuffer(), TestBuffers.uid())) {
            assertArrayEquals(FrameStream.expected(78, 900).toArray(), reader.snapshot().counters(),
                    "the shutdown hook counted every frame of the rings");
        }
    }

    /** The one buffer file the child left in the directory. */
    private Path onlyBuffer() throws IOException {
        List<Path> files;
        try (Stream<Path> s = Files.list(dir)) {
            files = s.toList();
        }
        assertEquals(1, files.size());
        return files.get(0);
    }
}
