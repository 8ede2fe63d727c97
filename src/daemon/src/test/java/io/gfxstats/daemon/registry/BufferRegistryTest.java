package io.gfxstats.daemon.registry;

import io.gfxstats.buffer.BufferReader;
import io.gfxstats.buffer.TestBuffers;
import io.gfxstats.stats.Pipeline;
import io.gfxstats.testing.Await;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The daemon's table of live buffers, over real buffer files: its bound, its counts per process and user, its releases. */
class BufferRegistryTest {
    @TempDir
    Path dir;

    private int files;

    private LiveBuffer add(BufferRegistry r, String key, int pid, int uid) throws IOException {
        Path file = TestBuffers.create(dir, key + "-" + files++, 1);
        return r.add(key, pid, uid, "com.example." + key, 1, Pipeline.GL, file, BufferReader.open(file, TestBuffers.uid()),
                new long[0], 1_700_000_000_000L);
    }

    @Test
    void shouldBeFullAtItsBoundAndCountByProcessAndUser() throws IOException {
        BufferRegistry r = new BufferRegistry(3);
        add(r, "a", 10, 1000);
        add(r, "b", 10, 1000);
        assertFalse(r.isFull());
        add(r, "c", 11, 1001);
        assertTrue(r.isFull());
        assertEquals(3, r.size());
        assertEquals(2, r.countByPid(10));
        assertEquals(1, r.countByPid(11));
        assertEquals(0, r.countByPid(12));
        assertEquals(2, r.countByUid(1000));
        assertEquals(1, r.countByUid(1001));
        assertEquals(List.of("a", "b", "c"), List.copyOf(r.keys()), "in registration order");
        r.closeAll();
    }

