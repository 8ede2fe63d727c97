package io.gfxstats.daemon.dump;

import io.gfxstats.dayfile.DayFileException;
import io.gfxstats.dayfile.StatsProtos;
import io.gfxstats.proto.GraphicsStatsProto;
import io.gfxstats.store.EntryKey;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * Builds the entries of a dump: every day file, each merged once with the unsaved frames of the
 * live buffers of its (package, version, day), plus live groups that have no file yet; ordered
 * by (day, package, version).
 */
public final class DumpAssembler {
    private DumpAssembler() {
    }

    /**
     * @param packageFilter empty or null for every package
     * @param nowMillis     stats end of entries that include live data
     * @param problems      told about entries that cannot be merged (they are left out, not fatal)
     */
    public static List<GraphicsStatsProto> assemble(Map<EntryKey, GraphicsStatsProto> stored, List<LiveGroup> live,
                                                    String packageFilter, long nowMillis,
                                                    Consumer<String> problems) {
        Map<EntryKey, GraphicsStatsProto.Builder> entries = new TreeMap<>();
        for (Map.Entry<EntryKey, GraphicsStatsProto> s : stored.entrySet()) {
            if (matches(packageFilter, s.getKey().packageName())) {
                entries.put(s.getKey(), s.getValue().toBuilder().clearGfxstatsBufferMarks());
            }
        }
        for (LiveGroup g : live) {
            if (!matches(packageFilter, g.key().packageName())) {
                continue;
            }
            GraphicsStatsProto.Builder b = entries.computeIfAbsent(g.key(), k -> GraphicsStatsProto.newBuilder());
            GraphicsStatsProto.Builder attempt = b.clone();
            try {
                StatsProtos.merge(attempt, g.unsaved(), new StatsProtos.Source(g.key().packageName(),
                        g.key().versionCode(), g.uid(), g.startMillis(), nowMillis));
                entries.put(g.key(), attempt);
            } catch (DayFileException.HistogramMismatch e) {
                problems.accept("cannot merge live data of " + g.key() + ": " + e.getMessage());
            }
        }
        List<GraphicsStatsProto> out = new ArrayList<>(entries.size());
        for (GraphicsStatsProto.Builder b : entries.values()) {
            out.add(b.build());
        }
        return out;
    }

    private static boolean matches(String filter, String packageName) {
        return filter == null || filter.isEmpty() || filter.equals(packageName);
    }
}
