package io.gfxstats.daemon.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gfxstats.scene.SceneCounters;
import io.gfxstats.stats.Counters;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FrameLedgerTest {
    private static final SeriesKey A = new SeriesKey("com.a", 2, 1000);
    private static final SeriesKey B = new SeriesKey("com.a", 10, 1000);

    private static long[] frames(long n) {
        long[] v = new long[MetricVector.LENGTH];
        v[Counters.TOTAL_FRAMES] = n;
        return v;
    }

    @Test
    void shouldAddSavesOfTheSameSeriesAndKeepSeriesApart() {
        FrameLedger ledger = new FrameLedger();
        ledger.add(A, frames(3));
        ledger.add(A, frames(4));
        ledger.add(B, frames(5));
        Map<SeriesKey, long[]> copy = ledger.copy();
        assertEquals(List.of(A, B), List.copyOf(copy.keySet()), "version 2 before version 10: numeric order");
        assertEquals(7, copy.get(A)[Counters.TOTAL_FRAMES]);
        assertEquals(5, copy.get(B)[Counters.TOTAL_FRAMES]);
    }

    @Test
    void shouldRefuseAVectorOfAnotherLength() {
        FrameLedger ledger = new FrameLedger();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ledger.add(A, new long[Counters.COUNT]));
        assertEquals("expected " + MetricVector.LENGTH + " counters, got " + Counters.COUNT, e.getMessage());
        assertTrue(ledger.copy().isEmpty());
    }

    @Test
    void shouldHandOutCopiesThatLaterSavesDoNotChange() {
        FrameLedger ledger = new FrameLedger();
        long[] saved = frames(3);
        ledger.add(A, saved);
        saved[Counters.TOTAL_FRAMES] = 99; // the caller's array is not kept
        Map<SeriesKey, long[]> before = ledger.copy();
        ledger.add(A, frames(1));
        before.get(A)[Counters.JANKY_FRAMES] = 42;
        assertEquals(3, before.get(A)[Counters.TOTAL_FRAMES]);
        assertEquals(4, ledger.copy().get(A)[Counters.TOTAL_FRAMES]);
        assertEquals(0, ledger.copy().get(A)[Counters.JANKY_FRAMES]);
    }

    @Test
    void shouldMergeScenesByNameAndForgetEverythingOnClear() {
        FrameLedger ledger = new FrameLedger();
        long[] one = new long[SceneCounters.LENGTH];
        one[Counters.TOTAL_FRAMES] = 2;
        ledger.addScenes(A, Map.of("menu", one));
        ledger.addScenes(A, Map.of("menu", one, "game", one));
        ledger.addScenes(B, Map.of());
        Map<SeriesKey, Map<String, long[]>> scenes = ledger.copyScenes();
        assertEquals(List.of(A), List.copyOf(scenes.keySet()), "an empty save adds no series");
        assertEquals(List.of("game", "menu"), List.copyOf(scenes.get(A).keySet()));
        assertEquals(4, scenes.get(A).get("menu")[Counters.TOTAL_FRAMES]);
        assertEquals(2, one[Counters.TOTAL_FRAMES], "the caller's array is not added into");

        ledger.add(A, frames(1));
        ledger.clear();
        assertTrue(ledger.copy().isEmpty());
        assertTrue(ledger.copyScenes().isEmpty());
    }
}
