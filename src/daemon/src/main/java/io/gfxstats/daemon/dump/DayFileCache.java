package io.gfxstats.daemon.dump;

import io.gfxstats.daemon.rpc.Problems;
import io.gfxstats.proto.GraphicsStatsProto;
import io.gfxstats.store.DayStore;
import io.gfxstats.store.EntryKey;
import io.gfxstats.store.FileStamp;
import io.gfxstats.store.ReadResult;
import io.gfxstats.store.StoredEntry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Parsed day files kept between dumps, as dumps show them (without the daemon's buffer marks)
 * and compacted by {@link CachedProtos}.
 *
 * <p>A full check of the disk lists the store (a walk of every day, package and version
 * directory) and compares each file's stamp (inode, size, mtime) with the cached one; only a
 * file whose stamp changed is re-read. For thousands of files the walk was most of a dump's
 * cost and almost always found nothing new: the daemon is the only writer of its data directory
 * (the store's lock), so files appear only when the daemon saves, rotates or applies retention,
 * and it says so with {@link #invalidate()}. Between such changes a dump checks just the stamps
 * of the files it already knows, one stat each: a file changed, replaced, damaged or removed by
 * hand is noticed by the next dump; a file added by hand (a restored backup) by the first dump
 * after the re-check interval, when the walk runs again.
 *
 * <p>What it holds has a budget, {@link #DEFAULT_BUDGET_DIVISOR a quarter} of the heap by
 * default, counted as the serialized size of the compacted protos (real day files compact to a
 * few KiB; 3000 of them hold under 10 MiB). A file that would take the total past it is left out
 * of dumps, pulls and the metrics, named in one log line, and stays on disk untouched: files that
 * each pass {@code data.file.max.size} but together exceed the heap (a large unknown field in each,
 * issue 26) would otherwise end every dump, and the start-up with metrics, in OutOfMemoryError.
 *
 * <p>Thread-safe: dumps read concurrently (under the daemon's read lock); {@link #invalidate()}
 * is called by writers (under its write lock).
 */
public final class DayFileCache {
    /** Longest time a dump relies on the last directory walk when the daemon changed nothing. */
    public static final Duration RECHECK_INTERVAL = Duration.ofSeconds(1);

    private static final Logger log = LoggerFactory.getLogger(DayFileCache.class);
    private static final int MAX_SKIPPED_REPORTS = 10_000;
    /** The budget is the JVM's maximum heap divided by this. */
    public static final int DEFAULT_BUDGET_DIVISOR = 4;

    private final DayStore store;
    private final Set<String> skipped = ConcurrentHashMap.newKeySet();
    private final boolean enabled;
    private final LongSupplier nanoClock;
    private final long recheckNanos;
    private final long budgetBytes;
    private final Map<EntryKey, Cached> cache = new ConcurrentHashMap<>();
    /** Files left out for the budget, by the stamp they had: not read again until they change or fit. */
    private final Map<EntryKey, OverBudget> overBudget = new ConcurrentHashMap<>();
    private final Set<EntryKey> namedOverBudget = ConcurrentHashMap.newKeySet();
    private final AtomicInteger reportedOverBudget = new AtomicInteger();
    private static final int NAMED_OVER_BUDGET = 10;
    private final AtomicLong changes = new AtomicLong();
    private volatile Checked lastCheck;

    /** @param enabled false re-reads every file on every dump (the naive baseline of the benchmarks) */
    public DayFileCache(DayStore store, boolean enabled) {
        this(store, enabled, System::nanoTime, RECHECK_INTERVAL);
    }

    /** @param nanoClock monotonic nanoseconds (tests move it instead of sleeping) */
    public DayFileCache(DayStore store, boolean enabled, LongSupplier nanoClock, Duration recheckInterval) {
        this(store, enabled, nanoClock, recheckInterval, Runtime.getRuntime().maxMemory() / DEFAULT_BUDGET_DIVISOR);
    }

    /** @param budgetBytes most bytes of compacted protos held at once (see the class comment) */
    public DayFileCache(DayStore store, boolean enabled, LongSupplier nanoClock, Duration recheckInterval,
                        long budgetBytes) {
        this.budgetBytes = budgetBytes;
        this.store = store;
        this.enabled = enabled;
        this.nanoClock = nanoClock;
        this.recheckNanos = recheckInterval.toNanos();
    }

    /** The daemon changed day files (or may have: a failed save): the next read checks the disk. */
    public void invalidate() {
        changes.incrementAndGet();
    }

    /** Every readable day file of every retained day, in key order. Unreadable ones are quarantined by the store. */
    public SortedMap<EntryKey, GraphicsStatsProto> readAll() throws IOException {
        Checked trusted = trusted();
        if (trusted != null) {
            return trusted.files;
        }
        long changesBefore = changes.get();
        long checkedAt = nanoClock.getAsLong();
        Map<EntryKey, Cached> found = read(store.list(), k -> true);
        Checked check = new Checked(changesBefore, checkedAt, found, protos(found, k -> true));
        if (enabled) {
            lastCheck = check;
        }
        return check.files;
    }

    /** The readable day files of one day, in key order. */
    public SortedMap<EntryKey, GraphicsStatsProto> readDay(long dayStart) throws IOException {
        Checked trusted = trusted();
        if (trusted != null) {
            return protos(trusted.found, k -> k.dayStart() == dayStart);
        }
        return protos(read(store.list(dayStart), k -> k.dayStart() == dayStart), k -> true);
    }

    private static SortedMap<EntryKey, GraphicsStatsProto> protos(Map<EntryKey, Cached> found,
                                                                 Predicate<EntryKey> keep) {
        SortedMap<EntryKey, GraphicsStatsProto> out = new TreeMap<>();
        for (Map.Entry<EntryKey, Cached> e : found.entrySet()) {
            if (keep.test(e.getKey())) {
                out.put(e.getKey(), e.getValue().proto());
            }
        }
        return Collections.unmodifiableSortedMap(out);
    }

    /**
     * The last full check, if the daemon changed nothing since, it is recent enough, and every
     * file it found still has the stamp it had then (one lstat each, by path: a comparison,
     * never a read, so following a link in the path cannot expose anything; a changed file
     * fails it).
     */
    private Checked trusted() throws IOException {
        Checked c = lastCheck;
        if (!enabled || c == null || c.changes != changes.get()
                || nanoClock.getAsLong() - c.checkedAtNanos >= recheckNanos) {
            return null;
        }
        for (Cached cached : c.found.values()) {
            if (!sameFile(cached.stamp(), lstat(cached.path()))) {
                return null;
            }
        }
        return c;
    }

    private static BasicFileAttributes lstat(Path path) throws IOException {
        try {
            return Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException | NotDirectoryException e) {
            return null;
        }
    }

    private static boolean sameFile(FileStamp stamp, BasicFileAttributes attrs) {
        return attrs != null && attrs.isRegularFile() && stamp.size() == attrs.size()
                && Objects.equals(stamp.fileKey(), attrs.fileKey())
                && Objects.equals(stamp.lastModified(), attrs.lastModifiedTime());
    }

    /**
     * The readable files among {@code entries}, in key order. {@code entries} is a full listing
     * of the keys matching {@code scope}: cached keys in scope that it lacks are gone from disk
     * and are evicted.
     */
    private Map<EntryKey, Cached> read(List<StoredEntry> entries, Predicate<EntryKey> scope) throws IOException {
        Map<EntryKey, Cached> out = new TreeMap<>();
        Set<EntryKey> seen = new HashSet<>();
        long held = 0;
        for (StoredEntry e : entries) {
            EntryKey key = e.key();
            seen.add(key);
            if (enabled) {
                Cached c = cache.get(key);
                if (c != null && c.stamp().equals(store.stamp(key))) {
                    if (held + c.bytes() > budgetBytes) {
                        overBudget(key, c.bytes());
                        cache.remove(key);
                        continue;
                    }
                    held += c.bytes();
                    out.put(key, c);
                    continue;
                }
            }
            OverBudget left = overBudget.get(key);
            if (left != null && held + left.bytes() > budgetBytes && left.stamp().equals(store.stamp(key))) {
                continue; // still too big for what is left of the budget: reading it again would only cost
            }
            ReadResult r;
            try {
                r = store.read(key);
            } catch (IOException ex) {
                // One bad file must not break every dump: skip it, say which and why (once per file).
                String line = store.pathOf(key) + ": skipped in dumps and pulls: " + Problems.describe(ex);
                if (skipped.size() < MAX_SKIPPED_REPORTS && skipped.add(line)) {
                    log.warn("{}", line);
                }
                cache.remove(key);
                continue;
            }
            if (r instanceof ReadResult.Found f) {
                GraphicsStatsProto proto = enabled ? CachedProtos.compact(f.stored()) : f.stored();
                long bytes = proto.getSerializedSize();
                if (held + bytes > budgetBytes) {
                    overBudget(key, bytes);
                    overBudget.put(key, new OverBudget(f.stamp(), bytes));
                    cache.remove(key);
                    continue;
                }
                overBudget.remove(key);
                held += bytes;
                Cached c = new Cached(f.stamp(), enabled ? store.pathOf(key) : null, proto, bytes);
                out.put(key, c);
                if (enabled) {
                    cache.put(key, c);
                }
            } else {
                cache.remove(key);
            }
        }
        cache.keySet().removeIf(k -> scope.test(k) && !seen.contains(k));
        overBudget.keySet().removeIf(k -> scope.test(k) && !seen.contains(k));
        reportOverBudget();
        return out;
    }

    public int size() {
        return cache.size();
    }

    /** Names the first {@value #NAMED_OVER_BUDGET} files left out; {@link #reportOverBudget} counts the rest. */
    private void overBudget(EntryKey key, long bytes) {
        if (namedOverBudget.size() >= NAMED_OVER_BUDGET || namedOverBudget.contains(key)) {
            return;
        }
        namedOverBudget.add(key);
        log.warn("{}: skipped in dumps, pulls and metrics: its {} KiB would take the day files held in memory past"
                + " their budget of {} MiB (a quarter of the heap; raise GFXSTATSD_HEAP, or move the file away:"
                + " day files of real clients are a few KiB)", store.pathOf(key), bytes / 1024, budgetBytes >> 20);
    }

    /** One line when the number of files left out changed and more are left out than were named. */
    private void reportOverBudget() {
        int now = overBudget.size();
        int before = reportedOverBudget.getAndSet(now);
        if (now != before && now > NAMED_OVER_BUDGET) {
            log.warn("{} day files are left out of dumps, pulls and metrics for the memory budget of {} MiB "
                    + "(the first {} are named above)", now, budgetBytes >> 20, NAMED_OVER_BUDGET);
        }
    }

    private record Cached(FileStamp stamp, Path path, GraphicsStatsProto proto, long bytes) {
    }

    private record OverBudget(FileStamp stamp, long bytes) {
    }

    /**
     * Result of a full check of the disk: what was found (with the stamps it had then) and the
     * protos to dump. Trusted while {@link #changes} still equals {@code changes}.
     */
    private record Checked(long changes, long checkedAtNanos, Map<EntryKey, Cached> found,
                           SortedMap<EntryKey, GraphicsStatsProto> files) {
    }
}
