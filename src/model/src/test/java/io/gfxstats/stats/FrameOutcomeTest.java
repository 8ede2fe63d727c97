package io.gfxstats.stats;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

class FrameOutcomeTest {

    private static List<Integer> counted(int outcome) {
        List<Integer> counters = new ArrayList<>();
        FrameOutcome.countInto(outcome, counters::add);
        return counters;
    }

    @Test
    void shouldCountNothingForNone() {
        assertEquals(List.of(), counted(FrameOutcome.NONE));
    }

    @Test
    void shouldCountTheTotalAndCpuBucketFirstThenJankThenGpu() {
        for (int cpu = 0; cpu < Histograms.CPU_BUCKETS; cpu++) {
            for (int gpu = -1; gpu < Histograms.GPU_BUCKETS; gpu++) {
                int o = FrameOutcome.counted(cpu);
                if (gpu >= 0) {
                    o = FrameOutcome.withGpu(o, gpu);
                }
                o += 2 * FrameOutcome.LATENCY_ONE;
                assertTrue(FrameOutcome.isCounted(o));
                assertEquals(cpu, FrameOutcome.cpuBucket(o));
                assertEquals(gpu, FrameOutcome.gpuBucket(o));
                assertEquals(2, FrameOutcome.latencyCount(o));
                List<Integer> expected = new ArrayList<>(List.of(Counters.TOTAL_FRAMES, Counters.CPU_BUCKET_BASE + cpu,
                        JankType.HIGH_INPUT_LATENCY.counter(), JankType.HIGH_INPUT_LATENCY.counter()));
                if (gpu >= 0) {
                    expected.add(Counters.GPU_BUCKET_BASE + gpu);
                }
                assertEquals(expected, counted(o));
            }
        }
    }

    @Test
    void shouldCountEachRareBitsCounterOnceInBitOrder() {
        int[] bits = {FrameOutcome.JANKY_LEGACY, FrameOutcome.MISSED_DEADLINE_LEGACY, FrameOutcome.MISSED_DEADLINE,
                FrameOutcome.MISSED_VSYNC, FrameOutcome.SLOW_UI_THREAD, FrameOutcome.SLOW_BITMAP_UPLOAD,
                FrameOutcome.SLOW_DRAW, FrameOutcome.JANKY};
        int[] counters = {Counters.JANKY_FRAMES_LEGACY, JankType.MISSED_DEADLINE_LEGACY.counter(),
                JankType.MISSED_DEADLINE.counter(), JankType.MISSED_VSYNC.counter(),
                JankType.SLOW_UI_THREAD.counter(), JankType.SLOW_BITMAP_UPLOAD.counter(),
                JankType.SLOW_DRAW.counter(), Counters.JANKY_FRAMES};
        for (int i = 0; i < bits.length; i++) {
            assertEquals(List.of(counters[i]), counted(bits[i]));
            assertNotEquals(0, bits[i] & FrameOutcome.RARE);
        }
        assertEquals(List.of(JankType.MISSED_DEADLINE.counter(), Counters.JANKY_FRAMES),
                counted(FrameOutcome.MISSED_AND_JANKY));
        int all = 0;
        List<Integer> inOrder = new ArrayList<>();
        for (int i = 0; i < bits.length; i++) {
            all |= bits[i];
            inOrder.add(counters[i]);
        }
        assertEquals(FrameOutcome.RARE, all);
        assertEquals(inOrder, counted(all));
    }

    @Test
    void shouldCountTheLegacyLatencyOfAFrameWithoutATotal() {
        // The legacy accounting runs on the swap span; a frame whose own total is not positive
        // still counts its High input latency, and nothing else.
        assertEquals(List.of(JankType.HIGH_INPUT_LATENCY.counter()), counted(FrameOutcome.LATENCY_ONE));
        assertFalse(FrameOutcome.isCounted(FrameOutcome.LATENCY_ONE | FrameOutcome.JANKY_LEGACY));
    }

    @Test
    void shouldKeepTheFieldsApart() {
        int fields = FrameOutcome.CPU_MASK | 0xFF << FrameOutcome.GPU_SHIFT | FrameOutcome.COUNTED
                | 3 << FrameOutcome.LATENCY_SHIFT;
        assertEquals(0, fields & FrameOutcome.RARE, "the rare bits overlap another field");
        assertEquals(8, Integer.bitCount(FrameOutcome.RARE));
    }
}
