package io.gfxstats.timeline;

import com.google.protobuf.Descriptors.FieldDescriptor;
import io.gfxstats.proto.GfxstatsFrameTimeline;
import io.gfxstats.proto.GraphicsStatsProto;

/**
 * {@link TimelineCounters} to and from the persisted {@code GfxstatsFrameTimeline} message, whose
 * field n is counter ordinal n-1, and the merge by addition used for day files, pulls and fleet
 * collection.
 */
public final class TimelineProtos {
    private static final FieldDescriptor[] FIELDS = new FieldDescriptor[TimelineCounter.COUNT];

    static {
        for (int i = 0; i < FIELDS.length; i++) {
            FIELDS[i] = GfxstatsFrameTimeline.getDescriptor().findFieldByNumber(i + 1);
            if (FIELDS[i] == null) {
                throw new ExceptionInInitializerError("GfxstatsFrameTimeline has no field " + (i + 1)
                        + " for " + TimelineCounter.of(i));
            }
        }
    }

    private TimelineProtos() {
    }

    /** The proto field of a counter. */
    static FieldDescriptor field(TimelineCounter c) {
        return FIELDS[c.ordinal()];
    }

    public static GfxstatsFrameTimeline toProto(TimelineCounters c) {
        GfxstatsFrameTimeline.Builder b = GfxstatsFrameTimeline.newBuilder();
        for (int i = 0; i < FIELDS.length; i++) {
            if (c.get(i) != 0) {
                b.setField(FIELDS[i], c.get(i));
            }
        }
        return b.build();
    }

    public static TimelineCounters fromProto(GfxstatsFrameTimeline p) {
        TimelineCounters c = new TimelineCounters();
        for (int i = 0; i < FIELDS.length; i++) {
            c.set(i, (Long) p.getField(FIELDS[i]));
        }
        return c;
    }

    /** Adds {@code c} to the FrameTimeline counters of a day-file entry (nothing when {@code c} is empty). */
    public static void merge(GraphicsStatsProto.Builder entry, TimelineCounters c) {
        if (c.isEmpty()) {
            return;
        }
        entry.setGfxstatsFrameTimeline(entry.hasGfxstatsFrameTimeline()
                ? toProto(fromProto(entry.getGfxstatsFrameTimeline()).addAll(c)) : toProto(c));
    }

    /** {@code a + b}, counter by counter. */
    public static GfxstatsFrameTimeline add(GfxstatsFrameTimeline a, GfxstatsFrameTimeline b) {
        return toProto(fromProto(a).addAll(fromProto(b)));
    }
}
