package io.gfxstats.timeline.perfetto;

/** Receives a trace's FrameTimeline slices as the reader pairs them, in timestamp order of their starts. */
public interface SliceSink {
    /** A slice has started; its duration is not known yet. */
    default void started(FrameSlice slice) {
    }

    /** A slice is complete: closed by its FrameEnd, or left open (dur -1) by a reused cookie or the trace's end. */
    void finished(FrameSlice slice);
}
