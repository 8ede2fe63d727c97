package io.gfxstats.frame;

import io.gfxstats.stats.StatsSink;

/**
 * Classifies finished frames and counts them into a sink. One tracker per window or surface:
 * it keeps pipeline state between frames, so it is not shared between threads.
 */
public interface FrameTracker {
    /** Accounts one finished frame. Allocates nothing (except for the rare Davey report). */
    void finishFrame(FrameInfo frame, StatsSink sink);
}
