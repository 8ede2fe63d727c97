package io.gfxstats.stats;

import java.util.List;

/**
 * The per-type jank counters of a ProfileData, in Android's order. The label is the text that
 * follows "Number " in a dumpsys block.
 */
public enum JankType {
    MISSED_VSYNC("Missed Vsync"),
    HIGH_INPUT_LATENCY("High input latency"),
    SLOW_UI_THREAD("Slow UI thread"),
    SLOW_BITMAP_UPLOAD("Slow bitmap uploads"),
    SLOW_DRAW("Slow issue draw commands"),
    MISSED_DEADLINE("Frame deadline missed"),
    /** Counted by the legacy accounting only; never persisted (Android persists no legacy counter). */
    MISSED_DEADLINE_LEGACY("Frame deadline missed (legacy)");

    public static final int COUNT = values().length;

    /** The types Android's dumps print and day files keep, in the dump's order (the legacy-only one is neither). */
    public static final List<JankType> PERSISTED = List.of(MISSED_VSYNC, HIGH_INPUT_LATENCY, SLOW_UI_THREAD,
            SLOW_BITMAP_UPLOAD, SLOW_DRAW, MISSED_DEADLINE);

    /**
     * The causes Android checks on a janky frame (the stages, {@link FrameOutcome#STAGES}). High
     * input latency is no cause: it counts frames that made their deadline, some twice; a frame
     * with none of these only missed its deadline.
     */
    public static final List<JankType> STAGE_CAUSES = List.of(MISSED_VSYNC, SLOW_UI_THREAD, SLOW_BITMAP_UPLOAD,
            SLOW_DRAW);

    private final String label;

    JankType(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    /** Index of this type's counter in {@link Counters} order. */
    public int counter() {
        return Counters.JANK_TYPE_BASE + ordinal();
    }
}
