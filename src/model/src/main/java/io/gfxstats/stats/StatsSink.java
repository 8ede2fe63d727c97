package io.gfxstats.stats;

/**
 * Where a tracker counts. Implemented by the in-memory {@link ProfileData} and by the mapped
 * buffer writer, so the jank rules are written once for both.
 */
public interface StatsSink {
    /** Adds one to the counter with the given {@link Counters} index. */
    void increment(int counter);
}
