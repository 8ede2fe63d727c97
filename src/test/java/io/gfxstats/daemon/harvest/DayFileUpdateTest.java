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
        long[] c = new long[Counters.COUNT];
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
}
