package io.gfxstats.daemon.harvest;

import io.gfxstats.buffer.CounterGroups;
import io.gfxstats.stats.Counters;
import io.gfxstats.stats.Pipeline;
import java.util.Arrays;

/**
 * One live buffer's part in a save: its cumulative counters now and what of them is already in
 * a day file.
 *
 * @param bufferKey   stable identity of the buffer (its registration id)
 * @param current     cumulative counter vector read from the buffer ({@link CounterGroups})
 * @param baseline    cumulative counters already saved (null: nothing yet)
 * @param startMillis start of the span these frames belong to (buffer start, or midnight after a rotation)
 * @param sceneNames  names of the buffer's scene slots ("" unnamed), null without a scene group
 */
public record Contribution(String bufferKey, int pid, int uid, long[] current, long[] baseline,
                           long startMillis, Pipeline pipeline, String[] sceneNames) {
    /** A contribution of a buffer without scenes. */
    public Contribution(String bufferKey, int pid, int uid, long[] current, long[] baseline, long startMillis,
                        Pipeline pipeline) {
        this(bufferKey, pid, uid, current, baseline, startMillis, pipeline, null);
    }

    public Contribution {
        current = padded(current);
        baseline = baseline == null ? null : padded(baseline);
        if (current.length != CounterGroups.VECTOR_LENGTH
                || (baseline != null && baseline.length != CounterGroups.VECTOR_LENGTH)) {
            throw new IllegalArgumentException("counter vectors must have " + CounterGroups.VECTOR_LENGTH + " entries");
        }
    }

    /** A vector of only the Android counters gets zero group elements. */
    private static long[] padded(long[] v) {
        return v.length == Counters.COUNT ? Arrays.copyOf(v, CounterGroups.VECTOR_LENGTH) : v;
    }

    public long[] unsaved() {
        return CounterDeltas.difference(current, baseline);
    }

    /**
     * Whether a save must write this buffer: it has unsaved frames, or it was never saved at all.
     * A process that drew no frames still gets its (empty) entry, as on Android, which keeps
     * such entries after the process exits (dump shows them with 0 frames).
     */
    public boolean due() {
        return baseline == null || !CounterDeltas.isZero(unsaved());
    }
}
