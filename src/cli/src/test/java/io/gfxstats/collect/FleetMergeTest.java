package io.gfxstats.collect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gfxstats.cli.SampleProtos;
import io.gfxstats.proto.GraphicsStatsHistogramBucketProto;
import io.gfxstats.proto.GraphicsStatsProto;
import io.gfxstats.proto.GraphicsStatsServiceDumpProto;
import io.gfxstats.rpc.v1.PullResponse;
import io.gfxstats.stats.Histograms;
import java.util.List;
import org.junit.jupiter.api.Test;

class FleetMergeTest {
    /** 2023-11-14T00:00:00Z */
    private static final long DAY = 1_699_920_000_000L;

    private static PullResponse pull(long day, GraphicsStatsProto... entries) {
        return PullResponse.newBuilder().setDayStart(day)
                .setStats(GraphicsStatsServiceDumpProto.newBuilder().addAllStats(List.of(entries))).build();
    }

    private static long cpuBucket(GraphicsStatsProto p, int label) {
        for (GraphicsStatsHistogramBucketProto b : p.getHistogramList()) {
            if (b.getRenderMillis() == label) {
                return b.getFrameCount();
            }
        }
        throw new AssertionError("no bucket " + label);
    }

    @Test
    void shouldSumTheSameUidPackageVersionAndDayAcrossTargets() {
        FleetMerge merge = new FleetMerge();

        assertEquals(List.of(), merge.add(0, pull(DAY, SampleProtos.entry("com.a", 1, 10_001, DAY + 5_000, DAY + 9_000, 100, 12))));
        assertEquals(List.of(), merge.add(1, pull(DAY, SampleProtos.entry("com.a", 1, 10_001, DAY + 2_000, DAY + 7_000, 50, 20))));

        GraphicsStatsServiceDumpProto result = merge.result();
        assertEquals(1, result.getStatsCount());
        GraphicsStatsProto m = result.getStats(0);
        assertEquals(150, m.getSummary().getTotalFrames());
        assertEquals(15, m.getSummary().getJankyFrames());
        assertEquals(1 + 0, m.getSummary().getSlowUiThreadCount());
        assertEquals(100, cpuBucket(m, 12));
        assertEquals(50, cpuBucket(m, 20));
        assertEquals(DAY + 2_000, m.getStatsStart());
        assertEquals(DAY + 9_000, m.getStatsEnd());
        assertEquals(Histograms.CPU_BUCKETS, m.getHistogramCount());
        assertEquals(Histograms.GPU_BUCKETS, m.getGpuHistogramCount());
        assertEquals(2, merge.entriesAdded());
    }

    @Test
    void shouldKeepDifferentUidsVersionsAndDaysApartInKeyOrder() {
        FleetMerge merge = new FleetMerge();
        merge.add(0, pull(DAY, SampleProtos.entry("com.b", 1, 10_001, DAY, DAY + 1, 10, 12),
                SampleProtos.entry("com.a", 2, 10_001, DAY, DAY + 1, 10, 12)));
        merge.add(1, pull(DAY, SampleProtos.entry("com.a", 1, 10_002, DAY, DAY + 1, 10, 12),
                SampleProtos.entry("com.a", 1, 10_001, DAY, DAY + 1, 10, 12)));
        merge.add(2, pull(DAY - 86_400_000L, SampleProtos.entry("com.z", 1, 10_001, DAY - 5, DAY - 1, 10, 12)));

        List<String> keys = merge.result().getStatsList().stream()
                .map(p -> p.getPackageName() + "/" + p.getVersionCode() + "/" + p.getUid()).toList();
        assertEquals(List.of("com.z/1/10001", "com.a/1/10001", "com.a/1/10002", "com.a/2/10001", "com.b/1/10001"), keys);
    }

    @Test
    void shouldLeaveOutAndReportAnEntryWithAForeignHistogramWithoutSpoilingTheRest() {
        GraphicsStatsProto good = SampleProtos.entry("com.a", 1, 10_001, DAY, DAY + 1, 100, 12);
        GraphicsStatsProto bad = good.toBuilder().setHistogram(3,
                good.getHistogram(3).toBuilder().setRenderMillis(999)).build();
        FleetMerge merge = new FleetMerge();
        merge.add(0, pull(DAY, good));

        List<String> rejected = merge.add(1, pull(DAY, bad, SampleProtos.entry("com.b", 1, 10_001, DAY, DAY + 1, 7, 12)));

        assertEquals(List.of("entry com.a version 1 uid 10001 left out: histogram mismatch: CPU bucket 3 is labelled 999ms, expected 8ms"),
                rejected);
        assertEquals(good.getSummary(), merge.result().getStats(0).getSummary());
        assertEquals(2, merge.result().getStatsCount());
    }

