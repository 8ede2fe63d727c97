package io.gfxstats.buffer;

import io.gfxstats.timeline.TimelineCounter;
import io.gfxstats.timeline.TimelineCounters;

/**
 * Layout of the FrameTimeline group (id 2, version 1) of buffer layout 2: the client's
 * FrameTimeline counters (docs/frametimeline.md, docs/buffer-format.md "FrameTimeline group").
 *
 * <pre>
 *  No prefix.
 *  Group stripe s (one writer, the writer of counter stripe s):
 *  +---------------------------------------------------------------+
 *  |  {@link TimelineCounter#COUNT} u32 counters, in TimelineCounter order:    |
 *  |    frames, timeline frames, janky frames, one per jank bit,   |
 *  |    present / finish / severity / prediction counts,           |
 *  |    display-unknown frames, late display-unknown,              |
 *  |    present-delay histogram buckets                            |
 *  +---------------------------------------------------------------+
 * </pre>
 *
 * <p>Element {@code i} of the group is {@code TimelineCounter.of(i)}; the counter vector holds
 * them at {@link CounterGroups#vectorOffset(CounterGroup)} onwards.
 */
public final class FrameTimelineGroup {
    public static final int ID = CounterGroups.FRAMETIMELINE_ID;
    public static final int VERSION = 1;
    public static final CounterGroup GROUP = new CounterGroup(ID, VERSION, "frametimeline", 0, TimelineCounter.COUNT, 0);

    private FrameTimelineGroup() {
    }

    /** The FrameTimeline counters held in a counter vector ({@link CounterGroups}). */
    public static TimelineCounters fromVector(long[] vector) {
        TimelineCounters c = new TimelineCounters();
        int base = CounterGroups.vectorOffset(GROUP);
        for (int i = 0; i < TimelineCounter.COUNT; i++) {
            c.set(i, vector[base + i]);
        }
        return c;
    }

    /** Index in the counter vector of FrameTimeline counter {@code counter} (a TimelineCounter ordinal). */
    public static int vectorIndex(int counter) {
        return CounterGroups.vectorOffset(GROUP) + counter;
    }
}
