package io.gfxstats.daemon.metrics;

import io.gfxstats.scene.SceneCounters;
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
    /** Per series, per scene name: {@code io.gfxstats.scene.SceneCounters} arrays. */
    private final Map<SeriesKey, Map<String, long[]>> scenes = new TreeMap<>();

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

    /** Adds per-scene counters (a save's unsaved part, or a day file's scenes at start). */
    public synchronized void addScenes(SeriesKey key, Map<String, long[]> byScene) {
        if (byScene.isEmpty()) {
            return;
        }
        Map<String, long[]> into = scenes.computeIfAbsent(key, k -> new TreeMap<>());
        byScene.forEach((scene, v) -> into.merge(scene, v.clone(), SceneCounters::add));
    }

    /** A deep copy of the scenes, in key and name order. */
    public synchronized Map<SeriesKey, Map<String, long[]>> copyScenes() {
        Map<SeriesKey, Map<String, long[]>> out = new TreeMap<>();
        scenes.forEach((k, m) -> {
            Map<String, long[]> c = new TreeMap<>();
            m.forEach((scene, v) -> c.put(scene, v.clone()));
            out.put(k, c);
        });
        return out;
    }

    /** Forgets everything (before seeding from the day files). */
    public synchronized void clear() {
        saved.clear();
        scenes.clear();
    }

    /** A deep copy, in key order. */
    public synchronized Map<SeriesKey, long[]> copy() {
        Map<SeriesKey, long[]> out = new TreeMap<>();
        saved.forEach((k, v) -> out.put(k, v.clone()));
        return out;
    }
}
