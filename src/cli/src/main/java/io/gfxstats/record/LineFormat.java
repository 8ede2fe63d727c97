package io.gfxstats.record;

import java.util.Locale;

/** What one input line of {@code gfxstats record} holds. */
public enum LineFormat {
    /** {@code intended_vsync,vsync,frame_completed,gpu_completed,frame_interval} in CLOCK_MONOTONIC ns. */
    TIMES,
    /** A framestats row, in the order of the last {@code Flags,...} header (Android 12+'s 23 columns if none). */
    FRAMESTATS;

    public static LineFormat parse(String name) {
        for (LineFormat f : values()) {
            if (f.name().toLowerCase(Locale.ROOT).equals(name)) {
                return f;
            }
        }
        throw new IllegalArgumentException("unknown format '" + name + "'; one of times|framestats");
    }
}
