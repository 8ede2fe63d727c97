package io.gfxstats.daemon;

import io.gfxstats.daemon.harvest.DayFileUpdate;
import io.gfxstats.proto.GraphicsStatsProto;
import io.gfxstats.store.DayStore;
import io.gfxstats.store.EntryKey;
import io.gfxstats.store.ReadResult;
import io.gfxstats.store.StoredEntry;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Finds how much of a buffer is already saved, from the marks in day files. A buffer's marks
 * live in its own package's files; the highest mark over the retained days wins (counters only
 * grow). A buffer that continues a predecessor (handover) starts from the predecessor's mark,
 * because the client moved the predecessor's counts into it.
 */
final class Baselines {
    private Baselines() {
    }

    /** Every mark of every retained day file (startup). */
    static Map<String, long[]> all(DayStore store) throws IOException {
        List<GraphicsStatsProto> protos = new ArrayList<>();
        for (StoredEntry e : store.list()) {
            if (store.read(e.key()) instanceof ReadResult.Found f) {
                protos.add(f.stored());
            }
        }
        return DayFileUpdate.baselines(protos);
    }

    /** Marks in the files of one package/version of one uid (registration and adoption). */
    static Map<String, long[]> forPackage(DayStore store, String packageName, long versionCode, int uid)
            throws IOException {
        List<GraphicsStatsProto> protos = new ArrayList<>();
        for (long day : store.days()) {
            if (store.read(new EntryKey(day, packageName, versionCode, uid)) instanceof ReadResult.Found f) {
                protos.add(f.stored());
            }
        }
        return DayFileUpdate.baselines(protos);
    }

    static long[] of(Map<String, long[]> marks, String key, String predecessorKey) {
        long[] own = marks.get(key);
        if (own != null) {
            return own;
        }
        return predecessorKey == null || predecessorKey.isEmpty() ? null : marks.get(predecessorKey);
    }
}
