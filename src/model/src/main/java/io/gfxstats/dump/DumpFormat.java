package io.gfxstats.dump;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Which Android release's {@code dumpsys graphicsstats} text block to reproduce. The releases
 * differ only in which lines they print; the formatting of every line they share is identical.
 *
 * <pre>
 *   line                           ANDROID14  ANDROID11  ANDROID9  ANDROID8
 *   UID                                x
 *   Number Frame deadline missed       x          x          x
 *   gpu percentiles, GPU HISTOGRAM     x          x
 * </pre>
 *
 * The other lines (Package, Version, Stats since/end, totals, CPU percentiles, the other
 * "Number" lines, HISTOGRAM) are printed by all four.
 */
public enum DumpFormat {
    /** Android 14 and later: the full block. */
    ANDROID14("android14", true, true, true),
    /** Android 11 to 13: no UID line. */
    ANDROID11("android11", false, true, true),
    /** Android 9 and 10: no UID line, no GPU percentiles or histogram. */
    ANDROID9("android9", false, false, true),
    /** Android 8: as ANDROID9, and no "Number Frame deadline missed" line. */
    ANDROID8("android8", false, false, false);

    private final String cliName;
    private final boolean uidLine;
    private final boolean gpuLines;
    private final boolean deadlineMissedLine;

    DumpFormat(String cliName, boolean uidLine, boolean gpuLines, boolean deadlineMissedLine) {
        this.cliName = cliName;
        this.uidLine = uidLine;
        this.gpuLines = gpuLines;
        this.deadlineMissedLine = deadlineMissedLine;
    }

    /** The name accepted by {@link #parse(String)}, e.g. {@code android11}. */
    public String cliName() {
        return cliName;
    }

    public boolean printsUid() {
        return uidLine;
    }

    public boolean printsGpu() {
        return gpuLines;
    }

    public boolean printsDeadlineMissed() {
        return deadlineMissedLine;
    }

    /**
     * The format for a command-line name ({@code android14|android11|android9|android8},
     * case-insensitive).
     *
     * @throws IllegalArgumentException naming the rejected value and the accepted ones
     */
    public static DumpFormat parse(String name) {
        if (name != null) {
            String wanted = name.trim().toLowerCase(Locale.ROOT);
            for (DumpFormat f : values()) {
                if (f.cliName.equals(wanted)) {
                    return f;
                }
            }
        }
        throw new IllegalArgumentException("unknown dump format '" + name + "': expected one of " + names());
    }

    /** The accepted names joined with '|', for usage texts. */
    public static String names() {
        return Arrays.stream(values()).map(DumpFormat::cliName).collect(Collectors.joining("|"));
    }
}
