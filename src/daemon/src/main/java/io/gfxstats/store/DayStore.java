package io.gfxstats.store;

import io.gfxstats.proto.GraphicsStatsProto;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.time.Clock;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The persisted day files under one root directory (spec 7):
 *
 * <pre>
 *   &lt;root&gt;/
 *     .lock                                   held (fcntl) by the one process using this root
 *     &lt;dayStart&gt;/&lt;package&gt;/&lt;versionCode&gt;/total   4-byte LE version 1 + GraphicsStatsProto
 *     quarantine/&lt;same relative path&gt;.&lt;epochMs&gt;[-n]   unusable files, moved aside, never deleted
 * </pre>
 *
 * <p>The store's front: each job is done by a class of its own - the lock ({@link DirectoryLock}),
 * the way to an entry through directories opened without following links ({@link EntryDirs}),
 * walking the tree ({@link StoreWalker}), quarantine ({@link Quarantine}), retention
 * ({@link Retention}), reading ({@link EntryReader}) and atomic conditional writing
 * ({@link EntryWriter}).
 *
 * <p>Writes are atomic: a reader sees the old file or the new one, never a mix, and a crash
 * leaves one of the two plus at most a temp file that the next {@link #open} removes. Writes are
 * conditional on the {@link FileStamp} the caller read, so data on disk is never replaced by a
 * caller that did not merge it.
 *
 * <p>Nothing below the root is reached through a symbolic link: every step is an
 * openat/fstatat with NOFOLLOW. A link (or file) where a directory belongs is skipped by reads
 * and listings and moved to quarantine by a write that needs the position; a link, directory or
 * unreadable file where {@code total} belongs is moved to quarantine by a read.
 *
 * <p>Thread-safe. Reads run without locking (renames make them safe); writes, quarantines and
 * retention are serialized. One process at a time may open a root ({@link StoreLockedException}).
 */
public final class DayStore implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(DayStore.class);

    public static final int DEFAULT_RETENTION_DAYS = 3;
    /**
     * The default read cap: far beyond any real day file (a few KB plus ~1 KB per live buffer
     * mark) and far below the daemon's heap, so that one odd file cannot exhaust it; bigger is
     * foreign and goes to quarantine unread.
     */
    public static final long MAX_FILE_BYTES = 4L << 20;

    private final Path root;
    private final DirectoryLock lock;
    private final StoreGuard guard;
    private final EntryDirs dirs;
    private final StoreWalker walker;
    private final Quarantine quarantine;
    private final Retention retention;
    private final EntryReader reader;
    private final EntryWriter writer;

    private DayStore(Path root, Clock clock, DirectoryLock lock, long maxFileBytes) {
        this.root = root;
        this.lock = lock;
        OnceLog onceLog = new OnceLog();
        this.guard = new StoreGuard(root);
        this.quarantine = new Quarantine(root, clock);
        this.dirs = new EntryDirs(root, onceLog, quarantine);
        this.walker = new StoreWalker(dirs, onceLog);
        this.retention = new Retention(root, clock);
        this.reader = new EntryReader(dirs, quarantine, guard, maxFileBytes);
        this.writer = new EntryWriter(dirs, quarantine, guard, maxFileBytes);
    }

    /**
     * Opens (creating with mode 0700 if needed) the store at {@code root}, takes its lock, and
     * removes temp files left by a writer that crashed. The root itself may be a symbolic link
     * (it is configured by the user); nothing below it is followed.
     *
     * @throws StoreLockedException when another process already has this root open
     */
    public static DayStore open(Path root, Clock clock) throws IOException {
        return open(root, clock, MAX_FILE_BYTES);
    }

    /**
     * {@link #open(Path, Clock)} with a read cap: a file bigger than {@code maxFileBytes} is moved
     * to quarantine without being read (nothing of its size is allocated), and a write that would
     * produce one is refused.
     */
    public static DayStore open(Path root, Clock clock, long maxFileBytes) throws IOException {
        Objects.requireNonNull(clock, "clock");
        if (maxFileBytes < 1024) {
            throw new IllegalArgumentException("the day-file size cap must be at least 1 KiB, got " + maxFileBytes);
        }
        Path dir = root.toAbsolutePath().normalize();
        if (!Files.exists(dir)) {
            Files.createDirectories(dir, SecureDirs.DIR_MODE);
        }
        if (!Files.isDirectory(dir)) {
            throw new NotDirectoryException(dir + " (the data directory must be a directory)");
        }
        DayStore store = new DayStore(dir, clock, DirectoryLock.acquire(dir, "data directory"), maxFileBytes);
        try {
            store.writer.removeStaleTempFiles(store.walker);
        } catch (IOException | RuntimeException e) {
            store.close();
            throw e;
        }
        log.info("day store open at {}", dir);
        return store;
    }

    public Path root() {
        return root;
    }

    /** Where the entry's file lives (whether or not it exists). */
    public Path pathOf(EntryKey key) {
        return dirs.pathOf(key);
    }

    /** How many files this store moved to quarantine since it was opened. */
    public long quarantineCount() {
        return quarantine.count();
    }

    /** The quarantine tree, {@code <root>/quarantine}. */
    public Path quarantineRoot() {
        return quarantine.root();
    }

    /** Who is told around each day-file read (see {@link ReadWatch}); {@link ReadWatch#NONE} by default. */
    public void watchReads(ReadWatch watch) {
        reader.watch(Objects.requireNonNull(watch, "watch"));
    }

    /**
     * Moves an entry's file to quarantine without reading it, logged with {@code reason}; null
     * when it has no file.
     */
    public QuarantineEvent setAside(EntryKey key, String reason) throws IOException {
        guard.ensureOpen();
        return reader.setAside(key, reason);
    }

    /**
     * Reads one day file. A file that is too short, has another version, does not parse, has
     * malformed histograms, belongs to another package/version/day than its path says, or is not
     * a regular file is moved to quarantine (logged once) and reported as {@link ReadResult.Quarantined}.
     */
    public ReadResult read(EntryKey key) throws IOException {
        guard.ensureOpen();
        return reader.read(key);
    }

    /**
     * The current stamp of an entry's file without reading it ({@link FileStamp#ABSENT} if there
     * is none), so that a cache can tell whether its copy is still current. Costs one lstat per
     * path component: an entry behind a link where a directory belongs counts as absent, as
     * in {@link #read}. (Being a stat, not a read, it needs no openat chain: nothing is read
     * through a link, and a link swapped in later gives another stamp.)
     */
    public FileStamp stamp(EntryKey key) throws IOException {
        guard.ensureOpen();
        return dirs.stamp(key);
    }

    /**
     * Every entry with a {@code total} in order (day, package, version). Names that the store did
     * not create (non-day directories, invalid package names, non-numeric versions, links where
     * directories belong) are skipped and logged once each; the contents are not read.
     */
    public List<StoredEntry> list() throws IOException {
        guard.ensureOpen();
        return walker.list(OptionalLong.empty());
    }

    /** The entries of one day, in order (package, version). */
    public List<StoredEntry> list(long dayStart) throws IOException {
        guard.ensureOpen();
        return walker.list(OptionalLong.of(dayStart));
    }

    /** The day directories present, oldest first. */
    public List<Long> days() throws IOException {
        guard.ensureOpen();
        try (SecureDirectoryStream<Path> dir = SecureDirs.open(root)) {
            List<Long> days = StoreWalker.realDays(dir);
            Collections.sort(days);
            return days;
        }
    }

    /**
     * Atomically replaces (or creates) the entry's file with {@code proto}, provided the file on
     * disk still has the stamp {@code expected} (the {@link ReadResult#stamp()} the caller merged,
     * {@link FileStamp#ABSENT} for a new file). Creates missing directories (mode 0700); a link or
     * file where one of them belongs is moved to quarantine first.
     *
     * @return the stamp of the new file
     * @throws StaleWriteException      the file changed since it was read; nothing was written
     * @throws IllegalArgumentException {@code proto} names another package/version, starts on
     *                                  another day, or has malformed histograms
     */
    public FileStamp write(EntryKey key, GraphicsStatsProto proto, FileStamp expected) throws IOException {
        return writer.write(key, proto, expected);
    }

    /** Computes an entry's new contents from its stored ones (empty when there are none). */
    @FunctionalInterface
    public interface Merger {
        GraphicsStatsProto merge(Optional<GraphicsStatsProto> stored) throws IOException;
    }

    /**
     * Read, merge, write: the save path. Reads the entry (quarantining an unusable file), lets
     * {@code merger} compute the new contents and writes them conditionally; if the file changed
     * in between, reads and merges again, so the result always contains what was on disk.
     *
     * @return the stamp of the written file
     */
    public FileStamp update(EntryKey key, Merger merger) throws IOException {
        StaleWriteException last = null;
        for (int attempt = 0; attempt < EntryReader.ATTEMPTS; attempt++) {
            ReadResult current = read(key);
            GraphicsStatsProto merged = merger.merge(current.proto());
            try {
                return write(key, merged, current.stamp());
            } catch (StaleWriteException e) {
                last = e;
            }
        }
        throw last;
    }

    /**
     * Keeps the {@code keepDays} most recent day directories and deletes older ones (each deletion
     * logged); see {@link Retention}.
     *
     * @return the deleted days, oldest first
     */
    public List<Long> applyRetention(int keepDays) throws IOException {
        guard.lock();
        try {
            guard.ensureOpen();
            return retention.apply(keepDays);
        } finally {
            guard.unlock();
        }
    }

    /** Releases the lock; further calls fail. */
    @Override
    public void close() throws IOException {
        guard.lock();
        try {
            if (guard.markClosed()) {
                lock.close();
            }
        } finally {
            guard.unlock();
        }
    }
}
