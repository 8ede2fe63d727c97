package io.gfxstats.scene;

import io.gfxstats.buffer.BufferSnapshot;
import io.gfxstats.buffer.SceneGroup;
import io.gfxstats.proto.GfxstatsSceneStats;
import io.gfxstats.proto.GraphicsStatsProto;
import io.gfxstats.stats.JankType;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One scene's counters as a {@code long[]} of {@link #LENGTH} entries: the
 * {@link SceneGroup#COUNTERS} counters of a slot, then its {@link SceneGroup#SUMS} sums,
 * in {@link SceneGroup}'s order; and the conversions between counter vectors, day-file protos
 * ({@code gfxstats_scenes}, field 1001) and this form. Scenes of one package merge by addition.
 */
public final class SceneCounters {
    /** Entries per scene. */
    public static final int LENGTH = SceneGroup.COUNTERS + SceneGroup.SUMS;
    /** Index of a u64 sum field in a scene's array. */
    public static final int SUM_BASE = SceneGroup.COUNTERS;

    private SceneCounters() {
    }

    /** The slot names of a snapshot, or null without a scene group. */
    public static String[] names(BufferSnapshot snap) {
        if (!snap.hasScenes()) {
            return null;
        }
        String[] names = new String[SceneGroup.SLOTS];
        for (int slot = 0; slot < names.length; slot++) {
            names[slot] = snap.sceneName(slot);
        }
        return names;
    }

    /**
     * The scenes of a counter vector (cumulative or a delta), by name: slots without counts are
     * left out; counts in a slot without a (valid) name go to {@link SceneGroup#OTHER}.
     */
    public static Map<String, long[]> fromVector(long[] vector, String[] names) {
        Map<String, long[]> scenes = new LinkedHashMap<>();
        if (names == null) {
            return scenes;
        }
        for (int slot = 0; slot < SceneGroup.SLOTS; slot++) {
            long[] v = new long[LENGTH];
            boolean any = false;
            for (int f = 0; f < SceneGroup.COUNTERS; f++) {
                v[f] = vector[SceneGroup.vectorCounter(slot, f)];
                any |= v[f] != 0;
            }
            for (int f = 0; f < SceneGroup.SUMS; f++) {
                v[SUM_BASE + f] = vector[SceneGroup.vectorSum(slot, f)];
                any |= v[SUM_BASE + f] != 0;
            }
            if (!any) {
                continue;
            }
            String name = names[slot] == null || names[slot].isEmpty() ? SceneGroup.OTHER : names[slot];
            scenes.merge(name, v, SceneCounters::add);
        }
        return scenes;
    }

    /**
     * Matrix 2.1's fps of a scene: {@code 1e9 / mean(max(TOTAL_DURATION, I))}, i.e. 1e9 x Matrix
     * frames / Σ max(T, I); 0 without Matrix frames. Computed in double from the integer sums, so
     * it may differ from Matrix's float accumulation in the last float digits (docs/scenes.md).
     */
    public static double matrixFps(long[] v) {
        long frames = v[SceneGroup.MATRIX_FRAMES];
        long cost = v[SUM_BASE + SceneGroup.COST_NANOS];
        return frames == 0 || cost <= 0 ? 0 : 1e9 * frames / cost;
    }

    /** Component-wise sum (a new array). */
    public static long[] add(long[] a, long[] b) {
        long[] s = new long[LENGTH];
        for (int i = 0; i < LENGTH; i++) {
            s[i] = a[i] + b[i];
        }
        return s;
    }

    public static GfxstatsSceneStats toProto(String scene, long[] v) {
        GfxstatsSceneStats.Builder b = GfxstatsSceneStats.newBuilder().setScene(scene)
                .setTotalFrames(v[0]).setJankyFrames(v[1]).setJankyFramesLegacy(v[2])
                .setMatrixFrames(v[SceneGroup.MATRIX_FRAMES])
                .setFrameCostNanos(v[SUM_BASE + SceneGroup.COST_NANOS])
                .setDroppedFramesQ20(v[SUM_BASE + SceneGroup.DROPPED_Q20])
                .setRefreshMillihz(v[SUM_BASE + SceneGroup.REFRESH_MILLIHZ]);
        for (int t = 0; t < JankType.COUNT; t++) {
            b.addJankTypes(v[3 + t]);
        }
        for (int l = 0; l < SceneGroup.LEVELS; l++) {
            b.addLevelCounts(v[SceneGroup.LEVEL_COUNT_BASE + l]);
            b.addLevelSums(v[SceneGroup.LEVEL_SUM_BASE + l]);
        }
        for (int s = 0; s < SceneGroup.STAGES; s++) {
            b.addStageDurationNanos(v[SUM_BASE + SceneGroup.STAGE_BASE + s]);
        }
        return b.build();
    }

    /** A scene's array from its proto; repeated fields shorter than expected count as zero. */
    public static long[] fromProto(GfxstatsSceneStats p) {
        long[] v = new long[LENGTH];
        v[0] = p.getTotalFrames();
        v[1] = p.getJankyFrames();
        v[2] = p.getJankyFramesLegacy();
        for (int t = 0; t < Math.min(JankType.COUNT, p.getJankTypesCount()); t++) {
            v[3 + t] = p.getJankTypes(t);
        }
        v[SceneGroup.MATRIX_FRAMES] = p.getMatrixFrames();
        for (int l = 0; l < SceneGroup.LEVELS; l++) {
            v[SceneGroup.LEVEL_COUNT_BASE + l] = l < p.getLevelCountsCount() ? p.getLevelCounts(l) : 0;
            v[SceneGroup.LEVEL_SUM_BASE + l] = l < p.getLevelSumsCount() ? p.getLevelSums(l) : 0;
        }
        v[SUM_BASE + SceneGroup.COST_NANOS] = p.getFrameCostNanos();
        v[SUM_BASE + SceneGroup.DROPPED_Q20] = p.getDroppedFramesQ20();
        v[SUM_BASE + SceneGroup.REFRESH_MILLIHZ] = p.getRefreshMillihz();
        for (int s = 0; s < Math.min(SceneGroup.STAGES, p.getStageDurationNanosCount()); s++) {
            v[SUM_BASE + SceneGroup.STAGE_BASE + s] = p.getStageDurationNanos(s);
        }
        return v;
    }

    /** The scenes of a day file (or any GraphicsStatsProto), by name, in file order. */
    public static Map<String, long[]> of(GraphicsStatsProto proto) {
        Map<String, long[]> scenes = new LinkedHashMap<>();
        for (GfxstatsSceneStats s : proto.getGfxstatsScenesList()) {
            scenes.merge(s.getScene(), fromProto(s), SceneCounters::add);
        }
        return scenes;
    }

    /** Adds {@code scenes} to the builder's scenes by name (new names sorted after the existing ones). */
    public static void merge(GraphicsStatsProto.Builder b, Map<String, long[]> scenes) {
        if (scenes.isEmpty()) {
            return;
        }
        Map<String, long[]> all = new LinkedHashMap<>();
        for (GfxstatsSceneStats s : b.getGfxstatsScenesList()) {
            all.merge(s.getScene(), fromProto(s), SceneCounters::add);
        }
        for (Map.Entry<String, long[]> e : new TreeMap<>(scenes).entrySet()) {
            all.merge(e.getKey(), e.getValue(), SceneCounters::add);
        }
        b.clearGfxstatsScenes();
        all.forEach((name, v) -> b.addGfxstatsScenes(toProto(name, v)));
    }

    /** Sum over several scene maps. */
    public static Map<String, long[]> sum(List<Map<String, long[]>> maps) {
        Map<String, long[]> all = new TreeMap<>();
        for (Map<String, long[]> m : maps) {
            m.forEach((k, v) -> all.merge(k, v, SceneCounters::add));
        }
        return all;
    }
}
