package io.gfxstats.daemon.dump;

import io.gfxstats.proto.GraphicsStatsHistogramBucketProto;
import io.gfxstats.proto.GraphicsStatsProto;
import io.gfxstats.stats.Histograms;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Makes a parsed day file cheap to keep. A GraphicsStatsProto holds 180 histogram bucket
 * messages of 40 bytes each; most buckets of a real histogram are empty or hold a few frames,
 * and a bucket message is immutable, so buckets with the same label and a count of
 * 0..{@value #SHARED_MAX_COUNT} are replaced by one shared instance. 3000 cached files took
 * 22 MiB of buckets, over a third of the daemon's default heap; the protos stay equal, byte for
 * byte when serialized. Buffer marks are dropped too: dumps never show them.
 */
final class CachedProtos {
    static final int SHARED_MAX_COUNT = 15;

    /** Shared buckets by label: index = frame count. Built once, read-only afterwards. */
    private static final Map<Integer, GraphicsStatsHistogramBucketProto[]> SHARED = sharedBuckets();

    private CachedProtos() {
    }

    /** An equal proto (marks aside) whose small buckets are shared instances. */
    static GraphicsStatsProto compact(GraphicsStatsProto p) {
        GraphicsStatsProto.Builder b = p.toBuilder().clearGfxstatsBufferMarks();
        List<GraphicsStatsHistogramBucketProto> cpu = p.getHistogramList();
        List<GraphicsStatsHistogramBucketProto> gpu = p.getGpuHistogramList();
        b.clearHistogram().clearGpuHistogram();
        for (GraphicsStatsHistogramBucketProto bucket : cpu) {
            b.addHistogram(shared(bucket));
        }
        for (GraphicsStatsHistogramBucketProto bucket : gpu) {
            b.addGpuHistogram(shared(bucket));
        }
        return b.build();
    }

    private static GraphicsStatsHistogramBucketProto shared(GraphicsStatsHistogramBucketProto bucket) {
        // Presence matters in proto2 (an unset count serializes differently from 0), and a
        // bucket with unknown fields is not the plain one.
        if (!bucket.hasRenderMillis() || !bucket.hasFrameCount() || bucket.getFrameCount() < 0
                || bucket.getFrameCount() > SHARED_MAX_COUNT || !bucket.getUnknownFields().asMap().isEmpty()) {
            return bucket;
        }
        GraphicsStatsHistogramBucketProto[] byCount = SHARED.get(bucket.getRenderMillis());
        return byCount == null ? bucket : byCount[bucket.getFrameCount()];
    }

    private static Map<Integer, GraphicsStatsHistogramBucketProto[]> sharedBuckets() {
        Map<Integer, GraphicsStatsHistogramBucketProto[]> m = new HashMap<>();
        for (int[] labels : new int[][] {Histograms.cpuLabels(), Histograms.gpuLabels()}) {
            for (int label : labels) {
                m.computeIfAbsent(label, l -> {
                    GraphicsStatsHistogramBucketProto[] byCount = new GraphicsStatsHistogramBucketProto[SHARED_MAX_COUNT + 1];
                    for (int c = 0; c <= SHARED_MAX_COUNT; c++) {
                        byCount[c] = GraphicsStatsHistogramBucketProto.newBuilder().setRenderMillis(l).setFrameCount(c)
                                .build();
                    }
                    return byCount;
                });
            }
        }
        return m;
    }
}
