package io.gfxstats.daemon.harvest;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gfxstats.proto.GraphicsStatsProto;
import io.gfxstats.stats.Counters;
import io.gfxstats.stats.Pipeline;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class DayFileUpdateTest {
    private static long[] frames(long total, long janky, int cpuBucket) {
        long[] c = new long[io.gfxstats.buffer.CounterGroups.VECTOR_LENGTH];
        c[Counters.TOTAL_FRAMES] = total;
        c[Counters.JANKY_FRAMES] = janky;
        c[Counters.cpuBucket(cpuBucket)] = total;
        return c;
    }

    @Test
    void shouldSaveOnlyTheUnsavedDifferenceAndRecordTheMark() throws Exception {
        GraphicsStatsProto first = DayFileUpdate.apply(null, "com.example", 3, 2000, 2000,
                List.of(new Contribution("r1", 10, 1000, frames(5, 1, 3), null, 1000, Pipeline.GL)), Set.of("r1"));
        assertEquals(5, first.getSummary().getTotalFrames());

        GraphicsStatsProto second = DayFileUpdate.apply(first, "com.example", 3, 3000, 3000,
                List.of(new Contribution("r1", 10, 1000, frames(8, 2, 3), frames(5, 1, 3), 1000, Pipeline.GL)),
                Set.of("r1"));
        assertEquals(8, second.getSummary().getTotalFrames());
        assertEquals(2, second.getSummary().getJankyFrames());
        assertEquals(8, second.getHistogram(3).getFrameCount());
        assertEquals(1000, second.getStatsStart());
        assertEquals(3000, second.getStatsEnd());
        assertArrayEquals(frames(8, 2, 3), DayFileUpdate.baselines(List.of(second)).get("r1"));
    }

    @Test
    void shouldNotRewriteWhenNothingIsUnsaved() throws Exception {
        GraphicsStatsProto first = DayFileUpdate.apply(null, "com.example", 3, 2000, 2000,
                List.of(new Contribution("r1", 10, 1000, frames(5, 1, 3), null, 1000, Pipeline.GL)), Set.of("r1"));
        assertNull(DayFileUpdate.apply(first, "com.example", 3, 3000, 3000,
                List.of(new Contribution("r1", 10, 1000, frames(5, 1, 3), frames(5, 1, 3), 1000, Pipeline.GL)),
                Set.of("r1")));
    }

    @Test
    void shouldDropMarksOfRetiredBuffersButKeepTheirFrames() throws Exception {
        GraphicsStatsProto first = DayFileUpdate.apply(null, "com.example", 3, 2000, 2000,
                List.of(new Contribution("old", 10, 1000, frames(5, 1, 3), null, 1000, Pipeline.GL)),
                Set.of("old"));
        GraphicsStatsProto second = DayFileUpdate.apply(first, "com.example", 3, 3000, 3000,
                List.of(new Contribution("new", 11, 1000, frames(2, 0, 4), null, 2500, Pipeline.GL)),
                Set.of("new"));
        Map<String, long[]> marks = DayFileUpdate.baselines(List.of(second));
        assertEquals(Set.of("new"), marks.keySet());
        assertEquals(7, second.getSummary().getTotalFrames());
    }

    @Test
    void shouldTakeTheHighestMarkAcrossDays() {
        GraphicsStatsProto yesterday = GraphicsStatsProto.newBuilder()
                .addGfxstatsBufferMarks(BufferMarks.mark("r1", 1, frames(9, 1, 2), 10)).build();
        GraphicsStatsProto today = GraphicsStatsProto.newBuilder()
                .addGfxstatsBufferMarks(BufferMarks.mark("r1", 1, frames(12, 3, 2), 20)).build();
        assertArrayEquals(frames(12, 3, 2), DayFileUpdate.baselines(List.of(today, yesterday)).get("r1"));
    }

    @Test
    void shouldIgnoreForeignMarks() {
        GraphicsStatsProto f = GraphicsStatsProto.newBuilder()
                .addGfxstatsBufferMarks(BufferMarks.mark("r1", 1, new long[] {1, 2, 3}, 10)).build();
        assertTrue(DayFileUpdate.baselines(List.of(f)).isEmpty());
    }

    @Test
    void shouldSaveSceneCountsOnceInTheSameWriteAsTheFramesAndMarks() throws Exception {
        String[] names = new String[io.gfxstats.buffer.SceneGroup.SLOTS];
        java.util.Arrays.fill(names, "");
        names[0] = io.gfxstats.buffer.SceneGroup.OTHER;
        names[3] = "menu";
        long[] first = withScene(frames(5, 1, 3), 3, 5, 123_000_000_000L);
        GraphicsStatsProto saved = DayFileUpdate.apply(null, "com.example", 3, 2000, 2000,
                List.of(new Contribution("r1", 10, 1000, first, null, 1000, Pipeline.GL, names)), Set.of("r1"));
        assertEquals(1, saved.getGfxstatsScenesCount());
        assertEquals("menu", saved.getGfxstatsScenes(0).getScene());
        assertEquals(5, saved.getGfxstatsScenes(0).getTotalFrames());
        assertEquals(123_000_000_000L, saved.getGfxstatsScenes(0).getFrameCostNanos());

        long[] second = withScene(withScene(frames(9, 1, 3), 3, 8, 200_000_000_000L), 0, 1, 7);
        GraphicsStatsProto next = DayFileUpdate.apply(saved, "com.example", 3, 3000, 3000,
                List.of(new Contribution("r1", 10, 1000, second, first, 1000, Pipeline.GL, names)), Set.of("r1"));
        java.util.Map<String, long[]> scenes = io.gfxstats.scene.SceneCounters.of(next);
        assertEquals(List.of("menu", "(other)"), List.copyOf(scenes.keySet()));
        assertEquals(8, scenes.get("menu")[0], "only the unsaved difference is added");
        assertEquals(200_000_000_000L, scenes.get("menu")[io.gfxstats.scene.SceneCounters.SUM_BASE]);
        assertEquals(1, scenes.get("(other)")[0]);
        assertArrayEquals(second, DayFileUpdate.baselines(List.of(next)).get("r1"), "the mark holds the scenes too");
        assertEquals(0, io.gfxstats.dump.PrivateFields.strip(next).getGfxstatsScenesCount(), "never in a dump");
    }

    @Test
    void shouldSaveRingDropsOnceWithTheFramesAndReadAMarkOfThePreviousVectorLength() throws Exception {
        int dropped = io.gfxstats.buffer.ClientHealthGroup.vectorIndex(io.gfxstats.buffer.ClientHealthGroup.RING_DROPPED);
        long[] first = frames(5, 1, 3);
        first[dropped] = 40;
        GraphicsStatsProto saved = DayFileUpdate.apply(null, "com.example", 3, 2000, 2000,
                List.of(new Contribution("r1", 10, 1000, first, null, 1000, Pipeline.GL)), Set.of("r1"));
        assertEquals(40, saved.getGfxstatsRingDroppedFrames());
        long[] second = frames(6, 1, 3);
        second[dropped] = 45;
        GraphicsStatsProto next = DayFileUpdate.apply(saved, "com.example", 3, 3000, 3000,
                List.of(new Contribution("r1", 10, 1000, second, first, 1000, Pipeline.GL)), Set.of("r1"));
        assertEquals(45, next.getGfxstatsRingDroppedFrames(), "only the unsaved 5 are added");
        assertArrayEquals(second, DayFileUpdate.baselines(List.of(next)).get("r1"), "the mark holds the drops too");
        assertTrue(!io.gfxstats.dump.PrivateFields.strip(next).hasGfxstatsRingDroppedFrames(), "never in a dump");

        // A mark written by the previous release (vector without the health group) still counts.
        long[] old = java.util.Arrays.copyOf(frames(7, 2, 3), dropped);
        GraphicsStatsProto before = GraphicsStatsProto.newBuilder()
                .addGfxstatsBufferMarks(BufferMarks.mark("r0", 1, old, 10)).build();
        assertArrayEquals(frames(7, 2, 3), DayFileUpdate.baselines(List.of(before)).get("r0"));
    }

    private static long[] withScene(long[] v, int slot, long frames, long cost) {
        v[io.gfxstats.buffer.SceneGroup.vectorCounter(slot, Counters.TOTAL_FRAMES)] = frames;
        v[io.gfxstats.buffer.SceneGroup.vectorSum(slot, io.gfxstats.buffer.SceneGroup.COST_NANOS)] = cost;
        return v;
    }
}
