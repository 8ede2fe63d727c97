package io.gfxstats.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class BucketBoundsTest {
    @Test
    void shouldGiveOneAscendingBoundPerAndroidBucketEndingInInfinity() {
        double[] cpu = BucketBounds.cpu();
        double[] gpu = BucketBounds.gpu();
        assertEquals(154, cpu.length);
        assertEquals(26, gpu.length);
        assertEquals(Double.POSITIVE_INFINITY, cpu[153]);
        assertEquals(Double.POSITIVE_INFINITY, gpu[25]);
        for (int i = 1; i < cpu.length; i++) {
            assertTrue(cpu[i] > cpu[i - 1], "ascending at " + i);
        }
    }

    @Test
    void shouldPutEveryDurationBelowItsBucketsBoundAndAtOrAboveThePreviousOne() {
        for (long us = 0; us < 5_200_000; us += 250) {
            long nanos = us * 1000;
            int i = Histograms.cpuBucketIndex(nanos);
            double s = nanos / 1e9;
            assertTrue(s >= BucketBounds.cpuLower(i) && s < BucketBounds.cpu()[i], us + " us in bucket " + i);
            int g = Histograms.gpuBucketIndex(nanos);
            assertTrue(s >= BucketBounds.gpuLower(g) && s < BucketBounds.gpu()[g], us + " us in GPU bucket " + g);
        }
    }

    @Test
    void shouldMatchAndroidsLabels() {
        // Label 6 holds 6.0-6.999 ms; label 53 holds 52-55.999 ms; label 150 holds 136-199.999 ms.
        int six = indexOfLabel(6);
        assertEquals(0.006, BucketBounds.cpuLower(six), 1e-12);
        assertEquals(0.007, BucketBounds.cpu()[six], 1e-12);
        int fiftyThree = indexOfLabel(53);
        assertEquals(0.052, BucketBounds.cpuLower(fiftyThree), 1e-12);
        assertEquals(0.056, BucketBounds.cpu()[fiftyThree], 1e-12);
        int oneFifty = indexOfLabel(150);
        assertEquals(0.136, BucketBounds.cpuLower(oneFifty), 1e-12);
        assertEquals(0.200, BucketBounds.cpu()[oneFifty], 1e-12);
    }

    static int indexOfLabel(int label) {
        for (int i = 0; i < Histograms.CPU_BUCKETS; i++) {
            if (Histograms.cpuLabel(i) == label) {
                return i;
            }
        }
        throw new IllegalArgumentException("no CPU bucket labelled " + label);
    }
}
