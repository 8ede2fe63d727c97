package io.gfxstats.framestats;

/**
 * Which generation of framestats columns a block has, and so which tracker replays it.
 */
public enum ColumnSet {
    /**
     * Android 12+ (23 columns): FrameDeadline, FrameInterval and GpuCompleted are present;
     * replayed through the modern tracker.
     */
    MODERN,
    /**
     * Android 8/9 (16 columns) and any other header without FrameDeadline: no deadline, interval
     * or GPU timing per frame; replayed through the Android 9 tracker with the display refresh
     * interval.
     */
    ANDROID9
}
