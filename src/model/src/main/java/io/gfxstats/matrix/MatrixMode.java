package io.gfxstats.matrix;

import java.util.Locale;

/**
 * Which per-frame dropped-frame rule and levels to use ({@code matrix.mode}).
 */
public enum MatrixMode {
    /** Matrix 2.1.0: rounded float of {@code (T - I) / I}, fixed bounds (the default). */
    V2_1("2.1"),
    /**
     * Matrix 0.8 to 2.0.2: {@code (IssueDrawCommandsStart - IntendedVsync) / interval} in long
     * division (Matrix measured the main-thread message end, which a renderer does not have;
     * IssueDrawCommandsStart is the nearest time), fixed bounds.
     */
    LEGACY("legacy"),
    /** The 2.1 dropped frames with bounds scaled by refresh / 60: not Matrix, our extension. */
    TIME("time");

    private final String configName;

    MatrixMode(String configName) {
        this.configName = configName;
    }

    /** The name in configuration and on the command line. */
    public String configName() {
        return configName;
    }

    /** Parses {@code 2.1}, {@code legacy} or {@code time}; a clear error otherwise. */
    public static MatrixMode parse(String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        for (MatrixMode m : values()) {
            if (m.configName.equals(t)) {
                return m;
            }
        }
        throw new IllegalArgumentException("matrix mode must be 2.1, legacy or time: " + text);
    }
}
