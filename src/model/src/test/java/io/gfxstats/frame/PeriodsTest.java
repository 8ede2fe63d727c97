package io.gfxstats.frame;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;

class PeriodsTest {
    private static final long[] PERIODS = {1, 2, 3, 7, 8_333_333, 11_111_111, 16_666_666, 16_666_667, 33_333_333,
            1L << 59, (1L << 60) - 1, 1L << 60, (1L << 60) + 1, (1L << 61) + 3, 1L << 62, Long.MAX_VALUE,
            -1, -16_666_667, Long.MIN_VALUE};

    @Test
    void shouldEqualTheDivisionsRemainderAroundEveryMultipleUpToEightPeriods() {
        for (long p : PERIODS) {
            for (long k = -8; k <= 8; k++) {
                for (long e = -2; e <= 2; e++) {
                    long x = k * p + e;
                    assertEquals(x % p, Periods.remainder(x, p), () -> x + " % " + p);
                }
            }
        }
    }

    @Test
    void shouldEqualTheDivisionsRemainderAtTheExtremes() {
        long[] xs = {0, 1, -1, Long.MAX_VALUE, Long.MIN_VALUE, Long.MAX_VALUE - 1, Long.MIN_VALUE + 1};
        for (long p : PERIODS) {
            for (long x : xs) {
                assertEquals(x % p, Periods.remainder(x, p), () -> x + " % " + p);
            }
        }
    }

    @Test
    void shouldEqualTheDivisionsRemainderForRandomLateFrames() {
        SplittableRandom random = new SplittableRandom(7);
        for (int i = 0; i < 1_000_000; i++) {
            long p = random.nextLong(1, 100_000_000);
            long x = random.nextInt(4) == 0 ? random.nextLong() : random.nextLong(-p, 6 * p);
            assertEquals(x % p, Periods.remainder(x, p), () -> x + " % " + p);
        }
    }
}
