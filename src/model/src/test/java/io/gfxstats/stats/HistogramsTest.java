package io.gfxstats.stats;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Bucket math against the ranges the spec states in words (section 4), for every millisecond
 * from 0 to 5000 and for the last nanosecond before each millisecond boundary.
 */
class HistogramsTest {
    private static final long MS = 1_000_000L;

    /** The label that holds {@code ms}, read off the spec's ranges rather than its formula. */
    static int expectedCpuLabel(long ms) {
        if (ms <= 5) {
            return 5; // "0 if ms <= 5"
        }
        if (ms <= 31) {
            return (int) ms; // 1 ms steps
        }
        if (ms <= 47) {
            return (int) (32 + (ms - 32) / 2 * 2); // 32 holds 32-33, 34 holds 34-35, ...
        }
        if (ms <= 51) {
            return 48; // 48 holds 48-51
        }
        if (ms <= 135) {
            return (int) (53 + (ms - 52) / 4 * 4); // 53 holds 52-55, ..., 133 holds 132-135
        }
        if (ms <= 199) {
            return 150; // Android counts 136-199 in the 150 bucket
        }
        return (int) Math.min(4950, ms / 50 * 50);
    }

    static int expectedGpuLabel(long ms) {
        return ms >= 25 ? 4950 : (int) ms + 1;
    }

    @Test
    void shouldLabelCpuBucketsAsAndroid() {
        List<Integer> expected = new ArrayList<>();
        for (int l = 5; l <= 32; l++) {
            expected.add(l);
        }
        for (int l = 34; l <= 48; l += 2) {
            expected.add(l);
        }
        for (int l = 53; l <= 133; l += 4) {
            expected.add(l);
        }
        for (int l = 150; l <= 4950; l += 50) {
            expected.add(l);
        }
        assertEquals(Histograms.CPU_BUCKETS, expected.size());
        assertEquals(57, Histograms.FAST_BUCKETS);
        assertArrayEquals(expected.stream().mapToInt(Integer::intValue).toArray(), Histograms.cpuLabels());
        for (int i = 0; i < Histograms.CPU_BUCKETS; i++) {
            assertEquals(expected.get(i), Histograms.cpuLabel(i));
        }
    }

    @Test
    void shouldLabelGpuBucketsOneToTwentyFiveThenOpenEnd() {
        int[] expected = new int[26];
        for (int i = 0; i < 25; i++) {
            expected[i] = i + 1;
        }
        expected[25] = 4950;
        assertArrayEquals(expected, Histograms.gpuLabels());
    }

    @Test
    void shouldPlaceEveryMillisecondFromZeroToFiveThousandInItsCpuBucket() {
        for (long ms = 0; ms <= 5000; ms++) {
            long exact = ms * MS;
            assertEquals(expectedCpuLabel(ms), Histograms.cpuLabel(Histograms.cpuBucketIndex(exact)), ms + " ms");
            if (ms > 0) {
                // The last nanosecond before the boundary still belongs to the previous millisecond.
                assertEquals(expectedCpuLabel(ms - 1), Histograms.cpuLabel(Histograms.cpuBucketIndex(exact - 1)),
                        ms + " ms - 1 ns");
            }
            assertEquals(Counters.CPU_BUCKET_BASE + Histograms.cpuBucketIndex(exact), Counters.cpuCounterForNanos(exact));
        }
    }

    @Test
    void shouldReachEveryCpuBucketAndNoOther() {
        boolean[] hit = new boolean[Histograms.CPU_BUCKETS];
        for (long ms = 0; ms <= 5000; ms++) {
            hit[Histograms.cpuBucketIndex(ms * MS)] = true;
        }
        for (int i = 0; i < hit.length; i++) {
            assertEquals(true, hit[i], "bucket " + Histograms.cpuLabel(i) + "ms never reached");
        }
    }

