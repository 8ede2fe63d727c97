package io.gfxstats.daemon.harvest;

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
     * The counters of a mark, or null for a mark written by a layout with another counter count
     * (a foreign or future mark is ignored rather than trusted).
     */
    public static long[] counters(GfxstatsBufferMark mark) {
        if (mark.getCountersCount() != Counters.COUNT) {
            return null;
        }
        long[] c = new long[Counters.COUNT];
        for (int i = 0; i < c.length; i++) {
            c[i] = mark.getCounters(i);
        }
        return Arrays.stream(c).anyMatch(v -> v < 0) ? null : c;
    }
}
