package io.gfxstats.daemon.harvest;

import io.gfxstats.buffer.CounterGroups;
import io.gfxstats.proto.GfxstatsBufferMark;
import io.gfxstats.stats.Counters;
import java.util.Arrays;

/** Conversion between a buffer's harvested counters and the mark persisted in a day file. */
public final class BufferMarks {
    private BufferMarks() {
    }

    public static GfxstatsBufferMark mark(String key, int pid, long[] counters, long nowMillis) {
        GfxstatsBufferMark.Builder b = GfxstatsBufferMark.newBuilder()
                .setBufferKey(key).setPid(pid).setHarvestedAt(nowMillis);
        for (long c : counters) {
            b.addCounters(c);
        }
        return b.build();
    }

    /**
     * The counter vector of a mark ({@link CounterGroups}), or null for a mark of another length
     * (a foreign or future mark is ignored rather than trusted). A mark written by an earlier
     * release (only the {@link Counters#COUNT} Android counters, or fewer groups) has zero for
     * the groups it lacks.
     */
    public static long[] counters(GfxstatsBufferMark mark) {
        int n = mark.getCountersCount();
        if (!CounterGroups.isVectorPrefix(n)) {
            return null;
        }
        long[] c = new long[CounterGroups.VECTOR_LENGTH];
        for (int i = 0; i < n; i++) {
            c[i] = mark.getCounters(i);
        }
        return Arrays.stream(c).anyMatch(v -> v < 0) ? null : c;
    }
}
