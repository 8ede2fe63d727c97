package io.gfxstats.stats;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class ProfileDataTest {
    private static ProfileData patterned(long start, Pipeline pipeline, int factor) {
        ProfileData d = new ProfileData(start, pipeline);
        for (int i = 0; i < Counters.COUNT; i++) {
            d.add(i, (long) (i + 1) * factor);
        }
        return d;
    }

    @Test
    void shouldAddEveryCounterWhenMerging() {
        ProfileData a = patterned(2000, Pipeline.UNKNOWN, 1);
        ProfileData b = patterned(1000, Pipeline.VULKAN, 3);
        a.merge(b);
        for (int i = 0; i < Counters.COUNT; i++) {
            assertEquals((i + 1) * 4L, a.get(i), "counter " + i);
        }
        assertEquals(1000, a.statsStartMillis());
        assertEquals(Pipeline.VULKAN, a.pipeline());
    }

    @Test
    void shouldKeepTheEarlierNonZeroStartAndTheKnownPipeline() {
        ProfileData a = patterned(0, Pipeline.GL, 1);
        a.merge(patterned(500, Pipeline.VULKAN, 1));
        assertEquals(500, a.statsStartMillis());
        assertEquals(Pipeline.GL, a.pipeline());
        a.merge(patterned(0, Pipeline.UNKNOWN, 1));
        assertEquals(500, a.statsStartMillis());
        a.merge(patterned(900, Pipeline.UNKNOWN, 1));
        assertEquals(500, a.statsStartMillis());
    }

    @Test
    void shouldRoundTripCountersThroughArrays() {
        ProfileData a = patterned(7, Pipeline.GL, 5);
        ProfileData b = new ProfileData(7, Pipeline.GL);
        b.addAll(a.toArray());
        assertEquals(a, b);
        assertEquals(a.hashCode(), b.hashCode());
        assertArrayEquals(a.toArray(), a.copy().toArray());
        assertThrows(IllegalArgumentException.class, () -> b.addAll(new long[Counters.COUNT - 1]));
        b.increment(Counters.TOTAL_FRAMES);
        assertNotEquals(a, b);
        b.reset();
        assertEquals(0, b.totalFrames());
    }

    @Test
    void shouldExposeCountersThroughNamedAccessors() {
        ProfileData d = patterned(0, Pipeline.UNKNOWN, 1);
        assertEquals(1, d.totalFrames());
        assertEquals(2, d.jankyFrames());
        assertEquals(3, d.jankyFramesLegacy());
        assertEquals(JankType.SLOW_DRAW.counter() + 1, d.jankCount(JankType.SLOW_DRAW));
        assertEquals(Counters.cpuBucket(5) + 1, d.cpuBucket(5));
        assertEquals(Counters.gpuBucket(25) + 1, d.gpuBucket(25));
    }
}
