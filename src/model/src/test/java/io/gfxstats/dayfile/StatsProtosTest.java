package io.gfxstats.dayfile;

import static io.gfxstats.dayfile.DayFileCodecTest.SOURCE;
import static io.gfxstats.dayfile.DayFileCodecTest.patterned;
import static io.gfxstats.dayfile.DayFileCodecTest.persisted;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrowsExactly;

import io.gfxstats.proto.GraphicsStatsJankSummaryProto;
import io.gfxstats.proto.GraphicsStatsProto;
import io.gfxstats.stats.Counters;
import io.gfxstats.stats.Histograms;
import io.gfxstats.stats.JankType;
import io.gfxstats.stats.Pipeline;
import io.gfxstats.stats.ProfileData;
import org.junit.jupiter.api.Test;

class StatsProtosTest {

    /** One save as the daemon does it: read the day file (if any), merge, write it back. */
    private static byte[] save(byte[] file, ProfileData data, StatsProtos.Source source) throws DayFileException {
        GraphicsStatsProto.Builder b = file == null ? GraphicsStatsProto.newBuilder() : DayFileCodec.decode(file).toBuilder();
        StatsProtos.merge(b, data, source);
        return DayFileCodec.encode(b.build());
    }

    @Test
    void shouldMergeTwoSuccessiveSaves() throws DayFileException {
        ProfileData first = patterned(1);
        ProfileData second = patterned(2);
        byte[] file = save(null, first, new StatsProtos.Source("com.example.app", 42, 10123, 2_000, 5_000));
        file = save(file, second, new StatsProtos.Source("com.example.app", 42, 10123, 1_000, 9_000));
        GraphicsStatsProto merged = DayFileCodec.decode(file);

        assertEquals(1_000, merged.getStatsStart());
        assertEquals(9_000, merged.getStatsEnd());
        ProfileData sum = persisted(first);
        sum.merge(persisted(second));
        ProfileData read = StatsProtos.toProfileData(merged);
        for (int i = 0; i < Counters.COUNT; i++) {
            assertEquals(sum.get(i), read.get(i), "counter " + i);
        }
        assertEquals(first.totalFrames() + second.totalFrames(), merged.getSummary().getTotalFrames());
        for (int i = 0; i < Histograms.CPU_BUCKETS; i++) {
            assertEquals(first.cpuBucket(i) + second.cpuBucket(i), merged.getHistogram(i).getFrameCount());
            assertEquals(Histograms.cpuLabel(i), merged.getHistogram(i).getRenderMillis());
        }
        for (int i = 0; i < Histograms.GPU_BUCKETS; i++) {
            assertEquals(first.gpuBucket(i) + second.gpuBucket(i), merged.getGpuHistogram(i).getFrameCount());
        }
    }

    @Test
    void shouldKeepTheEarlierStartAndLaterEndWhicheverSaveComesFirst() throws DayFileException {
        byte[] file = save(null, patterned(1), new StatsProtos.Source("p", 1, 1, 1_000, 9_000));
        file = save(file, patterned(1), new StatsProtos.Source("p", 1, 1, 2_000, 5_000));
        GraphicsStatsProto merged = DayFileCodec.decode(file);
        assertEquals(1_000, merged.getStatsStart());
        assertEquals(9_000, merged.getStatsEnd());
    }

    @Test
    void shouldNotLetASourceWithoutStartWipeTheStoredStart() throws DayFileException {
        GraphicsStatsProto.Builder b = StatsProtos.toProto(patterned(1), SOURCE).toBuilder();
        StatsProtos.merge(b, GraphicsStatsProto.newBuilder().setPackageName("com.example.app")
                .setSummary(GraphicsStatsJankSummaryProto.newBuilder().setTotalFrames(1)).build());
        assertEquals(SOURCE.startMillis(), b.getStatsStart());
        assertEquals(SOURCE.endMillis(), b.getStatsEnd());
    }

    @Test
    void shouldCreateLabelledHistogramsInAnEmptyProto() {
        GraphicsStatsProto p = StatsProtos.toProto(new ProfileData(), SOURCE);
        assertEquals(Histograms.CPU_BUCKETS, p.getHistogramCount());
        assertEquals(Histograms.GPU_BUCKETS, p.getGpuHistogramCount());
        assertEquals(4950, p.getHistogram(Histograms.CPU_BUCKETS - 1).getRenderMillis());
        assertEquals(4950, p.getGpuHistogram(Histograms.GPU_BUCKETS - 1).getRenderMillis());
        assertEquals(53, p.getHistogram(36).getRenderMillis());
    }