    @Test
    void shouldLeaveOutEntriesWithoutPackageName() {
        FleetMerge merge = new FleetMerge();

        List<String> rejected = merge.add(0, pull(DAY, GraphicsStatsProto.newBuilder().setUid(3).build()));

        assertEquals(List.of("entry without package name (uid 3, version 0) left out"), rejected);
        assertEquals(0, merge.result().getStatsCount());
    }

    @Test
    void shouldGiveTheSameResultWhicheverTargetAnswersFirst() {
        GraphicsStatsProto gl = SampleProtos.entry("com.a", 1, 10_001, DAY + 10, DAY + 20, 100, 12);
        GraphicsStatsProto vulkan = SampleProtos.entry("com.a", 1, 10_001, DAY + 5, DAY + 15, 30, 16).toBuilder()
                .setPipeline(GraphicsStatsProto.PipelineType.VULKAN).build();
        GraphicsStatsProto unknown = SampleProtos.entry("com.a", 1, 10_001, DAY + 7, DAY + 30, 1, 5).toBuilder()
                .setPipeline(GraphicsStatsProto.PipelineType.UNKNOWN).build();

        FleetMerge inOrder = new FleetMerge();
        inOrder.add(0, pull(DAY, unknown));
        inOrder.add(1, pull(DAY, gl));
        inOrder.add(2, pull(DAY, vulkan));
        FleetMerge reversed = new FleetMerge();
        reversed.add(2, pull(DAY, vulkan));
        reversed.add(1, pull(DAY, gl));
        reversed.add(0, pull(DAY, unknown));

        assertEquals(inOrder.result(), reversed.result());
        assertEquals(GraphicsStatsProto.PipelineType.GL, inOrder.result().getStats(0).getPipeline());
        assertEquals(131, inOrder.result().getStats(0).getSummary().getTotalFrames());
    }

    @Test
    void shouldUseTheUtcDayOfTheStartWhenThePullNamesNoDay() {
        FleetMerge merge = new FleetMerge();
        merge.add(0, pull(0, SampleProtos.entry("com.a", 1, 1, DAY + 3_600_000L, DAY + 3_700_000L, 10, 12)));
        merge.add(1, pull(DAY, SampleProtos.entry("com.a", 1, 1, DAY + 7_200_000L, DAY + 7_300_000L, 10, 12)));

        assertEquals(1, merge.result().getStatsCount());
        assertEquals(20, merge.result().getStats(0).getSummary().getTotalFrames());
    }

    @Test
    void shouldReportCountersStuckAtTheInt32Maximum() {
        FleetMerge merge = new FleetMerge();
        merge.add(0, pull(DAY, SampleProtos.entry("com.a", 1, 1, DAY, DAY + 1, 2_000_000_000, 12)));
        merge.add(1, pull(DAY, SampleProtos.entry("com.a", 1, 1, DAY, DAY + 1, 2_000_000_000, 12),
                SampleProtos.entry("com.b", 1, 1, DAY, DAY + 1, 5, 12)));

        GraphicsStatsServiceDumpProto result = merge.result();
        assertEquals(Integer.MAX_VALUE, result.getStats(0).getSummary().getTotalFrames());
        assertTrue(result.getStats(0).getSummary().getTotalFrames() > 0);
        assertEquals(List.of("com.a version 1 uid 1"), FleetMerge.saturated(result));
    }

    @Test
    void shouldAddScenesOfEveryTargetPerDayPackageVersionAndScene() {
        FleetMerge merge = new FleetMerge();
        merge.add(0, PullResponse.newBuilder().setDayStart(86_400_000L)
                .addScenes(scene("com.a", "menu", 10, 100_000_000L)).addScenes(scene("com.a", "game", 5, 1)).build());
        merge.add(1, PullResponse.newBuilder().setDayStart(86_400_000L)
                .addScenes(scene("com.a", "menu", 7, 50_000_000L)).build());
        io.gfxstats.rpc.v1.ScenesResponse scenes = merge.scenes();
        assertEquals(2, scenes.getEntriesCount());
        assertEquals("game", scenes.getEntries(0).getStats().getScene(), "sorted by scene");
        io.gfxstats.rpc.v1.SceneEntry menu = scenes.getEntries(1);
        assertEquals(17, menu.getStats().getTotalFrames());
        assertEquals(17, menu.getStats().getMatrixFrames());
        assertEquals(150_000_000L, menu.getStats().getFrameCostNanos());
        assertEquals(1e9 * 17 / 150_000_000L, menu.getMatrixFps(), 1e-9, "fps from the summed counters, not averaged");
        assertEquals(86_400_000L, menu.getDayStart());
    }

    private static io.gfxstats.rpc.v1.SceneEntry scene(String pkg, String name, long frames, long cost) {
        return io.gfxstats.rpc.v1.SceneEntry.newBuilder().setDayStart(86_400_000L).setPackageName(pkg).setVersionCode(1)
                .setStats(io.gfxstats.proto.GfxstatsSceneStats.newBuilder().setScene(name).setTotalFrames(frames)
                        .setMatrixFrames(frames).setFrameCostNanos(cost)).build();
    }
}
