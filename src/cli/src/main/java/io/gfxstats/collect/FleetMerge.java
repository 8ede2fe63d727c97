package io.gfxstats.collect;

import io.gfxstats.dayfile.DayFileException;
import io.gfxstats.dayfile.StatsProtos;
import io.gfxstats.proto.GraphicsStatsHistogramBucketProto;
import io.gfxstats.proto.GraphicsStatsJankSummaryProto;
import io.gfxstats.proto.GraphicsStatsProto;
import io.gfxstats.proto.GraphicsStatsServiceDumpProto;
import io.gfxstats.rpc.v1.PullResponse;
import io.gfxstats.rpc.v1.SceneEntry;
import io.gfxstats.rpc.v1.ScenesResponse;
import io.gfxstats.scene.SceneCounters;
import io.gfxstats.store.Days;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.TreeMap;

/**
 * Merges pulled entries of many daemons per (uid, package, version, day) with the day-file merge
 * rules (spec section 7): counters and histogram buckets add up, start is the earliest and end the
 * latest. An entry whose histograms do not have Android's buckets is left out and reported; it
 * never spoils what was already merged.
 *
 * <p>The result does not depend on the order in which targets answer: entries come out sorted by
 * key, sums and min/max commute, and the one order-dependent field, the pipeline, is taken from
 * the first target (in list order) that reports one. Not thread-safe; the collector serializes
 * calls.
 */
public final class FleetMerge {
    /** The key of one merged entry. Day is the UTC midnight (epoch ms) of the pulled day. */
    public record Key(long day, String packageName, long versionCode, int uid) {
        static final Comparator<Key> ORDER = Comparator.comparingLong(Key::day).thenComparing(Key::packageName)
                .thenComparingLong(Key::versionCode).thenComparingInt(Key::uid);
    }

    private static final class Merged {
        final GraphicsStatsProto.Builder proto = GraphicsStatsProto.newBuilder();
        /** Index of the target whose pipeline {@link #proto} holds; MAX_VALUE while none reported one. */
        int pipelineFrom = Integer.MAX_VALUE;
    }

    private final TreeMap<Key, Merged> entries = new TreeMap<>(Key.ORDER);
    /** Scenes by (day, package, version) then scene name, summed over targets. */
    private final TreeMap<Key, TreeMap<String, long[]>> scenes = new TreeMap<>(Key.ORDER);
    private int added;

    /**
     * Adds every entry of one target's pull.
     *
     * @param targetIndex the target's position in the target list (decides the pipeline on conflict)
     * @return one message per entry left out, empty when all were merged
     */
    public List<String> add(int targetIndex, PullResponse response) {
        List<String> rejected = new ArrayList<>();
        for (SceneEntry e : response.getScenesList()) {
            long day = e.getDayStart() != 0 ? e.getDayStart() : response.getDayStart();
            scenes.computeIfAbsent(new Key(day, e.getPackageName(), e.getVersionCode(), 0), k -> new TreeMap<>())
                    .merge(e.getStats().getScene(), SceneCounters.fromProto(e.getStats()),
                            SceneCounters::add);
        }
        for (GraphicsStatsProto p : response.getStats().getStatsList()) {
            String problem = add(targetIndex, response.getDayStart(), p);
            if (problem != null) {
                rejected.add(problem);
            }
        }
        return rejected;
    }

    private String add(int targetIndex, long responseDay, GraphicsStatsProto p) {
        if (p.getPackageName().isEmpty()) {
            return "entry without package name (uid " + Integer.toUnsignedString(p.getUid()) + ", version " + p.getVersionCode() + ") left out";
        }
        long day = responseDay != 0 ? responseDay : Days.dayStart(p.getStatsStart());
        Key key = new Key(day, p.getPackageName(), p.getVersionCode(), p.getUid());
        Merged m = entries.get(key);
        boolean fresh = m == null;
        if (fresh) {
            m = new Merged();
        }
        GraphicsStatsProto.PipelineType before = m.proto.getPipeline();
        try {
            StatsProtos.merge(m.proto, p);
        } catch (DayFileException.HistogramMismatch e) {
            return "entry " + p.getPackageName() + " version " + p.getVersionCode() + " uid " + Integer.toUnsignedString(p.getUid())
                    + " left out: " + e.getMessage();
        }
        if (p.getPipeline() != GraphicsStatsProto.PipelineType.UNKNOWN && targetIndex < m.pipelineFrom) {
            m.proto.setPipeline(p.getPipeline());
            m.pipelineFrom = targetIndex;
        } else {
            // The merge lets any known pipeline overwrite; only the earliest target's may.
            m.proto.setPipeline(before);
        }
        if (fresh) {
            entries.put(key, m);
        }
        added++;
        return null;
    }

    /** How many pulled entries went into the merge. */
    public int entriesAdded() {
        return added;
    }

    /** The merged entries, sorted by (day, package, version, uid). */
    public GraphicsStatsServiceDumpProto result() {
        GraphicsStatsServiceDumpProto.Builder out = GraphicsStatsServiceDumpProto.newBuilder();
        for (Merged m : entries.values()) {
            out.addStats(m.proto.build());
        }
        return out.build();
    }

    /** The scenes of every target, merged by addition per (day, package, version, scene), sorted. */
    public ScenesResponse scenes() {
        ScenesResponse.Builder out = ScenesResponse.newBuilder();
        scenes.forEach((key, byName) -> byName.forEach((name, v) -> out.addEntries(
                SceneEntry.newBuilder().setDayStart(key.day()).setPackageName(key.packageName())
                        .setVersionCode(key.versionCode())
                        .setStats(SceneCounters.toProto(name, v))
                        .setMatrixFps(SceneCounters.matrixFps(v)))));
        return out.build();
    }

    /**
     * Entries with a counter stuck at the int32 maximum: Android's schema has 32-bit counters and a
     * fleet-wide sum past 2^31-1 saturates there (it is not wrapped into a negative number).
     */
    public static List<String> saturated(GraphicsStatsServiceDumpProto merged) {
        List<String> out = new ArrayList<>();
        for (GraphicsStatsProto p : merged.getStatsList()) {
            GraphicsStatsJankSummaryProto s = p.getSummary();
            boolean full = s.getTotalFrames() == Integer.MAX_VALUE || s.getJankyFrames() == Integer.MAX_VALUE
                    || s.getMissedVsyncCount() == Integer.MAX_VALUE || s.getHighInputLatencyCount() == Integer.MAX_VALUE
                    || s.getSlowUiThreadCount() == Integer.MAX_VALUE || s.getSlowBitmapUploadCount() == Integer.MAX_VALUE
                    || s.getSlowDrawCount() == Integer.MAX_VALUE || s.getMissedDeadlineCount() == Integer.MAX_VALUE;
            for (GraphicsStatsHistogramBucketProto b : p.getHistogramList()) {
                full |= b.getFrameCount() == Integer.MAX_VALUE;
            }
            for (GraphicsStatsHistogramBucketProto b : p.getGpuHistogramList()) {
                full |= b.getFrameCount() == Integer.MAX_VALUE;
            }
            if (full) {
                out.add(p.getPackageName() + " version " + p.getVersionCode() + " uid " + Integer.toUnsignedString(p.getUid()));
            }
        }
        return out;
    }
}
