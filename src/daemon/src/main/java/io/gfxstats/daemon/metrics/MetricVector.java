package io.gfxstats.daemon.metrics;

import io.gfxstats.buffer.ClientHealthGroup;
import io.gfxstats.buffer.FrameTimelineGroup;
import io.gfxstats.dayfile.DayFileException;
import io.gfxstats.dayfile.StatsProtos;
import io.gfxstats.proto.GraphicsStatsProto;
import io.gfxstats.stats.Counters;
import io.gfxstats.timeline.TimelineCounter;
import io.gfxstats.timeline.TimelineProtos;

/**
 * What the exposition counts per series, as one vector: Android's counters in {@link Counters}
 * order, then the FrameTimeline counters in {@link TimelineCounter} order, then the frames the
 * client's rings dropped. Made from a buffer's
 * counter vector or from a day file, so saved, seeded and live frames add up the same way.
 */
public final class MetricVector {
    public static final int TIMELINE_BASE = Counters.COUNT;
    /** Frames the client's recording rings dropped (the client health group). */
    public static final int RING_DROPPED = TIMELINE_BASE + TimelineCounter.COUNT;
    public static final int LENGTH = RING_DROPPED + 1;

    private MetricVector() {
    }

    /** From a buffer counter vector ({@code io.gfxstats.buffer.CounterGroups} order; shorter: zeros). */
    public static long[] fromBufferVector(long[] vector) {
        long[] m = new long[LENGTH];
        System.arraycopy(vector, 0, m, 0, Math.min(vector.length, Counters.COUNT));
        int timeline = FrameTimelineGroup.vectorIndex(0);
        for (int i = 0; i < TimelineCounter.COUNT && timeline + i < vector.length; i++) {
            m[TIMELINE_BASE + i] = vector[timeline + i];
        }
        m[RING_DROPPED] = ClientHealthGroup.ringDropped(vector);
        return m;
    }

    /** From a day file: its Android counters and its FrameTimeline field (1010), if any. */
    public static long[] fromDayFile(GraphicsStatsProto p) throws DayFileException.HistogramMismatch {
        long[] m = new long[LENGTH];
        System.arraycopy(StatsProtos.toProfileData(p).toArray(), 0, m, 0, Counters.COUNT);
        if (p.hasGfxstatsFrameTimeline()) {
            long[] t = TimelineProtos.fromProto(p.getGfxstatsFrameTimeline()).toArray();
            System.arraycopy(t, 0, m, TIMELINE_BASE, Math.min(t.length, TimelineCounter.COUNT));
        }
        m[RING_DROPPED] = p.getGfxstatsRingDroppedFrames();
        return m;
    }

    /** Index of a FrameTimeline counter. */
    public static int timeline(TimelineCounter c) {
        return TIMELINE_BASE + c.ordinal();
    }
}
