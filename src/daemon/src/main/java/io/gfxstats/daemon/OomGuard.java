package io.gfxstats.daemon;

import io.gfxstats.store.DayStore;
import io.gfxstats.store.ReadWatch;
import io.gfxstats.store.StoredEntry;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The crash-loop guard: the daemon runs with {@code -XX:+ExitOnOutOfMemoryError} so that a run
 * out of memory restarts clean, but a restart that reads the same day files would die the same
 * way, for ever. So the day files being read are named in {@value #READING} (in the state
 * directory) while they are read, and the JVM's out-of-memory hook ({@link #JVM_HOOK}, in the
 * launchers) marks {@value #MARK}, which this process keeps open for that purpose. The next start
 * that finds the mark sets the named files aside into the quarantine, with one line naming them
 * and the way back, and starts.
 *
 * <p>Why a mark from the JVM and not the leftover list alone: a SIGKILL or a power cut during a
 * read leaves the same list, and setting files aside for that would take their frames out of
 * dumps. Why this hook: {@code -XX:OnOutOfMemoryError} runs before the exit and needs no heap
 * (a heap dump would write up to the heap's size at every crash); it finds the mark file among
 * the process's open files, so it needs no path that depends on the configuration. Without the
 * hook (a launcher that lacks it) the guard only costs the list.
 *
 * <p>The list is rewritten on each change, without fsync: a JVM that dies leaves the page cache
 * to the kernel; only a machine crash loses it, and that is no out-of-memory.
 */
final class OomGuard implements ReadWatch, Closeable {
    /** Written by the JVM's hook when it runs out of memory. */
    static final String MARK = "gfxstatsd-oom-mark";
    /** The day files being read now, one path a line. */
    static final String READING = "gfxstatsd-reading";
    /**
     * The JVM option of the launchers: on OutOfMemoryError, before the exit, give the mark file
     * (found among the dying process's open files) a length of one byte. It runs under
     * {@code /bin/sh -c}; HotSpot splits the option at ';', so the command has none.
     */
    static final String JVM_HOOK = "-XX:OnOutOfMemoryError=find /proc/%p/fd -lname '*/" + MARK
            + "' -exec truncate -s 1 {} +";

    private static final Logger log = LoggerFactory.getLogger(OomGuard.class);

    private final FileChannel mark;
    private final FileChannel reading;
    private final Map<Path, Integer> inFlight = new TreeMap<>();

    private OomGuard(FileChannel mark, FileChannel reading) {
        this.mark = mark;
        this.reading = reading;
    }

    /**
     * Opens the guard in {@code stateDir}; if the previous run died of OutOfMemoryError, first
     * sets aside the day files it was reading then.
     */
    static OomGuard open(Path stateDir, DayStore store) throws IOException {
        Path markPath = stateDir.resolve(MARK);
        Path readingPath = stateDir.resolve(READING);
        boolean diedOfOom = Files.isRegularFile(markPath) && Files.size(markPath) > 0;
        if (diedOfOom) {
            List<String> named = Files.isRegularFile(readingPath)
                    ? Files.readAllLines(readingPath, StandardCharsets.UTF_8) : List.of();
            setAside(store, named);
        }
        FileChannel mark = open(markPath);
        FileChannel reading;
        try {
            reading = open(readingPath);
        } catch (IOException e) {
            mark.close();
            throw e;
        }
        OomGuard guard = new OomGuard(mark, reading);
        try {
            mark.truncate(0);
            reading.truncate(0);
        } catch (IOException e) {
            guard.close();
            throw e;
        }
        return guard;
    }

    private static FileChannel open(Path path) throws IOException {
        // Refuse a link planted where the file belongs: the state directory is the owner's (0700).
        return FileChannel.open(path, Set.of(StandardOpenOption.CREATE, StandardOpenOption.READ,
                        StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    }

    private static void setAside(DayStore store, List<String> named) throws IOException {
        if (named.isEmpty()) {
            log.warn("the previous run ran out of memory while reading no day file; if it happens again, raise"
                    + " GFXSTATSD_HEAP (see the memory budget in docs/operations.md)");
            return;
        }
        // One line per file, the quarantine's, which names it, where it went, and the way back.
        int moved = 0;
        for (StoredEntry e : store.list()) {
            if (named.contains(store.pathOf(e.key()).toString())
                    && store.setAside(e.key(), "the previous run ran out of memory reading it; set aside so that"
                    + " this start does not die the same way (to serve it again, raise GFXSTATSD_HEAP and move it"
                    + " back)") != null) {
                moved++;
            }
        }
        if (moved == 0) {
            log.warn("the previous run ran out of memory while reading {} day file(s) that are gone now; if it happens"
                    + " again, raise GFXSTATSD_HEAP", named.size());
        }
    }

    @Override
    public void reading(Path file) {
        synchronized (inFlight) {
            inFlight.merge(file, 1, Integer::sum);
            rewrite();
        }
    }

    @Override
    public void done(Path file) {
        synchronized (inFlight) {
            inFlight.computeIfPresent(file, (k, n) -> n == 1 ? null : n - 1);
            rewrite();
        }
    }

    /** Caller holds {@link #inFlight}. */
    private void rewrite() {
        StringBuilder text = new StringBuilder();
        for (Path p : inFlight.keySet()) {
            text.append(p).append('\n');
        }
        try {
            ByteBuffer bytes = ByteBuffer.wrap(text.toString().getBytes(StandardCharsets.UTF_8));
            reading.truncate(0);
            while (bytes.hasRemaining()) {
                reading.write(bytes, bytes.position()); // the buffer's position is what is written so far
            }
        } catch (IOException e) {
            // The guard is a safety net: a full disk must not fail the dump that reads.
            log.debug("cannot update {}: {}", READING, e.getMessage());
        }
    }

    @Override
    public void close() throws IOException {
        try {
            reading.close();
        } finally {
            mark.close();
        }
    }
}
