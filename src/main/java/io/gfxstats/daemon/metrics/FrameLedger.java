package io.gfxstats.daemon.metrics;

import io.gfxstats.stats.Counters;
import java.util.Map;
import java.util.TreeMap;

/**
 * Everything the daemon has saved to day files in its life, per series, as {@link MetricVector}s: seeded once from the day files found at start, then grown by each save. Never
 * decreased (retention deletes files, not what was counted), so together with the live buffers'
 * unsaved frames it gives counters that are monotonic for the life of the daemon and cost no
 * disk read to expose.
 *
 * <p>Thread-safe; the daemon updates it under its state lock, so a reader that also holds the
 * lock sees a save either wholly in the ledger or wholly still in the live buffer.
 */
public final class FrameLedger {
    private final Map<SeriesKey, long[]> saved = new TreeMap<>();

    /** Adds counters (a save's unsaved part, or a day file at start). */
    public synchronized void add(SeriesKey key, long[] counters) {
        if (counters.length != MetricVector.LENGTH) {
            throw new IllegalArgumentException("expected " + MetricVector.LENGTH + " counters, got " + counters.length);
        }
        long[] into = saved.computeIfAbsent(key, k -> new long[MetricVector.LENGTH]);
        for (int i = 0; i < MetricVector.LENGTH; i++) {
            into[i] += counters[i];
        }
    }

    /** Forgets everything (before seeding from the day files). */
    public synchronized void clear() {
        saved.clear();
    }

    /** A deep copy, in key order. */
    public synchronized Map<SeriesKey, long[]> copy() {
        Map<SeriesKey, long[]> out = new TreeMap<>();
        saved.forEach((k, v) -> out.put(k, v.clone()));
        return out;
    }
}
