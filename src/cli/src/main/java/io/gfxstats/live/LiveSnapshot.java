package io.gfxstats.live;

import java.util.List;

/**
 * Every live (package, version, scene)'s cumulative counters at one moment.
 *
 * @param monotonicNanos when, on a monotonic clock (differences give the interval)
 * @param wallMillis     when, epoch milliseconds (for display and report times)
 */
public record LiveSnapshot(long monotonicNanos, long wallMillis, List<LiveScene> scenes) {
    public LiveSnapshot {
        scenes = List.copyOf(scenes);
    }
}
