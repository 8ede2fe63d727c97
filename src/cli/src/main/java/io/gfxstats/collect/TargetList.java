package io.gfxstats.collect;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The daemons of one collection: a targets file (one target per line, {@code #} starts a
 * comment, blank lines ignored) or a comma-separated list. A target listed twice is refused: its
 * frames would be counted twice in the merge.
 */
public final class TargetList {
    private TargetList() {
    }

    /**
     * Parses the text of a targets file.
     *
     * @param source how to name the file in messages
     * @throws IllegalArgumentException naming the file, the line and the problem
     */
    public static List<Target> parseFile(String text, String source) {
        List<Target> targets = new ArrayList<>();
        Map<Target, Integer> seen = new HashMap<>();
        String[] lines = text.split("\r?\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i];
            int hash = line.indexOf('#');
            if (hash >= 0) {
                line = line.substring(0, hash);
            }
            line = line.strip();
            if (line.isEmpty()) {
                continue;
            }
            int lineNo = i + 1;
            Target t;
            try {
                t = Target.parse(line);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(source + " line " + lineNo + ": " + e.getMessage(), e);
            }
            Integer before = seen.putIfAbsent(t, lineNo);
            if (before != null) {
                throw new IllegalArgumentException(source + " line " + lineNo + ": " + t + " is already listed on line "
                        + before + " (its stats would be counted twice)");
            }
            targets.add(t);
        }
        if (targets.isEmpty()) {
            throw new IllegalArgumentException(source + " lists no targets");
        }
        return targets;
    }

    /**
     * Parses {@code host:port,unix:/path,...}.
     *
     * @throws IllegalArgumentException naming the bad or repeated entry
     */
    public static List<Target> parseList(String list) {
        List<Target> targets = new ArrayList<>();
        for (String item : list.split(",", -1)) {
            if (item.isBlank()) {
                throw new IllegalArgumentException("empty entry in the target list '" + list + "'");
            }
            Target t = Target.parse(item);
            if (targets.contains(t)) {
                throw new IllegalArgumentException(t + " is listed twice (its stats would be counted twice)");
            }
            targets.add(t);
        }
        return targets;
    }
}
