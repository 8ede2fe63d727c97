package io.gfxstats.daemon.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.gfxstats.buffer.ClientHealthGroup;
import io.gfxstats.buffer.CounterGroups;
import io.gfxstats.buffer.FrameTimelineGroup;
import io.gfxstats.dayfile.StatsProtos;
import io.gfxstats.proto.GraphicsStatsProto;
import io.gfxstats.stats.Counters;
import io.gfxstats.stats.ProfileData;
import io.gfxstats.timeline.TimelineCounter;
import io.gfxstats.timeline.TimelineCounters;
import io.gfxstats.timeline.TimelineProtos;
import org.junit.jupiter.api.Test;

/** A buffer's counters and a day file's give the same vector for the same frames. */
class MetricVectorTest {
    @Test
    void shouldPlaceAndroidAndTimelineCountersOfABufferVector() {
        long[] vector = new long[FrameTimelineGroup.vectorIndex(TimelineCounter.COUNT)];
        vector[Counters.TOTAL_FRAMES] = 12;
        vector[Counters.cpuBucket(5)] = 12;
        vector[FrameTimelineGroup.vectorIndex(TimelineCounter.JANKY_FRAMES.ordinal())] = 3;
        long[] m = MetricVector.fromBufferVector(vector);
        assertEquals(MetricVector.LENGTH, m.length);
        assertEquals(12, m[Counters.TOTAL_FRAMES]);
        assertEquals(12, m[Counters.cpuBucket(5)]);
        assertEquals(3, m[MetricVector.timeline(TimelineCounter.JANKY_FRAMES)]);
    }

    @Test
    void shouldReadAShorterBufferVectorAsZeros() {
        long[] m = MetricVector.fromBufferVector(new long[] {7});
        assertEquals(7, m[Counters.TOTAL_FRAMES]);
        long rest = 0;
        for (int i = 1; i < m.length; i++) {
            rest += m[i];
        }
        assertEquals(0, rest);
    }

    @Test
    void shouldGiveTheSameVectorFromADayFileAsFromTheBufferItWasSavedFrom() throws Exception {
        ProfileData p = new ProfileData();
        p.add(Counters.TOTAL_FRAMES, 12);
        p.add(Counters.JANKY_FRAMES, 2);
        p.add(Counters.cpuBucket(5), 12);
        TimelineCounters t = new TimelineCounters();
        t.set(TimelineCounter.FRAMES.ordinal(), 12);
        t.set(TimelineCounter.JANKY_FRAMES.ordinal(), 3);
        GraphicsStatsProto day = StatsProtos.toProto(p, new StatsProtos.Source("com.a", 1, 0, 1000, 2000)).toBuilder()
                .setGfxstatsFrameTimeline(TimelineProtos.toProto(t)).setGfxstatsRingDroppedFrames(41).build();

        long[] vector = new long[CounterGroups.VECTOR_LENGTH];
        vector[ClientHealthGroup.vectorIndex(ClientHealthGroup.RING_DROPPED)] = 41;
        long[] android = p.toArray();
        System.arraycopy(android, 0, vector, 0, Counters.COUNT);
        long[] timeline = t.toArray();
        for (int i = 0; i < TimelineCounter.COUNT; i++) {
            vector[FrameTimelineGroup.vectorIndex(i)] = timeline[i];
        }
        assertEquals(java.util.Arrays.toString(MetricVector.fromBufferVector(vector)),
                java.util.Arrays.toString(MetricVector.fromDayFile(day)));
        assertEquals(41, MetricVector.fromDayFile(day)[MetricVector.RING_DROPPED], "ring drops survive the save");
    }
}
