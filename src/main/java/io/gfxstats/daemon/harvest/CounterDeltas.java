package io.gfxstats.daemon.harvest;

import io.gfxstats.stats.Counters;
import io.gfxstats.stats.ProfileData;

/** Arithmetic on cumulative counter vectors in {@link Counters} order. */
public final class CounterDeltas {
    private CounterDeltas() {
    }

    /**
     * What {@code current} holds beyond {@code baseline}. Counters only grow, so a negative
     * difference can only mean the baseline belongs to another incarnation of the buffer; it is
     * treated as nothing new rather than subtracting frames from a day file.
     */
    public static long[] difference(long[] current, long[] baseline) {
        long[] d = new long[Counters.COUNT];
        for (int i = 0; i < Counters.COUNT; i++) {
            long v = current[i] - (baseline == null ? 0 : baseline[i]);
            d[i] = Math.max(v, 0);
        }
        return d;
    }

    public static boolean isZero(long[] counters) {
        for (long c : counters) {
            if (c != 0) {
                return false;
            }
        }
        return true;
    }

    /** Component-wise maximum; marks of one buffer in several day files are merged this way. */
    public static long[] max(long[] a, long[] b) {
        if (a == null) {
            return b.clone();
        }
        long[] m = new long[Counters.COUNT];
        for (int i = 0; i < Counters.COUNT; i++) {
            m[i] = Math.max(a[i], b[i]);
        }
        return m;
    }

    public static ProfileData toProfileData(long[] counters) {
        ProfileData p = new ProfileData();
        p.addAll(counters);
        return p;
    }
}
