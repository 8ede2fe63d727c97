package io.gfxstats.daemon.dump;

import io.gfxstats.dayfile.DayFileException;
import io.gfxstats.dayfile.StatsProtos;
import io.gfxstats.proto.GraphicsStatsProto;
import io.gfxstats.store.EntryKey;
import io.gfxstats.timeline.TimelineProtos;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.function.Consumer;

/**
 * Builds the entries of a dump: every day file, each merged once with the unsaved frames of the
 * live buffers of its (package, version, day), plus live groups that have no file yet; ordered
 * by (day, package, version).
 *
 * <p>The result is computed as it is iterated: an entry with live data is merged when the
 * writer reaches it and is garbage as soon as it is written, so a dump holds one merged entry
 * at a time on top of the cached files instead of a second copy of the whole dump (with a
 * 64 MiB heap, 1000 live buffers and 3000 files, holding them all sent the daemon into
 * back-to-back full collections).
 */
public final class DumpAssembler {
    private DumpAssembler() {
    }

    /**
     * @param packageFilter empty or null for every package
     * @param nowMillis     stats end of entries that include live data
     * @param problems      told about entries that cannot be merged (they are left out, not fatal)
     * @return the entries in order, computed on access: iterate it once (each access of an
     *         entry with live data merges it again)
     */
    public static List<GraphicsStatsProto> assemble(SortedMap<EntryKey, GraphicsStatsProto> stored, List<LiveGroup> live,
                                                    String packageFilter, long nowMillis,
                                                    Consumer<String> problems) {
        Map<EntryKey, LiveGroup> liveByKey = new HashMap<>();
        for (LiveGroup g : live) {
            if (matches(packageFilter, g.key().packageName())) {
                liveByKey.put(g.key(), g);
            }
        }
        // One pass over the stored entries (a sorted map: in key order already) merged with the
        // few live keys that have no file yet, so a dump costs no tree lookups per entry.
        List<EntryKey> liveOnly = new ArrayList<>();
        for (EntryKey k : liveByKey.keySet()) {
            if (!stored.containsKey(k)) {
                liveOnly.add(k);
            }
        }
        Collections.sort(liveOnly);
        List<Slot> slots = new ArrayList<>(stored.size() + liveOnly.size());
        int next = 0;
        for (Map.Entry<EntryKey, GraphicsStatsProto> s : stored.entrySet()) {
            EntryKey key = s.getKey();
            while (next < liveOnly.size() && liveOnly.get(next).compareTo(key) < 0) {
                slots.add(new Slot(null, liveByKey.get(liveOnly.get(next++))));
            }
            if (matches(packageFilter, key.packageName())) {
                slots.add(new Slot(s.getValue(), liveByKey.get(key)));
            }
        }
        while (next < liveOnly.size()) {
            slots.add(new Slot(null, liveByKey.get(liveOnly.get(next++))));
        }
        return new AbstractList<>() {
            @Override
            public GraphicsStatsProto get(int index) {
                Slot slot = slots.get(index);
                return entry(slot.stored(), slot.live(), nowMillis, problems);
            }

            @Override
            public int size() {
                return slots.size();
            }
        };
    }

    /** One entry of a dump before merging: its day file (or null), its live group (or null). */
    private record Slot(GraphicsStatsProto stored, LiveGroup live) {
    }

    private static GraphicsStatsProto entry(GraphicsStatsProto stored, LiveGroup live, long nowMillis,
                                            Consumer<String> problems) {
        GraphicsStatsProto base = stored == null ? null
                : stored.getGfxstatsBufferMarksCount() == 0 && stored.getGfxstatsScenesCount() == 0 ? stored
                : stored.toBuilder().clearGfxstatsBufferMarks().clearGfxstatsScenes().build();
        if (live == null) {
            return base;
        }
        GraphicsStatsProto.Builder merged = base == null ? GraphicsStatsProto.newBuilder() : base.toBuilder();
        try {
            StatsProtos.merge(merged, live.unsaved(), new StatsProtos.Source(live.key().packageName(),
                    live.key().versionCode(), live.uid(), live.startMillis(), nowMillis));
            TimelineProtos.merge(merged, live.timeline());
            if (live.ringDropped() > 0) {
                // Private (stripped by every Android output); kept only for the report.
                merged.setGfxstatsRingDroppedFrames(merged.getGfxstatsRingDroppedFrames() + live.ringDropped());
            }
            return merged.build();
        } catch (DayFileException.HistogramMismatch e) {
            problems.accept("cannot merge live data of " + live.key() + ": " + e.getMessage());
            return base != null ? base : GraphicsStatsProto.getDefaultInstance();
        }
    }

    private static boolean matches(String filter, String packageName) {
        return filter == null || filter.isEmpty() || filter.equals(packageName);
    }
}
