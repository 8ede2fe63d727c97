package io.gfxstats.dayfile;

import io.gfxstats.proto.GraphicsStatsHistogramBucketProto;
import io.gfxstats.proto.GraphicsStatsJankSummaryProto;
import io.gfxstats.proto.GraphicsStatsProto;
import io.gfxstats.stats.Counters;
import io.gfxstats.stats.Histograms;
import io.gfxstats.stats.JankType;
import io.gfxstats.stats.Pipeline;
import io.gfxstats.stats.ProfileData;
import io.gfxstats.timeline.TimelineProtos;
import java.util.List;

/**
 * Conversions and merges between the in-memory {@link ProfileData} and GraphicsStatsProto,
 * with Android's merge rules (spec section 7). Legacy counters are not persisted.
 */
public final class StatsProtos {
    private StatsProtos() {
    }

    /** Identity and time span of data merged into a proto. */
    public record Source(String packageName, long versionCode, int uid, long startMillis, long endMillis) {
    }

    /**
     * Merges {@code data} into {@code target}: start becomes the earlier, end the later, summary
     * counters are added and histograms created or added bucket by bucket. On a histogram whose
     * size or labels differ, throws and leaves {@code target} unchanged.
     */
    public static void merge(GraphicsStatsProto.Builder target, ProfileData data, Source source)
            throws DayFileException.HistogramMismatch {
        checkHistogram(target.getHistogramList(), Histograms.cpuLabels(), "CPU");
        checkHistogram(target.getGpuHistogramList(), Histograms.gpuLabels(), "GPU");

        // 0 means "unset" on both sides: a source without a start must not wipe the stored one.
        if (source.startMillis() != 0
                && (target.getStatsStart() == 0 || target.getStatsStart() > source.startMillis())) {
            target.setStatsStart(source.startMillis());
        }
        if (target.getStatsEnd() == 0 || target.getStatsEnd() < source.endMillis()) {
            target.setStatsEnd(source.endMillis());
        }
        target.setPackageName(source.packageName());
        target.setVersionCode(source.versionCode());
        target.setUid(source.uid());
        if (data.pipeline() != Pipeline.UNKNOWN || !target.hasPipeline()) {
            target.setPipeline(toProto(data.pipeline()));
        }

        GraphicsStatsJankSummaryProto s = target.getSummary();
        target.setSummary(GraphicsStatsJankSummaryProto.newBuilder()
                .setTotalFrames(sum(s.getTotalFrames(), data.totalFrames()))
                .setJankyFrames(sum(s.getJankyFrames(), data.jankyFrames()))
                .setMissedVsyncCount(sum(s.getMissedVsyncCount(), data.jankCount(JankType.MISSED_VSYNC)))
                .setHighInputLatencyCount(sum(s.getHighInputLatencyCount(), data.jankCount(JankType.HIGH_INPUT_LATENCY)))
                .setSlowUiThreadCount(sum(s.getSlowUiThreadCount(), data.jankCount(JankType.SLOW_UI_THREAD)))
                .setSlowBitmapUploadCount(sum(s.getSlowBitmapUploadCount(), data.jankCount(JankType.SLOW_BITMAP_UPLOAD)))
                .setSlowDrawCount(sum(s.getSlowDrawCount(), data.jankCount(JankType.SLOW_DRAW)))
                .setMissedDeadlineCount(sum(s.getMissedDeadlineCount(), data.jankCount(JankType.MISSED_DEADLINE))));

        mergeHistogram(target, false, data, Counters.CPU_BUCKET_BASE, Histograms.cpuLabels());
        mergeHistogram(target, true, data, Counters.GPU_BUCKET_BASE, Histograms.gpuLabels());
    }

    /** Merges one stored or pulled proto into another with the same rules. */
    public static void merge(GraphicsStatsProto.Builder target, GraphicsStatsProto other)
            throws DayFileException.HistogramMismatch {
        checkHistogram(other.getHistogramList(), Histograms.cpuLabels(), "CPU");
        checkHistogram(other.getGpuHistogramList(), Histograms.gpuLabels(), "GPU");
        ProfileData data = toProfileData(other);
        merge(target, data, new Source(other.getPackageName(), other.getVersionCode(), other.getUid(),
                other.getStatsStart(), other.getStatsEnd()));
        if (other.hasGfxstatsFrameTimeline()) {
            // timeline: FrameTimeline counters add up like the Android ones.
            target.setGfxstatsFrameTimeline(target.hasGfxstatsFrameTimeline()
                    ? TimelineProtos.add(target.getGfxstatsFrameTimeline(), other.getGfxstatsFrameTimeline())
                    : other.getGfxstatsFrameTimeline());
        }
        if (other.hasGfxstatsRingDroppedFrames()) {
            target.setGfxstatsRingDroppedFrames(target.getGfxstatsRingDroppedFrames() + other.getGfxstatsRingDroppedFrames());
        }
    }

    public static GraphicsStatsProto toProto(ProfileData data, Source source) {
        GraphicsStatsProto.Builder b = GraphicsStatsProto.newBuilder();
        try {
            merge(b, data, source);
        } catch (DayFileException.HistogramMismatch e) {
            throw new AssertionError("an empty proto always accepts a merge", e);
        }
        return b.build();
    }

