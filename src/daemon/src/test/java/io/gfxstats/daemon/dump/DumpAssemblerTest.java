package io.gfxstats.daemon.dump;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.gfxstats.dayfile.StatsProtos;
import io.gfxstats.proto.GfxstatsBufferMark;
import io.gfxstats.proto.GraphicsStatsProto;
import io.gfxstats.stats.Counters;
import io.gfxstats.stats.Pipeline;
import io.gfxstats.stats.ProfileData;
import io.gfxstats.store.Days;
import io.gfxstats.store.EntryKey;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class DumpAssemblerTest {
    private static final long DAY1 = 20_000 * Days.MILLIS_PER_DAY;
    private static final long DAY2 = DAY1 + Days.MILLIS_PER_DAY;

    private static ProfileData frames(int n) {
        ProfileData p = new ProfileData(0, Pipeline.GL);
        p.add(Counters.TOTAL_FRAMES, n);
        p.add(Counters.cpuBucket(4), n);
        return p;
    }

    private static GraphicsStatsProto file(EntryKey k, int n) {
        return StatsProtos.toProto(frames(n), new StatsProtos.Source(k.packageName(), k.versionCode(), 1000,
                k.dayStart() + 10, k.dayStart() + 20));
    }

    private static List<String> describe(List<GraphicsStatsProto> entries) {
        List<String> out = new ArrayList<>();
        for (GraphicsStatsProto p : entries) {
            out.add(Days.date(Days.dayStart(p.getStatsStart())) + " " + p.getPackageName() + " "
                    + p.getSummary().getTotalFrames());
        }
        return out;
    }

    @Test
    void shouldInterleaveLiveGroupsWithoutFilesInKeyOrderAndMergeTheOthersOnce() {
        EntryKey a1 = new EntryKey(DAY1, "com.a", 1);
        EntryKey b1 = new EntryKey(DAY1, "com.b", 1);
        EntryKey c1 = new EntryKey(DAY1, "com.c", 1);
        EntryKey a2 = new EntryKey(DAY2, "com.a", 1);
        EntryKey b2 = new EntryKey(DAY2, "com.b", 1);
        SortedMap<EntryKey, GraphicsStatsProto> stored = new TreeMap<>();
        stored.put(a1, file(a1, 10));
        stored.put(c1, file(c1, 30).toBuilder()
                .addGfxstatsBufferMarks(GfxstatsBufferMark.newBuilder().setBufferKey("x")).build());
        stored.put(b2, file(b2, 50));
        List<LiveGroup> live = List.of(
                new LiveGroup(a2, 1000, frames(4), DAY2 + 5),
                new LiveGroup(c1, 1000, frames(3), DAY1 + 5),
                new LiveGroup(b1, 1000, frames(2), DAY1 + 5));

        List<GraphicsStatsProto> dump = DumpAssembler.assemble(stored, live, "", DAY2 + 100, p -> {
            throw new AssertionError(p);
        });

        assertEquals(List.of(Days.date(DAY1) + " com.a 10", Days.date(DAY1) + " com.b 2", Days.date(DAY1) + " com.c 33",
                Days.date(DAY2) + " com.a 4", Days.date(DAY2) + " com.b 50"), describe(dump));
        assertEquals(0, dump.get(2).getGfxstatsBufferMarksCount(), "marks never leave the daemon");
        assertEquals(describe(dump), describe(dump), "iterating again gives the same entries");
    }

    @Test
    void shouldKeepOnlyTheFilteredPackage() {
        EntryKey a1 = new EntryKey(DAY1, "com.a", 1);
        EntryKey b1 = new EntryKey(DAY1, "com.b", 1);
        EntryKey b2 = new EntryKey(DAY2, "com.b", 1);
        SortedMap<EntryKey, GraphicsStatsProto> stored = new TreeMap<>();
        stored.put(a1, file(a1, 10));
        stored.put(b1, file(b1, 20));
        List<LiveGroup> live = List.of(new LiveGroup(b2, 1000, frames(5), DAY2 + 5),
                new LiveGroup(a1, 1000, frames(1), DAY1 + 5));

        List<GraphicsStatsProto> dump = DumpAssembler.assemble(stored, live, "com.b", DAY2 + 100, p -> {
            throw new AssertionError(p);
        });

        assertEquals(List.of(Days.date(DAY1) + " com.b 20", Days.date(DAY2) + " com.b 5"), describe(dump));
    }
}
