package io.gfxstats.daemon.dump;

import io.gfxstats.proto.GraphicsStatsProto;
import io.gfxstats.store.DayStore;
import io.gfxstats.store.EntryKey;
import io.gfxstats.store.FileStamp;
import io.gfxstats.store.ReadResult;
import io.gfxstats.store.StoredEntry;
import java.io.IOException;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;

/**
 * Parsed day files kept between dumps. A file is re-read only when its stamp (inode, size,
 * mtime) changed, so a dump of thousands of unchanged files costs a stat each, not a parse.
 */
public final class DayFileCache {
    private final DayStore store;
    private final boolean enabled;
    private final Map<EntryKey, Cached> cache = new ConcurrentHashMap<>();

    /** @param enabled false re-reads every file on every dump (the naive baseline of the benchmarks) */
    public DayFileCache(DayStore store, boolean enabled) {
        this.store = store;
        this.enabled = enabled;
    }

    /**
     * The readable files among {@code entries}, in key order. Unreadable ones are quarantined by
     * the store. {@code entries} is a full listing of the keys matching {@code scope}: cached keys
     * in scope that it lacks are gone from disk and are evicted.
     */
    public Map<EntryKey, GraphicsStatsProto> read(List<StoredEntry> entries, Predicate<EntryKey> scope)
            throws IOException {
        Map<EntryKey, GraphicsStatsProto> out = new TreeMap<>();
        Set<EntryKey> seen = new HashSet<>();
        for (StoredEntry e : entries) {
            EntryKey key = e.key();
            seen.add(key);
            if (enabled) {
                Cached c = cache.get(key);
                if (c != null && c.stamp().equals(store.stamp(key))) {
                    out.put(key, c.proto());
                    continue;
                }
            }
            ReadResult r = store.read(key);
            if (r instanceof ReadResult.Found f) {
                out.put(key, f.stored());
                if (enabled) {
                    cache.put(key, new Cached(f.stamp(), f.stored()));
                }
            } else {
                cache.remove(key);
            }
        }
        cache.keySet().removeIf(k -> scope.test(k) && !seen.contains(k));
        return out;
    }

    public int size() {
        return cache.size();
    }

    private record Cached(FileStamp stamp, GraphicsStatsProto proto) {
    }
}
