package io.gfxstats.daemon.harvest;

import io.gfxstats.stats.Counters;
import io.gfxstats.stats.ProfileData;
import java.util.Arrays;

/**
 * Arithmetic on cumulative counter vectors: {@link Counters} first, then the counter groups'
 * elements ({@link io.gfxstats.buffer.CounterGroups}). A shorter vector (a mark written before
 * groups existed) counts as zero beyond its end.
 */
public final class CounterDeltas {
    private CounterDeltas() {
    }

    /**
     * What {@code current} holds beyond {@code baseline}. Counters only grow, so a negative
     * difference can only mean the baseline belongs to another incarnation of the buffer; it is
     * treated as nothing new rather than subtracting frames from a day file.
     */
    public static long[] difference(long[] current, long[] baseline) {
        long[] d = new long[current.length];
        for (int i = 0; i < current.length; i++) {
            long v = current[i] - (baseline == null || i >= baseline.length ? 0 : baseline[i]);
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
        long[] m = new long[Math.max(a.length, b.length)];
        for (int i = 0; i < m.length; i++) {
            m[i] = Math.max(i < a.length ? a[i] : 0, i < b.length ? b[i] : 0);
        }
        return m;
    }

    /** The Android counters of a vector (its first {@link Counters#COUNT} entries). */
    public static ProfileData toProfileData(long[] counters) {
        ProfileData p = new ProfileData();
        p.addAll(counters.length == Counters.COUNT ? counters : Arrays.copyOf(counters, Counters.COUNT));
        return p;
    }
}
