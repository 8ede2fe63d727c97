package io.gfxstats.buffer;

import io.gfxstats.stats.ProfileData;
import io.gfxstats.testing.JavaProcess;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.*;

/** Real JVM processes writing and reading one buffer file at the same time. */
class MultiProcessBufferTest {
    private static final int THREADS = 4;
    private static final int FRAMES = 250_000;

    @TempDir
    Path dir;

    private final List<Process> processes = new ArrayList<>();

    @AfterEach
    void killLeftovers() throws InterruptedException {
        for (Process p : processes) {
            if (p.isAlive()) {
                p.destroyForcibly();
                p.waitFor(10, TimeUnit.SECONDS);
            }
        }
    }

    private Child start(Class<?> main, String... args) throws IOException {
        Process p = JavaProcess.start(main, args);
        processes.add(p);
        return new Child(p);
    }

    @Test
    void shouldCountExactlyWhileTwoProcessesWriteOneBufferWithSeveralThreadsAndAThirdSnapshots() throws Exception {
        // 3 writer stripes for 8 writers: 3 count with plain stores, 5 share a stripe with atomic adds.
        Path file = TestBuffers.create(dir, "shared.gfxbuf", 3);
        Child reader = start(ReaderProcess.class, file.toString(), String.valueOf(2 * THREADS));
        Child w1 = start(WriterProcess.class, file.toString(), String.valueOf(THREADS), String.valueOf(FRAMES), "1000");
        Child w2 = start(WriterProcess.class, file.toString(), String.valueOf(THREADS), String.valueOf(FRAMES), "2000");
        for (Child c : List.of(reader, w1, w2)) {
            assertEquals("ready", c.line());
        }
        w1.send("go");
        w2.send("go");
        assertEquals("done", w1.line());
        assertEquals("done", w2.line());
        assertEquals(0, w1.exit());
        assertEquals(0, w2.exit());
        reader.send("stop");
        String result = reader.line();
        assertEquals(0, reader.exit());

        System.out.println("reader: " + result);
        Matcher m = Pattern.compile("snapshots=(\\d+) progressed=(\\d+) violations=(\\d+) maxExcess=(-?\\d+) first=(.*)")
                .matcher(result);
        assertTrue(m.matches(), result);
        assertEquals(0, Long.parseLong(m.group(3)), "reader saw: " + m.group(5));
        assertTrue(Long.parseLong(m.group(2)) >= 2, "the reader snapshotted while the writers ran: " + result);

        ProfileData expected = FrameStream.expected(1000, THREADS, FRAMES);
        expected.merge(FrameStream.expected(2000, THREADS, FRAMES));
        try (BufferReader r = BufferReader.open(file, TestBuffers.uid())) {
            BufferSnapshot s = r.snapshot();
            assertArrayEquals(expected.toArray(), s.counters(), "every counter of 8 writers in 2 processes");
            assertEquals(0, s.claimedStripes(), "writers gave their stripes back");
        }
    }

    private static final class Child {
        final Process process;
        final BufferedReader out;
        final OutputStream in;

        Child(Process process) {
            this.process = process;
            this.out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
            this.in = process.getOutputStream();
        }

        String line() throws IOException {
            String line = out.readLine();
            assertNotNull(line, "child exited early");
            return line;
        }

        void send(String line) throws IOException {
            in.write((line + "\n").getBytes(StandardCharsets.UTF_8));
            in.flush();
        }

        int exit() throws InterruptedException {
            assertTrue(process.waitFor(60, TimeUnit.SECONDS), "child did not exit");
            return process.exitValue();
        }
    }
}
