package io.gfxstats.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the text of {@code gfxstats dump --frametimeline} (written by
 * {@link io.gfxstats.dump.FrameTimelineDumpWriter}) back into one block of counters per entry, so a
 * report shows exactly the numbers that command prints. Counter names are kept as printed
 * ({@code totalTimelineFrames}, {@code jankType AppDeadlineMissed}, {@code presentLateFrames}, ...).
 */
public final class FrameTimelineText {
    private FrameTimelineText() {
    }

    /** One entry (package, version, day) of the dump, its counters in the dump's order. */
    public record Block(String packageName, long versionCode, long statsStart, Map<String, Long> counters) {
        public long get(String name) {
            return counters.getOrDefault(name, 0L);
        }
    }

    /**
     * @throws IllegalArgumentException for a line that is neither a header nor {@code name = number}
     */
    public static List<Block> parse(String text) {
        List<Block> blocks = new ArrayList<>();
        String pkg = null;
        long version = 0;
        long since = 0;
        Map<String, Long> counters = null;
        for (String line : text.split("\n")) {
            if (line.startsWith("Package: ")) {
                if (counters != null) {
                    blocks.add(new Block(pkg, version, since, counters));
                }
                pkg = line.substring("Package: ".length());
                counters = new LinkedHashMap<>();
            } else if (counters == null) {
                continue; // the heading, or the "no counters" note
            } else if (line.startsWith("Version: ")) {
                version = Long.parseLong(line.substring("Version: ".length()));
            } else if (line.startsWith("Stats since: ")) {
                since = Long.parseLong(line.substring("Stats since: ".length(), line.length() - 2));
            } else if (line.startsWith("Stats end: ") || line.isEmpty()) {
                continue;
            } else {
                int eq = line.lastIndexOf(" = ");
                if (eq < 0) {
                    throw new IllegalArgumentException("not a FrameTimeline counter line: " + line);
                }
                counters.put(line.substring(0, eq), Long.parseLong(line.substring(eq + 3).trim()));
            }
        }
        if (counters != null) {
            blocks.add(new Block(pkg, version, since, counters));
        }
        return blocks;
    }
}
