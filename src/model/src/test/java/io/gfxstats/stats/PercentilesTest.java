package io.gfxstats.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The percentile rule of spec section 5 on hand-built histograms. */
class PercentilesTest {
    private static final int[] PS = {50, 90, 95, 99};

    private static long[] cpu() {
        return new long[Histograms.CPU_BUCKETS];
    }

    private static int cpuIndex(int label) {
        int[] labels = Histograms.cpuLabels();
        for (int i = 0; i < labels.length; i++) {
            if (labels[i] == label) {
                return i;
            }
        }
        throw new IllegalArgumentException("no bucket " + label);
    }

    @Test
    void shouldPrintOpenEndLabelForEmptyHistograms() {
        for (int p : PS) {
            assertEquals(4950, Percentiles.of(p, 0, Histograms.cpuLabels(), cpu()));
            assertEquals(4950, Percentiles.of(p, 0, Histograms.gpuLabels(), new long[Histograms.GPU_BUCKETS]));
        }
        ProfileData empty = new ProfileData();
        assertEquals(4950, empty.cpuPercentile(50));
        assertEquals(4950, empty.gpuPercentile(99));
    }

    @Test
    void shouldReturnTheOnlyBucketForEveryPercentile() {
        long[] counts = cpu();
        counts[cpuIndex(16)] = 7;
        for (int p : PS) {
            assertEquals(16, Percentiles.of(p, 7, Histograms.cpuLabels(), counts));
        }
        long[] gpu = new long[Histograms.GPU_BUCKETS];
        gpu[3] = 1;
        for (int p : PS) {
            assertEquals(4, Percentiles.of(p, 1, Histograms.gpuLabels(), gpu));
        }
    }

    @Test
    void shouldWalkDownFromTheHighestBucket() {
        // 100 frames: 60 at 8 ms, 30 at 16 ms, 6 at 40 ms, 4 at 700 ms.
        long[] counts = cpu();
        counts[cpuIndex(8)] = 60;
        counts[cpuIndex(16)] = 30;
        counts[cpuIndex(40)] = 6;
        counts[cpuIndex(700)] = 4;
        int[] labels = Histograms.cpuLabels();
        // p50: pos 50, remaining 50: 700 -> 46, 40 -> 40, 16 -> 10, 8 -> -50.
        assertEquals(8, Percentiles.of(50, 100, labels, counts));
        // p90: remaining 10: 700 -> 6, 40 -> 0.
        assertEquals(40, Percentiles.of(90, 100, labels, counts));
        // p95: remaining 5: 700 -> 1, 40 -> -5.
        assertEquals(40, Percentiles.of(95, 100, labels, counts));
        // p99: remaining 1: 700 -> -3.
        assertEquals(700, Percentiles.of(99, 100, labels, counts));
        // p96: remaining 4: 700 -> 0 exactly.
        assertEquals(700, Percentiles.of(96, 100, labels, counts));
    }

    @Test
    void shouldTruncateThePositionTowardZero() {
        // 3 frames: pos(50) = 150/100 = 1, remaining 2.
        long[] counts = cpu();
        counts[cpuIndex(5)] = 1;
        counts[cpuIndex(20)] = 1;
        counts[cpuIndex(30)] = 1;
        int[] labels = Histograms.cpuLabels();
        assertEquals(20, Percentiles.of(50, 3, labels, counts));
        // p99: pos = 297/100 = 2, remaining 1.
        assertEquals(30, Percentiles.of(99, 3, labels, counts));
    }

    @Test
    void shouldUseTheGivenTotalNotTheBucketSum() {
        // The CPU percentiles use the summary total; a total above the bucket sum never runs out.
        long[] counts = cpu();
        counts[cpuIndex(10)] = 5;
        assertEquals(0, Percentiles.of(50, 100, Histograms.cpuLabels(), counts));
    }

    @Test
    void shouldNotOverflowPastTwoToTheThirtyOneFrames() {
        long[] counts = cpu();
        counts[cpuIndex(16)] = 3_000_000_000L;
        counts[cpuIndex(150)] = 1_000_000_000L;
        long total = 4_000_000_000L;
        int[] labels = Histograms.cpuLabels();
        // p50: remaining 2e9: 150 -> 1e9, 16 -> -2e9.
        assertEquals(16, Percentiles.of(50, total, labels, counts));
        // p90: remaining 4e8: 150 -> -6e8.
        assertEquals(150, Percentiles.of(90, total, labels, counts));
        assertEquals(150, Percentiles.of(99, total, labels, counts));

        // 30 million frames: 99 * 30e6 overflows int32, which would print a wrong percentile.
        long[] small = cpu();
        small[cpuIndex(8)] = 29_000_000L;
        small[cpuIndex(100 - 3)] = 1_000_000L; // 97 ms
        assertEquals(97, Percentiles.of(99, 30_000_000L, labels, small));
        assertEquals(8, Percentiles.of(95, 30_000_000L, labels, small));

        ProfileData data = new ProfileData();
        data.add(Counters.TOTAL_FRAMES, total);
        data.add(Counters.cpuBucket(cpuIndex(16)), 3_000_000_000L);
        data.add(Counters.cpuBucket(cpuIndex(150)), 1_000_000_000L);
        data.add(Counters.gpuBucket(2), 3_000_000_000L);
        data.add(Counters.gpuBucket(25), 1_000_000_000L);
        assertEquals(16, data.cpuPercentile(50));
        assertEquals(150, data.cpuPercentile(90));
        assertEquals(3, data.gpuPercentile(50));
        assertEquals(4950, data.gpuPercentile(90));
    }

    @Test
    void shouldReadCountsAtAnOffset() {
        long[] flat = new long[Counters.COUNT];
        flat[Counters.gpuBucket(4)] = 10;
        assertEquals(5, Percentiles.of(50, 10, Histograms.gpuLabels(), flat, Counters.GPU_BUCKET_BASE));
    }
}
