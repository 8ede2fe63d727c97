package io.gfxstats.timeline;

/**
 * Where FrameTimeline counters are counted: {@link TimelineCounters} in memory, or the
 * FrameTimeline counter group of a mapped buffer. Single writer; must not allocate or block.
 */
public interface TimelineSink {
    /** Adds one to counter {@code counter} ({@link TimelineCounter} ordinal). */
    void incrementTimeline(int counter);
}
