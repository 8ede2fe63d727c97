package io.gfxstats.demo;

/**
 * A reason for a synthetic frame to be late, each one aimed at one of Android's jank causes.
 * Magnitudes are in frame intervals so that they mean the same at any refresh rate.
 */
enum Episode {
    /** The UI thread is busy with other work when the vsync arrives: frames are skipped (Missed Vsync). */
    MAIN_THREAD_BLOCKED,
    /** Measure/layout/record takes most of a frame or more (Slow UI thread). */
    SLOW_UI,
    /** Large textures uploaded during the sync (Slow bitmap uploads). */
    BITMAP_UPLOAD,
    /** The render thread issues many draw commands (Slow issue draw commands). */
    SLOW_DRAW,
    /**
     * A few frames of heavy GPU work: they miss, the UI thread keeps producing, and the frames
     * after them wait in a stuffed pipeline (High input latency).
     */
    GPU_HEAVY,
    /** One very long frame: garbage collection, a synchronous load (100-450 ms). */
    HITCH;

    /** The episodes a profile's bag cycles through (hitches have their own schedule). */
    static final Episode[] CAUSES = {MAIN_THREAD_BLOCKED, SLOW_UI, BITMAP_UPLOAD, SLOW_DRAW, GPU_HEAVY};
}