    @Test
    void shouldRefuseASecondBufferUnderOneKey() throws IOException {
        BufferRegistry r = new BufferRegistry(4);
        LiveBuffer first = add(r, "a", 10, 1000);
        Path other = TestBuffers.create(dir, "other", 1);
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> r.add("a", 10, 1000, "com.example.a", 1,
                Pipeline.GL, other, BufferReader.open(other, TestBuffers.uid()), new long[0], 0));
        assertEquals("buffer a is registered already", e.getMessage());
        assertSame(first, r.get("a"), "the first one stays");
        r.closeAll();
    }

    @Test
    void shouldReleaseTheMappingOfWhatItForgetsAndIgnoreAStaleEntry() throws IOException {
        BufferRegistry r = new BufferRegistry(2);
        LiveBuffer a = add(r, "a", 10, 1000);
        r.remove(a);
        assertNull(r.get("a"));
        assertEquals(0, r.size());
        assertThrows(IllegalStateException.class, a::snapshot, "its reader is closed");
        // A stale LiveBuffer for a key now held by another must not remove the new one.
        LiveBuffer again = add(r, "a", 11, 1000);
        r.remove(a);
        assertSame(again, r.get("a"));
        r.closeAll();
        assertEquals(0, r.size());
        assertThrows(IllegalStateException.class, again::snapshot);
    }

    @Test
    void shouldTellARunningProcessFromAGoneOne() throws Exception {
        int self = (int) ProcessHandle.current().pid();
        assertTrue(ProcessLiveness.pidExists(self));
        assertTrue(ProcessLiveness.pidAlive(self));
        Process p = new ProcessBuilder("true").start();
        int gone = (int) p.pid();
        p.waitFor();
        assertFalse(ProcessLiveness.pidAlive(gone));
        assertFalse(ProcessLiveness.pidExists(-1));
        assertTrue(ProcessLiveness.heartbeatFresh(System.currentTimeMillis(), 1_000));
        assertFalse(ProcessLiveness.heartbeatFresh(System.currentTimeMillis() - 5_000, 1_000), "stale: a reused pid");
        assertFalse(ProcessLiveness.heartbeatFresh(0, 1_000), "never written");
        assertTrue(ProcessLiveness.running(self));
        assertFalse(ProcessLiveness.running(gone));
        assertFalse(ProcessLiveness.running(-1));
    }

    @Test
    void shouldCountAnExitingProcessAsNotRunning() throws Exception {
        // The window a SIGKILLed client's closed connection shows the daemon: still state R, but
        // in its exit (PF_EXITING in the flags, field 9), so its rings can be counted. A real
        // process cannot be held there, so the line is this process's own with the flag added.
        String self = Files.readString(Path.of("/proc/self/stat"), StandardCharsets.US_ASCII).trim();
        int close = self.lastIndexOf(')');
        String[] f = self.substring(close + 2).split(" ");
        assertEquals(Boolean.TRUE, ProcessLiveness.runs(self));
        f[0] = "R";
        f[6] = Long.toUnsignedString(Long.parseUnsignedLong(f[6]) | 0x4);
        String exiting = self.substring(0, close + 2) + String.join(" ", f);
        assertEquals(Boolean.FALSE, ProcessLiveness.runs(exiting));
        assertEquals(Boolean.FALSE, ProcessLiveness.runs("42 (a) b c) Z 1 42 42 0 -1 4194304 0"), "a zombie");
        assertEquals(Boolean.TRUE, ProcessLiveness.runs("42 (a) b c) S 1 42 42 0 -1 4194560 0"),
                "a command with a parenthesis and a space, flags without PF_EXITING");
        assertNull(ProcessLiveness.runs("42 (a) R 1"), "too short");
        assertNull(ProcessLiveness.runs("42 (a) R 1 42 42 0 -1 x 0"), "flags not a number");
        assertNull(ProcessLiveness.runs("no parenthesis"));
    }

    @Test
    void shouldCountAProcessAsNotRunningOnceItsFilesClosedAtItsKill() throws Exception {
        // The pipe's end is the connection's close the daemon sees; on a loaded machine the
        // process is then often still exiting (state R), not yet a zombie (2 of 3 times here).
        for (int i = 0; i < 20; i++) {
            Process p = new ProcessBuilder("sh", "-c", "kill -9 $$").redirectErrorStream(true).start();
            assertEquals(-1, p.getInputStream().read());
            assertFalse(ProcessLiveness.running((int) p.pid()), "killed, its files closed: run " + i);
            p.waitFor();
        }
    }

    @Test
    void shouldSeeWhetherAProcessStillMapsABufferFile(@TempDir Path dir) throws Exception {
        int self = (int) ProcessHandle.current().pid();
        Path mapped = dir.resolve("c.pkg-1-" + self + "-2f1e.gfxbuf");
        Path other = dir.resolve("c.pkg-1-" + self + "-77aa.gfxbuf");
        Files.write(mapped, new byte[4096]);
        Files.write(other, new byte[4096]);
        MappedByteBuffer m;
        try (FileChannel ch = FileChannel.open(mapped, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            m = ch.map(FileChannel.MapMode.READ_WRITE, 0, 4096);
        }
        m.put(0, (byte) 1);
        assertTrue(ProcessLiveness.mayMap(self, mapped));
        assertTrue(ProcessLiveness.writesInto(self, mapped));
        assertFalse(ProcessLiveness.mayMap(self, other), "open and closed, never mapped");
        assertFalse(ProcessLiveness.writesInto(self, other));
        Files.delete(mapped);
        assertTrue(ProcessLiveness.mayMap(self, mapped), "unlinked: its maps line ends in (deleted)");
        assertEquals(1, m.get(0));
        assertFalse(ProcessLiveness.mayMap(Integer.MAX_VALUE, other), "no such process");
    }

    @Test
    void shouldCountAProcessThatExecdAnotherProgramAsNotWritingIntoItsBuffer(@TempDir Path dir) throws Exception {
        // Running on with the same pid, but with another program's memory: nothing of the buffer.
        Path buffer = Files.write(dir.resolve("c.pkg-1-9-5e.gfxbuf"), new byte[4096]);
        Process p = new ProcessBuilder("sh", "-c", "exec sleep 600").start();
        try {
            int pid = (int) p.pid();
            Path comm = Path.of("/proc", Integer.toString(pid), "comm");
            Await.until(() -> Files.readString(comm).trim().equals("sleep"), Duration.ofSeconds(30), "the exec");
            assertTrue(ProcessLiveness.running(pid));
            assertFalse(ProcessLiveness.writesInto(pid, buffer));
        } finally {
            p.destroyForcibly();
            p.waitFor();
        }
    }

    @Test
    void shouldReadTheFileOfAMapsLine() {
        String line = "7f1c2a000000-7f1c2a101000 rw-s 00000000 00:1a 123456                     "
                + "/run/user/1000/gfxstats/buffers/c.pkg-1-9-5e.gfxbuf";
        assertTrue(ProcessLiveness.mapsLineNames(line, "c.pkg-1-9-5e.gfxbuf", -1), "by name");
        assertTrue(ProcessLiveness.mapsLineNames(line, "renamed", 123456), "by inode");
        assertTrue(ProcessLiveness.mapsLineNames(line + " (deleted)", "c.pkg-1-9-5e.gfxbuf", -1), "unlinked");
        assertTrue(ProcessLiveness.mapsLineNames("7f-8f rw-s 0 00:1a 1 /a dir/with space/x.gfxbuf", "x.gfxbuf", -1),
                "a path with spaces");
        assertFalse(ProcessLiveness.mapsLineNames(line, "pkg-1-9-5e.gfxbuf", 7), "a name's tail is not the name");
        assertFalse(ProcessLiveness.mapsLineNames("7f1c2a000000-7f1c2a101000 rw-p 00000000 00:00 0", "x", -1),
                "anonymous memory");
        assertFalse(ProcessLiveness.mapsLineNames("garbage", "x", -1));
    }

    @Test
    void shouldCountAZombieAsNotRunning() throws Exception {
        // The child exits once its parent has exec'd into `sleep 600`, which never waits for it. (It
        // exited at once before: on a loaded machine the shell could reap it before its exec.)
        Process parent = new ProcessBuilder("sh", "-c",
                "sh -c 'until [ \"$(cat /proc/$PPID/comm)\" = sleep ]; do sleep 0.01; done' & echo $!; exec sleep 600")
                .start();
        try {
            String line = new BufferedReader(new InputStreamReader(parent.getInputStream(), StandardCharsets.US_ASCII)).readLine();
            int zombie = Integer.parseInt(line.trim());
            Path stat = Path.of("/proc", Integer.toString(zombie), "stat");
            Await.until(() -> Files.readString(stat).contains(") Z "), Duration.ofSeconds(30), "a zombie");
            assertTrue(ProcessLiveness.pidExists(zombie), "its /proc entry stays until it is waited for");
            assertTrue(ProcessLiveness.pidAlive(zombie), "ProcessHandle counts a zombie as alive");
            assertFalse(ProcessLiveness.running(zombie), "a zombie runs no more");
        } finally {
            parent.destroyForcibly();
            parent.waitFor();
        }
    }
}
