package io.gfxstats.store;

import static io.gfxstats.store.SecureDirs.isRealDirectory;
import static io.gfxstats.store.SecureDirs.lstat;

import io.gfxstats.dayfile.DayFileCodec;
import io.gfxstats.dayfile.DayFileException;
import io.gfxstats.dayfile.StatsProtos;
import io.gfxstats.proto.GraphicsStatsProto;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
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
 * <p>Writes are atomic: a hidden temp file in the entry's directory is written, fsynced and
 * renamed over {@code total}, then the directory is fsynced. A reader therefore sees the old
 * file or the new one, never a mix, and a crash leaves one of the two plus at most a temp file
 * that the next {@link #open} removes. Writes are conditional on the {@link FileStamp} the caller
 * read, so data on disk is never replaced by a caller that did not merge it.
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
    /** Far beyond any real day file (a few KB plus ~1 KB per live buffer mark); bigger is foreign. */
    public static final long MAX_FILE_BYTES = 64L << 20;

    private static final int READ_ATTEMPTS = 8;
    private static final int MAX_REPORTED = 10_000;
    private static final int MAX_QUARANTINE_SUFFIX = 1000;

    private final Path root;
    private final Clock clock;
    private final FileChannel lockChannel;
    private final FileLock fileLock;
    private final ReentrantLock mutations = new ReentrantLock();
    private final Set<String> reported = ConcurrentHashMap.newKeySet();
    private final SecureRandom random = new SecureRandom();
    private volatile boolean closed;
    private final java.util.concurrent.atomic.AtomicLong quarantined = new java.util.concurrent.atomic.AtomicLong();

    private DayStore(Path root, Clock clock, FileChannel lockChannel, FileLock fileLock) {
        this.root = root;
        this.clock = clock;
        this.lockChannel = lockChannel;
        this.fileLock = fileLock;
    }

    /**
     * Opens (creating with mode 0700 if needed) the store at {@code root}, takes its lock, and
     * removes temp files left by a writer that crashed. The root itself may be a symbolic link
     * (it is configured by the user); nothing below it is followed.
     *
     * @throws StoreLockedException when another process already has this root open
     */
    public static DayStore open(Path root, Clock clock) throws IOException {
        Objects.requireNonNull(clock, "clock");
        Path dir = root.toAbsolutePath().normalize();
        if (!Files.exists(dir)) {
            Files.createDirectories(dir, SecureDirs.DIR_MODE);
        }
        if (!Files.isDirectory(dir)) {
            throw new NotDirectoryException(dir + " (the data directory must be a directory)");
        }
        FileChannel ch = FileChannel.open(dir.resolve(StoreNames.LOCK_FILE), Set.of(StandardOpenOption.CREATE,
                StandardOpenOption.READ, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS), SecureDirs.FILE_MODE);
        FileLock lock;
        try {
            lock = ch.tryLock();
        } catch (OverlappingFileLockException e) {
            lock = null;
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
        if (lock == null) {
            String holder = lockHolder(ch);
            ch.close();
            throw new StoreLockedException("data directory " + dir + " is in use by another gfxstatsd"
                    + holder + "; stop it or choose another data directory");
        }
        DayStore store = new DayStore(dir, clock, ch, lock);
        try {
            store.recordLockHolder();
            store.removeStaleTempFiles();
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
        return versionPath(key).resolve(StoreNames.TOTAL);
    }

    /** How many files this store moved to quarantine since it was opened. */
    public long quarantineCount() {
        return quarantined.get();
    }

    /** The quarantine tree, {@code <root>/quarantine}. */
    public Path quarantineRoot() {
        return root.resolve(StoreNames.QUARANTINE_DIR);
    }

    // ------------------------------------------------------------------ reads

    /**
     * Reads one day file. A file that is too short, has another version, does not parse, has
     * malformed histograms, belongs to another package/version/day than its path says, or is not
     * a regular file is moved to quarantine (logged once) and reported as {@link ReadResult.Quarantined}.
     */
    public ReadResult read(EntryKey key) throws IOException {
        ensureOpen();
        for (int attempt = 0; attempt < READ_ATTEMPTS; attempt++) {
            try (Chain chain = openExisting(key)) {
                if (chain == null) {
                    return new ReadResult.Missing(key);
                }
                SecureDirectoryStream<Path> dir = chain.last();
                BasicFileAttributes before = lstat(dir, StoreNames.TOTAL);
                if (before == null) {
                    return new ReadResult.Missing(key);
                }
                FileStamp stamp = FileStamp.of(before);
                String problem;
                GraphicsStatsProto proto = null;
                if (!before.isRegularFile()) {
                    problem = "not a regular file but a " + kind(before);
                } else {
                    byte[] bytes = null;
                    IOException readError = null;
                    problem = null;
                    try {
                        bytes = SecureDirs.readAll(dir, StoreNames.TOTAL, MAX_FILE_BYTES);
                    } catch (SecureDirs.FileTooLargeException e) {
                        problem = e.getMessage();
                    } catch (IOException e) {
                        readError = e;
                    }
                    BasicFileAttributes after = lstat(dir, StoreNames.TOTAL);
                    if (after == null || !FileStamp.of(after).equals(stamp)
                            || (bytes != null && bytes.length != before.size())) {
                        continue; // replaced while we read it: read the new one
                    }
                    if (readError != null) {
                        throw readError;
                    }
                    if (bytes != null) {
                        try {
                            proto = DayFileCodec.decode(bytes);
                            StatsProtos.toProfileData(proto);
                            problem = foreignProblem(key, proto);
                        } catch (DayFileException e) {
                            problem = e.getMessage();
                        }
                    }
                }
                if (problem == null) {
                    return new ReadResult.Found(key, proto, stamp);
                }
                QuarantineEvent event = quarantineIfUnchanged(key, stamp, problem);
                if (event != null) {
                    return new ReadResult.Quarantined(key, event);
                }
            } catch (NoSuchFileException | NotDirectoryException e) {
                // a directory vanished (retention) or was swapped between two steps: look again
            }
        }
        throw new IOException("day file " + pathOf(key) + " kept changing while being read (" + READ_ATTEMPTS
                + " attempts)");
    }

    /**
     * The current stamp of an entry's file without reading it ({@link FileStamp#ABSENT} if there
     * is none), so that a cache can tell whether its copy is still current. Costs one lstat per
     * path component: an entry behind a link where a directory belongs counts as absent, as
     * in {@link #read}. (Being a stat, not a read, it needs no openat chain: nothing is read
     * through a link, and a link swapped in later gives another stamp.)
     */
    public FileStamp stamp(EntryKey key) throws IOException {
        ensureOpen();
        Path path = root;
        for (String name : components(key)) {
            path = path.resolve(name);
            if (!isRealDirectory(lstatPath(path))) {
                return FileStamp.ABSENT;
            }
        }
        BasicFileAttributes attrs = lstatPath(path.resolve(StoreNames.TOTAL));
        return attrs == null ? FileStamp.ABSENT : FileStamp.of(attrs);
    }

    private static BasicFileAttributes lstatPath(Path path) throws IOException {
        try {
            return Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException | NotDirectoryException e) {
            return null;
        }
    }

    /**
     * Every entry with a {@code total} in order (day, package, version). Names that the store did
     * not create (non-day directories, invalid package names, non-numeric versions, links where
     * directories belong) are skipped and logged once each; the contents are not read.
     */
    public List<StoredEntry> list() throws IOException {
        return list(OptionalLong.empty());
    }

    /** The entries of one day, in order (package, version). */
    public List<StoredEntry> list(long dayStart) throws IOException {
        return list(OptionalLong.of(dayStart));
    }

    /** The day directories present, oldest first. */
    public List<Long> days() throws IOException {
        ensureOpen();
        try (SecureDirectoryStream<Path> dir = SecureDirs.open(root)) {
            List<Long> days = realDays(dir);
            Collections.sort(days);
            return days;
        }
    }

    private List<StoredEntry> list(OptionalLong onlyDay) throws IOException {
        ensureOpen();
        List<StoredEntry> entries = new ArrayList<>();
        walk(onlyDay, (key, dir, names) -> {
            boolean hasTotal = false;
            for (String name : names) {
                if (name.equals(StoreNames.TOTAL)) {
                    hasTotal = true;
                } else if (!StoreNames.isTemp(name)) {
                    reportOnce(versionPath(key).resolve(name), "unexpected name in an entry directory; ignored");
                }
            }
            if (hasTotal) {
                entries.add(new StoredEntry(key, pathOf(key)));
            }
        });
        Collections.sort(entries);
        return entries;
    }

    // ------------------------------------------------------------------ writes

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
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(proto, "proto");
        Objects.requireNonNull(expected, "expected");
        String problem = foreignProblem(key, proto);
        if (problem == null) {
            try {
                StatsProtos.toProfileData(proto);
            } catch (DayFileException.HistogramMismatch e) {
                problem = e.getMessage();
            }
        }
        if (problem != null) {
            throw new IllegalArgumentException("refusing to write day file " + key + ": " + problem);
        }
        byte[] bytes = DayFileCodec.encode(proto);
        mutations.lock();
        try {
            ensureOpen();
            try (Chain chain = openForWrite(key)) {
                SecureDirectoryStream<Path> dir = chain.last();
                BasicFileAttributes current = lstat(dir, StoreNames.TOTAL);
                if (current != null && !current.isRegularFile()) {
                    moveToQuarantine(dir, key, List.of(StoreNames.dayName(key.dayStart()), key.packageName(),
                            StoreNames.versionName(key.versionCode())), StoreNames.TOTAL,
                            "not a regular file but a " + kind(current));
                    current = null;
                }
                FileStamp actual = current == null ? FileStamp.ABSENT : FileStamp.of(current);
                if (!actual.equals(expected)) {
                    throw new StaleWriteException(key, expected, actual);
                }
                String temp = StoreNames.TEMP_PREFIX + HexFormat.of().formatHex(randomBytes());
                boolean renamed = false;
                try {
                    SecureDirs.writeNew(dir, temp, bytes);
                    dir.move(Path.of(temp), dir, Path.of(StoreNames.TOTAL));
                    renamed = true;
                } finally {
                    if (!renamed) {
                        deleteQuietly(dir, temp);
                    }
                }
                SecureDirs.fsync(dir);
                BasicFileAttributes written = lstat(dir, StoreNames.TOTAL);
                if (written == null) {
                    throw new IOException("day file " + pathOf(key) + " vanished right after it was written");
                }
                return FileStamp.of(written);
            }
        } finally {
            mutations.unlock();
        }
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
        for (int attempt = 0; attempt < READ_ATTEMPTS; attempt++) {
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

    // ------------------------------------------------------------------ retention

    /**
     * Keeps the {@code keepDays} most recent day directories and deletes older ones (each deletion
     * logged). Only real directories with day names count; foreign names, links and the quarantine
     * are never touched. The clock's current day is never deleted, even when directories dated
     * in the future (a clock that went backwards) outnumber it.
     *
     * @return the deleted days, oldest first
     */
    public List<Long> applyRetention(int keepDays) throws IOException {
        if (keepDays < 1) {
            throw new IllegalArgumentException("retention must keep at least 1 day, got " + keepDays);
        }
        mutations.lock();
        try {
            ensureOpen();
            try (SecureDirectoryStream<Path> dir = SecureDirs.open(root)) {
                List<Long> days = realDays(dir);
                days.sort(Collections.reverseOrder());
                long today = Days.today(clock);
                List<Long> deleted = new ArrayList<>();
                for (int i = keepDays; i < days.size(); i++) {
                    long day = days.get(i);
                    if (day >= today) {
                        log.warn("retention: keeping day {} ({}) although {} newer days exist: it is not in the past "
                                + "(did the clock go backwards?)", day, Days.date(day), i);
                        continue;
                    }
                    SecureDirs.deleteTree(dir, StoreNames.dayName(day));
                    deleted.add(day);
                    log.info("retention: deleted day directory {} ({}), keeping the {} most recent days",
                            root.resolve(StoreNames.dayName(day)), Days.date(day), keepDays);
                }
                if (!deleted.isEmpty()) {
                    SecureDirs.fsync(dir);
                }
                Collections.sort(deleted);
                return deleted;
            }
        } finally {
            mutations.unlock();
        }
    }

    /** Releases the lock; further calls fail. */
    @Override
    public void close() throws IOException {
        mutations.lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            try {
                fileLock.release();
            } finally {
                lockChannel.close();
            }
        } finally {
            mutations.unlock();
        }
    }

    // ------------------------------------------------------------------ internals

    private interface VersionDirVisitor {
        void visit(EntryKey key, SecureDirectoryStream<Path> dir, List<String> names) throws IOException;
    }

    /** Visits every valid entry directory (real directories with valid names all the way down). */
    private void walk(OptionalLong onlyDay, VersionDirVisitor visitor) throws IOException {
        try (SecureDirectoryStream<Path> rootDir = SecureDirs.open(root)) {
            List<String> dayNames = SecureDirs.names(rootDir);
            Collections.sort(dayNames);
            for (String dayName : dayNames) {
                if (dayName.equals(StoreNames.QUARANTINE_DIR) || dayName.equals(StoreNames.LOCK_FILE)) {
                    continue;
                }
                OptionalLong day = StoreNames.parseDay(dayName);
                if (day.isEmpty()) {
                    reportOnce(root.resolve(dayName), "not a day directory (a UTC midnight in epoch ms); ignored");
                    continue;
                }
                if (onlyDay.isPresent() && onlyDay.getAsLong() != day.getAsLong()) {
                    continue;
                }
                try (SecureDirectoryStream<Path> dayDir = openChecked(rootDir, root.resolve(dayName), dayName)) {
                    if (dayDir == null) {
                        continue;
                    }
                    walkDay(day.getAsLong(), dayDir, root.resolve(dayName), visitor);
                } catch (NoSuchFileException | NotDirectoryException e) {
                    // deleted by retention while we walked
                }
            }
        }
    }

    private void walkDay(long day, SecureDirectoryStream<Path> dayDir, Path dayPath, VersionDirVisitor visitor)
            throws IOException {
        for (String pkg : SecureDirs.names(dayDir)) {
            Path pkgPath = dayPath.resolve(pkg);
            var problem = PackageNames.problem(pkg);
            if (problem.isPresent()) {
                reportOnce(pkgPath, "not a valid package name (" + problem.get() + "); ignored");
                continue;
            }
            try (SecureDirectoryStream<Path> pkgDir = openChecked(dayDir, pkgPath, pkg)) {
                if (pkgDir == null) {
                    continue;
                }
                for (String version : SecureDirs.names(pkgDir)) {
                    Path versionPath = pkgPath.resolve(version);
                    OptionalLong v = StoreNames.parseVersion(version);
                    if (v.isEmpty()) {
                        reportOnce(versionPath, "not a version code (a non-negative decimal); ignored");
                        continue;
                    }
                    try (SecureDirectoryStream<Path> versionDir = openChecked(pkgDir, versionPath, version)) {
                        if (versionDir == null) {
                            continue;
                        }
                        visitor.visit(new EntryKey(day, pkg, v.getAsLong()), versionDir, SecureDirs.names(versionDir));
                    } catch (NoSuchFileException | NotDirectoryException e) {
                        // removed concurrently
                    }
                }
            } catch (NoSuchFileException | NotDirectoryException e) {
                // removed concurrently
            }
        }
    }

    /** Opens {@code name} if it is a real directory; reports and returns null for anything else. */
    private SecureDirectoryStream<Path> openChecked(SecureDirectoryStream<Path> parent, Path path, String name)
            throws IOException {
        BasicFileAttributes attrs = lstat(parent, name);
        if (attrs == null) {
            return null;
        }
        if (!isRealDirectory(attrs)) {
            reportOnce(path, "a " + kind(attrs) + " where a directory belongs; not followed, ignored");
            return null;
        }
        try {
            return SecureDirs.openDir(parent, name);
        } catch (FileSystemException e) {
            if (e instanceof NoSuchFileException || e instanceof NotDirectoryException) {
                throw e;
            }
            // ELOOP: swapped for a link after the check
            reportOnce(path, "became a link while being opened; not followed, ignored");
            return null;
        }
    }

    private List<Long> realDays(SecureDirectoryStream<Path> rootDir) throws IOException {
        List<Long> days = new ArrayList<>();
        for (String name : SecureDirs.names(rootDir)) {
            OptionalLong day = StoreNames.parseDay(name);
            if (day.isPresent() && isRealDirectory(lstat(rootDir, name))) {
                days.add(day.getAsLong());
            }
        }
        return days;
    }

    /** The open directories root/day/package/version of an entry, or null if one is absent or not real. */
    private Chain openExisting(EntryKey key) throws IOException {
        Chain chain = new Chain();
        try {
            SecureDirectoryStream<Path> dir = chain.push(SecureDirs.open(root));
            Path path = root;
            for (String name : components(key)) {
                path = path.resolve(name);
                dir = openChecked(dir, path, name);
                if (dir == null) {
                    chain.close();
                    return null;
                }
                chain.push(dir);
            }
            return chain;
        } catch (IOException | RuntimeException e) {
            chain.close();
            throw e;
        }
    }

    /** Like {@link #openExisting} but creates missing directories and quarantines non-directories. */
    private Chain openForWrite(EntryKey key) throws IOException {
        Chain chain = new Chain();
        try {
            SecureDirectoryStream<Path> dir = chain.push(SecureDirs.open(root));
            Path path = root;
            List<String> parents = new ArrayList<>();
            for (String name : components(key)) {
                path = path.resolve(name);
                BasicFileAttributes attrs = lstat(dir, name);
                if (attrs != null && !isRealDirectory(attrs)) {
                    moveToQuarantine(dir, null, parents, name, "a " + kind(attrs) + " where a directory belongs");
                    attrs = null;
                }
                if (attrs == null && SecureDirs.mkdir(path)) {
                    SecureDirs.fsync(dir);
                }
                dir = chain.push(SecureDirs.openDir(dir, name));
                parents.add(name);
            }
            return chain;
        } catch (IOException | RuntimeException e) {
            chain.close();
            throw e;
        }
    }

    private QuarantineEvent quarantineIfUnchanged(EntryKey key, FileStamp stamp, String reason) throws IOException {
        mutations.lock();
        try {
            ensureOpen();
            try (Chain chain = openExisting(key)) {
                if (chain == null) {
                    return null;
                }
                BasicFileAttributes attrs = lstat(chain.last(), StoreNames.TOTAL);
                if (attrs == null || !FileStamp.of(attrs).equals(stamp)) {
                    return null; // a writer replaced it meanwhile; the caller reads the new one
                }
                return moveToQuarantine(chain.last(), key, components(key), StoreNames.TOTAL, reason);
            }
        } finally {
            mutations.unlock();
        }
    }

    /**
     * Renames {@code dir/name} to {@code <root>/quarantine/<parents>/<name>.<epochMs>[-n]}, never
     * replacing an existing quarantined file. The caller holds {@link #mutations}; being the only
     * writer under the root is what makes the existence check before the rename sufficient.
     */
    private QuarantineEvent moveToQuarantine(SecureDirectoryStream<Path> dir, EntryKey key, List<String> parents,
                                             String name, String reason) throws IOException {
        long now = clock.millis();
        Path from = root;
        for (String p : parents) {
            from = from.resolve(p);
        }
        from = from.resolve(name);
        try (Chain chain = new Chain()) {
            SecureDirectoryStream<Path> q = chain.push(SecureDirs.open(root));
            Path qPath = root;
            List<String> qParents = new ArrayList<>();
            qParents.add(StoreNames.QUARANTINE_DIR);
            qParents.addAll(parents);
            for (String p : qParents) {
                qPath = qPath.resolve(p);
                BasicFileAttributes attrs = lstat(q, p);
                if (attrs == null) {
                    if (SecureDirs.mkdir(qPath)) {
                        SecureDirs.fsync(q);
                    }
                } else if (!isRealDirectory(attrs)) {
                    throw new IOException("cannot quarantine " + from + ": " + qPath + " is a " + kind(attrs)
                            + ", not a directory; move it away");
                }
                q = chain.push(SecureDirs.openDir(q, p));
            }
            String target = null;
            for (int n = 0; n < MAX_QUARANTINE_SUFFIX && target == null; n++) {
                String candidate = name + "." + now + (n == 0 ? "" : "-" + n);
                if (lstat(q, candidate) == null) {
                    target = candidate;
                }
            }
            if (target == null) {
                throw new IOException("cannot quarantine " + from + ": " + MAX_QUARANTINE_SUFFIX
                        + " quarantined copies for the same millisecond already exist in " + qPath);
            }
            dir.move(Path.of(name), q, Path.of(target));
            SecureDirs.fsync(q);
            SecureDirs.fsync(dir);
            Path to = qPath.resolve(target);
            log.warn("quarantined {} -> {}: {}", from, to, reason);
            quarantined.incrementAndGet();
            return new QuarantineEvent(key, from, to, reason, now);
        }
    }

    /** The entry's proto contradicts its path: another package, version or day. */
    private static String foreignProblem(EntryKey key, GraphicsStatsProto proto) {
        if (proto.hasPackageName() && !proto.getPackageName().equals(key.packageName())) {
            return "holds package " + InvalidArgumentException.quote(proto.getPackageName()) + ", not "
                    + key.packageName();
        }
        if (proto.hasVersionCode() && proto.getVersionCode() != key.versionCode()) {
            return "holds version " + proto.getVersionCode() + ", not " + key.versionCode();
        }
        if (proto.getStatsStart() != 0 && !Days.contains(key.dayStart(), proto.getStatsStart())) {
            return "starts at " + proto.getStatsStart() + " (day " + Days.dayStart(proto.getStatsStart())
                    + "), not on day " + key.dayStart();
        }
        return null;
    }

    private void removeStaleTempFiles() throws IOException {
        walk(OptionalLong.empty(), (key, dir, names) -> {
            for (String name : names) {
                if (StoreNames.isTemp(name)) {
                    BasicFileAttributes attrs = lstat(dir, name);
                    if (attrs != null && attrs.isRegularFile()) {
                        dir.deleteFile(Path.of(name));
                        log.info("removed {} left by an interrupted write (the entry keeps its previous contents)",
                                versionPath(key).resolve(name));
                    }
                }
            }
        });
    }

    private void recordLockHolder() throws IOException {
        lockChannel.truncate(0);
        lockChannel.write(ByteBuffer.wrap((ProcessHandle.current().pid() + "\n").getBytes(StandardCharsets.US_ASCII)),
                0);
    }

    private static String lockHolder(FileChannel ch) {
        try {
            ByteBuffer buf = ByteBuffer.allocate(32);
            ch.read(buf, 0);
            String pid = new String(buf.array(), 0, buf.position(), StandardCharsets.US_ASCII).trim();
            return pid.matches("[0-9]{1,10}") ? " (pid " + pid + ")" : "";
        } catch (IOException e) {
            return "";
        }
    }

    private static List<String> components(EntryKey key) {
        return List.of(StoreNames.dayName(key.dayStart()), key.packageName(), StoreNames.versionName(key.versionCode()));
    }

    private Path versionPath(EntryKey key) {
        return root.resolve(StoreNames.dayName(key.dayStart())).resolve(key.packageName())
                .resolve(StoreNames.versionName(key.versionCode()));
    }

    private void reportOnce(Path path, String what) {
        String k = path + "\0" + what;
        if (reported.size() < MAX_REPORTED && reported.add(k)) {
            log.warn("{}: {}", path, what);
        }
    }

    private static String kind(BasicFileAttributes attrs) {
        if (attrs.isSymbolicLink()) {
            return "symbolic link";
        }
        if (attrs.isDirectory()) {
            return "directory";
        }
        if (attrs.isRegularFile()) {
            return "regular file";
        }
        return "special file";
    }

    private byte[] randomBytes() {
        byte[] b = new byte[8];
        random.nextBytes(b);
        return b;
    }

    private static void deleteQuietly(SecureDirectoryStream<Path> dir, String name) {
        try {
            dir.deleteFile(Path.of(name));
        } catch (IOException e) {
            log.warn("could not remove temp file {}: {}", name, e.toString());
        }
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("day store " + root + " is closed");
        }
    }

    /** Directories opened one inside the other, closed innermost first. */
    private static final class Chain implements AutoCloseable {
        private final Deque<SecureDirectoryStream<Path>> dirs = new ArrayDeque<>();

        SecureDirectoryStream<Path> push(SecureDirectoryStream<Path> dir) {
            dirs.push(dir);
            return dir;
        }

        SecureDirectoryStream<Path> last() {
            return dirs.peek();
        }

        @Override
        public void close() throws IOException {
            IOException first = null;
            while (!dirs.isEmpty()) {
                try {
                    dirs.pop().close();
                } catch (IOException e) {
                    if (first == null) {
                        first = e;
                    }
                }
            }
            if (first != null) {
                throw first;
            }
        }
    }
}