    /**
     * The counters of a proto as a ProfileData (legacy counters 0). Histograms that are absent
     * count as empty; a malformed histogram is rejected.
     */
    public static ProfileData toProfileData(GraphicsStatsProto proto) throws DayFileException.HistogramMismatch {
        checkHistogram(proto.getHistogramList(), Histograms.cpuLabels(), "CPU");
        checkHistogram(proto.getGpuHistogramList(), Histograms.gpuLabels(), "GPU");
        ProfileData d = new ProfileData(proto.getStatsStart(), Pipeline.fromCode(proto.getPipeline().getNumber()));
        GraphicsStatsJankSummaryProto s = proto.getSummary();
        d.add(Counters.TOTAL_FRAMES, s.getTotalFrames());
        d.add(Counters.JANKY_FRAMES, s.getJankyFrames());
        d.add(JankType.MISSED_VSYNC.counter(), s.getMissedVsyncCount());
        d.add(JankType.HIGH_INPUT_LATENCY.counter(), s.getHighInputLatencyCount());
        d.add(JankType.SLOW_UI_THREAD.counter(), s.getSlowUiThreadCount());
        d.add(JankType.SLOW_BITMAP_UPLOAD.counter(), s.getSlowBitmapUploadCount());
        d.add(JankType.SLOW_DRAW.counter(), s.getSlowDrawCount());
        d.add(JankType.MISSED_DEADLINE.counter(), s.getMissedDeadlineCount());
        for (int i = 0; i < proto.getHistogramCount(); i++) {
            d.add(Counters.CPU_BUCKET_BASE + i, proto.getHistogram(i).getFrameCount());
        }
        for (int i = 0; i < proto.getGpuHistogramCount(); i++) {
            d.add(Counters.GPU_BUCKET_BASE + i, proto.getGpuHistogram(i).getFrameCount());
        }
        return d;
    }

    /**
     * Checks that each histogram of {@code proto} is either empty or has exactly Android's buckets
     * and labels, so that it can be merged and dumped.
     */
    public static void checkHistograms(GraphicsStatsProto proto) throws DayFileException.HistogramMismatch {
        checkHistogram(proto.getHistogramList(), Histograms.cpuLabels(), "CPU");
        checkHistogram(proto.getGpuHistogramList(), Histograms.gpuLabels(), "GPU");
    }

    public static GraphicsStatsProto.PipelineType toProto(Pipeline pipeline) {
        return switch (pipeline) {
            case GL -> GraphicsStatsProto.PipelineType.GL;
            case VULKAN -> GraphicsStatsProto.PipelineType.VULKAN;
            case UNKNOWN -> GraphicsStatsProto.PipelineType.UNKNOWN;
        };
    }

    private static void checkHistogram(List<GraphicsStatsHistogramBucketProto> buckets, int[] labels, String which)
            throws DayFileException.HistogramMismatch {
        if (buckets.isEmpty()) {
            return;
        }
        if (buckets.size() != labels.length) {
            throw new DayFileException.HistogramMismatch(
                    which + " histogram has " + buckets.size() + " buckets, expected " + labels.length);
        }
        for (int i = 0; i < labels.length; i++) {
            if (buckets.get(i).getRenderMillis() != labels[i]) {
                throw new DayFileException.HistogramMismatch(which + " bucket " + i + " is labelled "
                        + buckets.get(i).getRenderMillis() + "ms, expected " + labels[i] + "ms");
            }
        }
    }

    private static void mergeHistogram(GraphicsStatsProto.Builder target, boolean gpu, ProfileData data, int base,
                                       int[] labels) {
        boolean empty = gpu ? target.getGpuHistogramCount() == 0 : target.getHistogramCount() == 0;
        for (int i = 0; i < labels.length; i++) {
            long add = data.get(base + i);
            if (empty) {
                GraphicsStatsHistogramBucketProto bucket = GraphicsStatsHistogramBucketProto.newBuilder()
                        .setRenderMillis(labels[i]).setFrameCount(sum(0, add)).build();
                if (gpu) {
                    target.addGpuHistogram(bucket);
                } else {
                    target.addHistogram(bucket);
                }
            } else {
                GraphicsStatsHistogramBucketProto old = gpu ? target.getGpuHistogram(i) : target.getHistogram(i);
                if (add == 0 && old.hasFrameCount()) {
                    // Unchanged: most buckets of a merge. Rebuilding all 180 each time was the
                    // largest single cost of a dump with many live buffers.
                    continue;
                }
                GraphicsStatsHistogramBucketProto bucket = old.toBuilder()
                        .setFrameCount(sum(old.getFrameCount(), add)).build();
                if (gpu) {
                    target.setGpuHistogram(i, bucket);
                } else {
                    target.setHistogram(i, bucket);
                }
            }
        }
    }

    /**
     * The proto's counters are int32 (Android's schema). A sum past that saturates rather than
     * wrapping negative, which no Android parser could make sense of.
     */
    static int sum(long a, long b) {
        long s = a + b;
        if (s > Integer.MAX_VALUE) {
            return Integer.MAX_VALUE;
        }
        if (s < Integer.MIN_VALUE) {
            return Integer.MIN_VALUE;
        }
        return (int) s;
    }
}
