package io.gfxstats.frame;

/**
 * Arithmetic on vsync periods for the per-frame path. Both deadline rules round a late frame's
 * time to the next vsync with {@code x % period}; a 64-bit division costs tens of cycles on the
 * render thread for every late frame, while a late frame is almost always fewer than four periods
 * past its vsync.
 */
final class Periods {
    private Periods() {
    }

    /** Periods up to this take the subtractions: four of them and their doubles stay far from overflow. */
    private static final long SUBTRACT_LIMIT = 1L << 60;

    /**
     * Exactly {@code x % period}. For {@code 0 <= x < 4 * period} (and a period of at most
     * 2^60 ns, decades) it subtracts twice the period, then the period, each only when it fits
     * (conditional moves, no division); anything else takes the division.
     */
    static long remainder(long x, long period) {
        if (period > 0 && period <= SUBTRACT_LIMIT && x >= 0 && x < period << 2) {
            long twice = period << 1;
            long r = x >= twice ? x - twice : x;
            return r >= period ? r - period : r;
        }
        return x % period;
    }
}