    @Test
    void shouldNotPersistLegacyCounters() {
        ProfileData d = new ProfileData(1, Pipeline.GL);
        d.add(Counters.JANKY_FRAMES_LEGACY, 9);
        d.add(JankType.MISSED_DEADLINE_LEGACY.counter(), 9);
        d.add(JankType.MISSED_DEADLINE.counter(), 4);
        GraphicsStatsJankSummaryProto s = StatsProtos.toProto(d, SOURCE).getSummary();
        assertEquals(GraphicsStatsJankSummaryProto.newBuilder().setTotalFrames(0).setJankyFrames(0)
                .setMissedVsyncCount(0).setHighInputLatencyCount(0).setSlowUiThreadCount(0)
                .setSlowBitmapUploadCount(0).setSlowDrawCount(0).setMissedDeadlineCount(4).build(), s);
    }

    @Test
    void shouldLeaveTheTargetUnchangedWhenItsHistogramHasTheWrongBucketCount() {
        GraphicsStatsProto.Builder target = StatsProtos.toProto(patterned(1), SOURCE).toBuilder()
                .removeGpuHistogram(0);
        GraphicsStatsProto before = target.build();
        assertThrowsExactly(DayFileException.HistogramMismatch.class,
                () -> StatsProtos.merge(target, patterned(2), new StatsProtos.Source("x", 9, 9, 1, Long.MAX_VALUE)));
        assertEquals(before, target.build());
    }

    @Test
    void shouldLeaveTheTargetUnchangedWhenItsHistogramHasAWrongLabel() {
        GraphicsStatsProto good = StatsProtos.toProto(patterned(1), SOURCE);
        GraphicsStatsProto.Builder target = good.toBuilder()
                .setHistogram(Histograms.CPU_BUCKETS - 1, good.getHistogram(Histograms.CPU_BUCKETS - 1).toBuilder()
                        .setRenderMillis(5000));
        GraphicsStatsProto before = target.build();
        assertThrowsExactly(DayFileException.HistogramMismatch.class,
                () -> StatsProtos.merge(target, patterned(2), new StatsProtos.Source("x", 9, 9, 1, Long.MAX_VALUE)));
        assertEquals(before, target.build());
    }

    @Test
    void shouldLeaveTheTargetUnchangedWhenTheMergedProtoIsMalformed() {
        GraphicsStatsProto good = StatsProtos.toProto(patterned(1), SOURCE);
        GraphicsStatsProto.Builder target = good.toBuilder();
        GraphicsStatsProto bad = StatsProtos.toProto(patterned(2), SOURCE).toBuilder().removeHistogram(3).build();
        assertThrowsExactly(DayFileException.HistogramMismatch.class, () -> StatsProtos.merge(target, bad));
        assertEquals(good, target.build());
    }

    @Test
    void shouldMergeStoredProtosLikeProfileData() throws DayFileException {
        GraphicsStatsProto.Builder target = StatsProtos.toProto(patterned(1), SOURCE).toBuilder();
        StatsProtos.merge(target, StatsProtos.toProto(patterned(2),
                new StatsProtos.Source("com.example.app", 42, 10123, 10, 20)));
        ProfileData expected = persisted(patterned(1));
        expected.merge(persisted(patterned(2)));
        expected.setStatsStartMillis(10);
        assertEquals(expected, StatsProtos.toProfileData(target.build()));
        assertEquals(10, target.getStatsStart());
        assertEquals(SOURCE.endMillis(), target.getStatsEnd());
    }

    @Test
    void shouldSaturateCountersAtTheInt32LimitInsteadOfWrapping() throws DayFileException {
        ProfileData big = new ProfileData(1, Pipeline.GL);
        big.add(Counters.TOTAL_FRAMES, Integer.MAX_VALUE - 1);
        big.add(Counters.cpuBucket(0), Integer.MAX_VALUE - 1);
        GraphicsStatsProto.Builder b = StatsProtos.toProto(big, SOURCE).toBuilder();
        StatsProtos.merge(b, big, SOURCE);
        assertEquals(Integer.MAX_VALUE, b.getSummary().getTotalFrames());
        assertEquals(Integer.MAX_VALUE, b.getHistogram(0).getFrameCount());
    }

    @Test
    void shouldKeepAKnownPipelineWhenMergingAnUnknownOne() throws DayFileException {
        GraphicsStatsProto.Builder b = StatsProtos.toProto(new ProfileData(1, Pipeline.VULKAN), SOURCE).toBuilder();
        StatsProtos.merge(b, new ProfileData(1, Pipeline.UNKNOWN), SOURCE);
        assertEquals(GraphicsStatsProto.PipelineType.VULKAN, b.getPipeline());
        StatsProtos.merge(b, new ProfileData(1, Pipeline.GL), SOURCE);
        assertEquals(GraphicsStatsProto.PipelineType.GL, b.getPipeline());
    }
}
