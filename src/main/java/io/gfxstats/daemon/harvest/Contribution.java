package io.gfxstats.daemon.harvest;

import io.gfxstats.stats.Counters;
import io.gfxstats.stats.Pipeline;

/**
 * One live buffer's part in a save: its cumulative counters now and what of them is already in
 * a day file.
 *
 * @param bufferKey   stable identity of the buffer (its registration id)
 * @param current     cumulative counters read from the buffer, {@link Counters} order
 * @param baseline    cumulative counters already saved (null: nothing yet)
 * @param startMillis start of the span these frames belong to (buffer start, or midnight after a rotation)
 */
public record Contribution(String bufferKey, int pid, int uid, long[] current, long[] baseline,
                           long startMillis, Pipeline pipeline) {
    public Contribution {
        if (current.length != Counters.COUNT || (baseline != null && baseline.length != Counters.COUNT)) {
            throw new IllegalArgumentException("counter vectors must have " + Counters.COUNT + " entries");
        }
    }

    public long[] unsaved() {
        return CounterDeltas.difference(current, baseline);
    }
}
