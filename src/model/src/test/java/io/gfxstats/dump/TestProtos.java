package io.gfxstats.dump;

import io.gfxstats.proto.GraphicsStatsHistogramBucketProto;
import io.gfxstats.proto.GraphicsStatsJankSummaryProto;
import io.gfxstats.proto.GraphicsStatsProto;
import io.gfxstats.stats.Histograms;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Builds GraphicsStatsProtos with full histograms for dump tests. */
final class TestProtos {
    private TestProtos() {
    }

    static GraphicsStatsJankSummaryProto summary(int total, int janky) {
        return GraphicsStatsJankSummaryProto.newBuilder().setTotalFrames(total).setJankyFrames(janky).build();
    }

    /** A proto with both full histograms; buckets not named in the maps (label -> count) hold 0. */
    static GraphicsStatsProto.Builder entry(String pkg, GraphicsStatsJankSummaryProto summary,
                                            Map<Integer, Integer> cpu, Map<Integer, Integer> gpu) {
        GraphicsStatsProto.Builder b = GraphicsStatsProto.newBuilder().setPackageName(pkg).setSummary(summary);
        for (int label : Histograms.cpuLabels()) {
            b.addHistogram(bucket(label, cpu.getOrDefault(label, 0)));
        }
        for (int label : Histograms.gpuLabels()) {
            b.addGpuHistogram(bucket(label, gpu.getOrDefault(label, 0)));
        }
        requireLabels(cpu.keySet(), Histograms.cpuLabels());
        requireLabels(gpu.keySet(), Histograms.gpuLabels());
        return b;
    }

    private static void requireLabels(Set<Integer> wanted, int[] labels) {
        for (int w : wanted) {
            if (Arrays.stream(labels).noneMatch(l -> l == w)) {
                throw new IllegalArgumentException("no bucket is labelled " + w + "ms");
            }
        }
    }

    static GraphicsStatsHistogramBucketProto bucket(int label, int count) {
        return GraphicsStatsHistogramBucketProto.newBuilder().setRenderMillis(label).setFrameCount(count).build();
    }

    static byte[] bytes(DumpWriter writer, List<GraphicsStatsProto> entries) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            writer.write(entries, out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    static String text(DumpFormat format, List<GraphicsStatsProto> entries) {
        return new String(bytes(new TextDumpWriter(format), entries), StandardCharsets.UTF_8);
    }
}
