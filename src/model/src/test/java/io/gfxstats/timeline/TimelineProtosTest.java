package io.gfxstats.timeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import com.google.protobuf.Descriptors.FieldDescriptor;
import io.gfxstats.dayfile.StatsProtos;
import io.gfxstats.proto.GfxstatsFrameTimeline;
import io.gfxstats.proto.GraphicsStatsProto;
import io.gfxstats.stats.Counters;
import io.gfxstats.stats.ProfileData;
import java.util.Locale;
import org.junit.jupiter.api.Test;

class TimelineProtosTest {
    @Test
    void shouldHaveOneProtoFieldPerCounterNamedAndNumberedInTheirOrder() {
        assertEquals(TimelineCounter.COUNT, GfxstatsFrameTimeline.getDescriptor().getFields().size());
        for (TimelineCounter c : TimelineCounter.values()) {
            FieldDescriptor f = GfxstatsFrameTimeline.getDescriptor().findFieldByName(c.name().toLowerCase(Locale.ROOT));
            assertNotNull(f, c.name());
            assertEquals(c.ordinal() + 1, f.getNumber(), c.name());
        }
        assertEquals(TimelineCounter.FIRST_JANK + JankType.count(), TimelineCounter.PRESENT_ON_TIME.ordinal());
        for (int i = 0; i < JankType.count(); i++) {
            assertEquals(1 << i, JankType.bit(i), "jank type " + i + " is bit " + i);
        }
        assertEquals(TimelineCounter.COUNT, TimelineCounter.FIRST_PRESENT_DELAY + TimelineCounter.presentDelayBuckets());
    }

    private static TimelineCounters sample(long scale) {
        TimelineCounters c = new TimelineCounters();
        for (int i = 0; i < TimelineCounter.COUNT; i++) {
            c.set(i, scale * (i + 1));
        }
        return c;
    }

    @Test
    void shouldRoundTripAndAddUp() {
        TimelineCounters a = sample(1);
        assertEquals(a, TimelineProtos.fromProto(TimelineProtos.toProto(a)));
        GfxstatsFrameTimeline sum = TimelineProtos.add(TimelineProtos.toProto(a), TimelineProtos.toProto(sample(10)));
        assertEquals(sample(11), TimelineProtos.fromProto(sum));
    }

    @Test
    void shouldAddFrameTimelineCountersWhenDayFilesOrPullsAreMerged() throws Exception {
        ProfileData p = new ProfileData();
        p.add(Counters.TOTAL_FRAMES, 5);
        GraphicsStatsProto plain = StatsProtos.toProto(p, new StatsProtos.Source("com.example", 1, 1000, 1, 2));
        GraphicsStatsProto one = plain.toBuilder().setGfxstatsFrameTimeline(TimelineProtos.toProto(sample(1))).build();
        GraphicsStatsProto.Builder target = plain.toBuilder();
        StatsProtos.merge(target, one);
        StatsProtos.merge(target, one);
        StatsProtos.merge(target, plain);
        assertEquals(sample(2), TimelineProtos.fromProto(target.getGfxstatsFrameTimeline()));
        assertEquals(20, target.getSummary().getTotalFrames());
    }
}
