package io.gfxstats.collect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.gfxstats.cli.SampleProtos;
import io.gfxstats.proto.GraphicsStatsProto;
import io.gfxstats.proto.GraphicsStatsServiceDumpProto;
import io.gfxstats.rpc.v1.PullResponse;
import io.gfxstats.timeline.TimelineCounter;
import io.gfxstats.timeline.TimelineCounters;
import io.gfxstats.timeline.TimelineProtos;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code gfxstats collect} adds up the FrameTimeline counters of the same entry across daemons. */
class FleetMergeTimelineTest {
    private static final long DAY = 1_699_920_000_000L;

    private static GraphicsStatsProto entry(String pkg, long frames, long janky) {
        TimelineCounters c = new TimelineCounters();
        c.set(TimelineCounter.TIMELINE_FRAMES.ordinal(), frames);
        c.set(TimelineCounter.JANKY_FRAMES.ordinal(), janky);
        return SampleProtos.entry(pkg, 1, 10_001, DAY + 5_000, DAY + 9_000, 100, 12).toBuilder()
                .setGfxstatsFrameTimeline(TimelineProtos.toProto(c)).build();
    }

    private static PullResponse pull(GraphicsStatsProto... entries) {
        return PullResponse.newBuilder().setDayStart(DAY)
                .setStats(GraphicsStatsServiceDumpProto.newBuilder().addAllStats(List.of(entries))).build();
    }

    @Test
    void shouldAddFrameTimelineCountersAcrossTargets() {
        FleetMerge merge = new FleetMerge();
        merge.add(0, pull(entry("com.a", 120, 7)));
        merge.add(1, pull(entry("com.a", 30, 2), SampleProtos.entry("com.b", 1, 10_001, DAY, DAY + 1, 5, 12)));
        merge.add(2, pull(SampleProtos.entry("com.a", 1, 10_001, DAY + 5_000, DAY + 9_000, 10, 12)));
        GraphicsStatsServiceDumpProto result = merge.result();
        TimelineCounters a = TimelineProtos.fromProto(result.getStats(0).getGfxstatsFrameTimeline());
        assertEquals(150, a.get(TimelineCounter.TIMELINE_FRAMES));
        assertEquals(9, a.get(TimelineCounter.JANKY_FRAMES));
        assertEquals(210, result.getStats(0).getSummary().getTotalFrames());
        assertFalse(result.getStats(1).hasGfxstatsFrameTimeline(), "com.b never had any");
    }
}