    @Test
    void shouldCountOneHundredThirtySixToOneHundredFortyNineMillisInTheOneFiftyBucket() {
        for (long ms = 136; ms <= 149; ms++) {
            assertEquals(150, Histograms.cpuLabel(Histograms.cpuBucketIndex(ms * MS)), ms + " ms");
            assertEquals(150, Histograms.cpuLabel(Histograms.cpuBucketIndex(ms * MS + MS - 1)), ms + " ms + 999999 ns");
        }
        assertEquals(133, Histograms.cpuLabel(Histograms.cpuBucketIndex(136 * MS - 1)));
        assertEquals(Histograms.FAST_BUCKETS, Histograms.cpuBucketIndex(136 * MS));
    }

    @Test
    void shouldClampDurationsOutsideTheCpuRange() {
        assertEquals(0, Histograms.cpuBucketIndex(0));
        assertEquals(0, Histograms.cpuBucketIndex(-5 * MS));
        assertEquals(0, Histograms.cpuBucketIndex(Long.MIN_VALUE));
        assertEquals(Histograms.CPU_BUCKETS - 1, Histograms.cpuBucketIndex(4950 * MS));
        assertEquals(Histograms.CPU_BUCKETS - 1, Histograms.cpuBucketIndex(3_600_000 * MS));
        assertEquals(Histograms.CPU_BUCKETS - 1, Histograms.cpuBucketIndex(Long.MAX_VALUE));
    }

    @Test
    void shouldLookUpTheSameCpuBucketTheFoldingArithmeticGives() {
        java.util.SplittableRandom random = new java.util.SplittableRandom(154);
        for (long ms = -10; ms <= 20_000; ms++) {
            for (long nanos : new long[] {ms * MS - 1, ms * MS, ms * MS + MS / 2}) {
                assertEquals(Histograms.cpuBucketIndexByArithmetic(nanos), Histograms.cpuBucketIndex(nanos), nanos + " ns");
            }
        }
        for (int i = 0; i < 1_000_000; i++) {
            long nanos = i % 2 == 0 ? random.nextLong() : random.nextLong(1L << (1 + i % 62));
            assertEquals(Histograms.cpuBucketIndexByArithmetic(nanos), Histograms.cpuBucketIndex(nanos), nanos + " ns");
        }
        for (long nanos : new long[] {Long.MIN_VALUE, Long.MIN_VALUE + 1, -1, 0, 1, Long.MAX_VALUE - 1, Long.MAX_VALUE}) {
            assertEquals(Histograms.cpuBucketIndexByArithmetic(nanos), Histograms.cpuBucketIndex(nanos), nanos + " ns");
        }
    }

    @Test
    void shouldPlaceEveryGpuMillisecondBoundaryInItsBucket() {
        for (long ms = 0; ms <= 60; ms++) {
            long exact = ms * MS;
            assertEquals(expectedGpuLabel(ms), Histograms.gpuLabel(Histograms.gpuBucketIndex(exact)), ms + " ms");
            if (ms > 0) {
                assertEquals(expectedGpuLabel(ms - 1), Histograms.gpuLabel(Histograms.gpuBucketIndex(exact - 1)),
                        ms + " ms - 1 ns");
            }
            assertEquals(Counters.GPU_BUCKET_BASE + Histograms.gpuBucketIndex(exact), Counters.gpuCounterForNanos(exact));
        }
        assertEquals(Histograms.GPU_BUCKETS - 1, Histograms.gpuBucketIndex(Long.MAX_VALUE));
        assertEquals(Histograms.GPU_BUCKETS - 1, Histograms.gpuBucketIndex(5000 * MS));
    }

    @Test
    void shouldNumberCountersContiguouslyInDocumentedOrder() {
        assertEquals(0, Counters.TOTAL_FRAMES);
        assertEquals(1, Counters.JANKY_FRAMES);
        assertEquals(2, Counters.JANKY_FRAMES_LEGACY);
        assertEquals(3, JankType.MISSED_VSYNC.counter());
        assertEquals(9, JankType.MISSED_DEADLINE_LEGACY.counter());
        assertEquals(10, Counters.cpuBucket(0));
        assertEquals(163, Counters.cpuBucket(153));
        assertEquals(164, Counters.gpuBucket(0));
        assertEquals(190, Counters.COUNT);
    }
}
