package io.gfxstats.live;

import java.util.List;
import java.util.Map;

/**
 * Every live (package, version, scene)'s cumulative counters at one moment.
 *
 * @param monotonicNanos when, on a monotonic clock (differences give the interval)
 * @param wallMillis     when, epoch milliseconds (for display and report times)
 * @param ringDropped    per (package, version) with any: frames its live processes recorded but
 *                       could not count because a recording ring was full, since each process
 *                       began (per package, not per scene: a ring belongs to a window)
 */
public record LiveSnapshot(long monotonicNanos, long wallMillis, List<LiveScene> scenes,
                           Map<PackageKey, Long> ringDropped) {
    public LiveSnapshot {
        scenes = List.copyOf(scenes);
        ringDropped = Map.copyOf(ringDropped);
    }

    /** A snapshot whose processes lost no frames. */
    public LiveSnapshot(long monotonicNanos, long wallMillis, List<LiveScene> scenes) {
        this(monotonicNanos, wallMillis, scenes, Map.of());
    }

    /** One package version, the unit ring drops are counted in. */
    public record PackageKey(String packageName, long versionCode) {
    }
}
