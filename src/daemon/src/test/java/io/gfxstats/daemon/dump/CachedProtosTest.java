package io.gfxstats.daemon.dump;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import com.google.protobuf.UnknownFieldSet;
import io.gfxstats.dayfile.StatsProtos;
import io.gfxstats.proto.GfxstatsBufferMark;
import io.gfxstats.proto.GraphicsStatsHistogramBucketProto;
import io.gfxstats.proto.GraphicsStatsProto;
import io.gfxstats.stats.Counters;
import io.gfxstats.stats.ProfileData;
import org.junit.jupiter.api.Test;

class CachedProtosTest {
    private static GraphicsStatsProto sample() {
        ProfileData p = new ProfileData();
        p.add(Counters.TOTAL_FRAMES, 1000);
        p.add(Counters.cpuBucket(3), 900);
        p.add(Counters.cpuBucket(60), 7);
        p.add(Counters.cpuBucket(100), 93);
        p.add(Counters.gpuBucket(2), 1000);
        return StatsProtos.toProto(p, new StatsProtos.Source("com.example.app", 4, 10001, 1000, 2000));
    }

    @Test
    void shouldKeepTheProtoEqualAndItsBytesIdenticalWhileSharingSmallBuckets() {
        GraphicsStatsProto original = sample();
        GraphicsStatsProto withMark = original.toBuilder()
                .addGfxstatsBufferMarks(GfxstatsBufferMark.newBuilder().setBufferKey("abc")).build();

        GraphicsStatsProto compact = CachedProtos.compact(withMark);
        assertEquals(original, compact);
        assertArrayEquals(original.toByteArray(), compact.toByteArray());

        GraphicsStatsProto other = CachedProtos.compact(sample());
        assertSame(compact.getHistogram(0), other.getHistogram(0), "empty buckets are shared");
        assertSame(compact.getHistogram(60), other.getHistogram(60), "a bucket of 7 frames is shared");
        assertNotSame(compact.getHistogram(3), other.getHistogram(3), "a bucket of 900 frames is not");
    }

    @Test
    void shouldLeaveBucketsWithUnknownFieldsOrMissingValuesAsTheyAre() {
        GraphicsStatsHistogramBucketProto odd = GraphicsStatsHistogramBucketProto.newBuilder().setRenderMillis(5)
                .setFrameCount(1).setUnknownFields(UnknownFieldSet.newBuilder()
                        .addField(9, UnknownFieldSet.Field.newBuilder().addVarint(3).build()).build()).build();
        GraphicsStatsHistogramBucketProto noCount = GraphicsStatsHistogramBucketProto.newBuilder().setRenderMillis(6)
                .build();
        GraphicsStatsProto p = GraphicsStatsProto.newBuilder().setPackageName("com.example.app")
                .addHistogram(odd).addHistogram(noCount).build();

        GraphicsStatsProto compact = CachedProtos.compact(p);
        assertSame(odd, compact.getHistogram(0));
        assertSame(noCount, compact.getHistogram(1));
        assertArrayEquals(p.toByteArray(), compact.toByteArray());
    }
}
