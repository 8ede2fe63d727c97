package io.gfxstats.dayfile;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrowsExactly;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gfxstats.proto.GfxstatsBufferMark;
import io.gfxstats.proto.GraphicsStatsHistogramBucketProto;
import io.gfxstats.proto.GraphicsStatsProto;
import io.gfxstats.stats.Counters;
import io.gfxstats.stats.Histograms;
import io.gfxstats.stats.JankType;
import io.gfxstats.stats.Pipeline;
import io.gfxstats.stats.ProfileData;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class DayFileCodecTest {

    static final StatsProtos.Source SOURCE =
            new StatsProtos.Source("com.example.app", 42, 10123, 1_700_000_000_000L, 1_700_000_500_000L);

    /** Distinct counts in every counter, so a bucket shifted or dropped anywhere shows up. */
    static ProfileData patterned(int seed) {
        ProfileData d = new ProfileData(1_700_000_000_000L, Pipeline.VULKAN);
        for (int i = 0; i < Counters.COUNT; i++) {
            d.add(i, (long) seed * 1000 + i * 7L + 1);
        }
        return d;
    }

    /** What survives a day file: everything but the legacy counters, which Android does not persist. */
    static ProfileData persisted(ProfileData d) {
        ProfileData p = d.copy();
        p.add(Counters.JANKY_FRAMES_LEGACY, -p.get(Counters.JANKY_FRAMES_LEGACY));
        int legacy = JankType.MISSED_DEADLINE_LEGACY.counter();
        p.add(legacy, -p.get(legacy));
        return p;
    }

    static byte[] withHeader(int version, byte[] body) {
        byte[] out = new byte[4 + body.length];
        out[0] = (byte) version;
        out[1] = (byte) (version >>> 8);
        out[2] = (byte) (version >>> 16);
        out[3] = (byte) (version >>> 24);
        System.arraycopy(body, 0, out, 4, body.length);
        return out;
    }

    @Test
    void shouldRoundTripPatternedCountsInEveryBucket() throws DayFileException {
        ProfileData data = patterned(3);
        GraphicsStatsProto proto = StatsProtos.toProto(data, SOURCE);
        byte[] file = DayFileCodec.encode(proto);

        GraphicsStatsProto read = DayFileCodec.decode(file);
        assertEquals(proto, read);
        assertEquals(persisted(data), StatsProtos.toProfileData(read));
        for (int i = 0; i < Histograms.CPU_BUCKETS; i++) {
            assertEquals(Histograms.cpuLabel(i), read.getHistogram(i).getRenderMillis());
            assertEquals(data.cpuBucket(i), read.getHistogram(i).getFrameCount());
        }
        for (int i = 0; i < Histograms.GPU_BUCKETS; i++) {
            assertEquals(Histograms.gpuLabel(i), read.getGpuHistogram(i).getRenderMillis());
            assertEquals(data.gpuBucket(i), read.getGpuHistogram(i).getFrameCount());
        }
        assertEquals("com.example.app", read.getPackageName());
        assertEquals(42, read.getVersionCode());
        assertEquals(10123, read.getUid());
        assertEquals(1_700_000_000_000L, read.getStatsStart());
        assertEquals(1_700_000_500_000L, read.getStatsEnd());
        assertEquals(GraphicsStatsProto.PipelineType.VULKAN, read.getPipeline());
    }

    @Test
    void shouldStartWithALittleEndianVersionOneHeaderFollowedByTheProto() {
        GraphicsStatsProto proto = StatsProtos.toProto(patterned(1), SOURCE);
        byte[] file = DayFileCodec.encode(proto);
        assertArrayEquals(new byte[] {1, 0, 0, 0}, Arrays.copyOf(file, 4));
        assertArrayEquals(proto.toByteArray(), Arrays.copyOfRange(file, 4, file.length));
    }

    @Test
    void shouldKeepBufferMarksInDayFiles() throws DayFileException {
        GraphicsStatsProto proto = StatsProtos.toProto(patterned(1), SOURCE).toBuilder()
                .addGfxstatsBufferMarks(GfxstatsBufferMark.newBuilder().setBufferKey("b1").setPid(77).addCounters(5))
                .build();
        assertEquals(proto, DayFileCodec.decode(DayFileCodec.encode(proto)));
    }

    @Test
    void shouldAcceptAHeaderWithAnEmptyBody() throws DayFileException {
        assertEquals(GraphicsStatsProto.getDefaultInstance(), DayFileCodec.decode(new byte[] {1, 0, 0, 0}));
    }

    @Test
    void shouldRejectAFileShorterThanTheHeader() {
        for (int length = 0; length < 4; length++) {
            byte[] file = Arrays.copyOf(new byte[] {1, 0, 0}, length);
            DayFileException.TooShort e = assertThrowsExactly(DayFileException.TooShort.class,
                    () -> DayFileCodec.decode(file));
            assertTrue(e.getMessage().contains(length + " bytes"), e.getMessage());
        }
    }

    @Test
    void shouldRejectAnotherVersion() {
        byte[] body = StatsProtos.toProto(patterned(1), SOURCE).toByteArray();
        for (int version : new int[] {0, 2, -1, 0x01000000 /* 1 written big-endian */}) {
            DayFileException.WrongVersion e = assertThrowsExactly(DayFileException.WrongVersion.class,
                    () -> DayFileCodec.decode(withHeader(version, body)));
            assertEquals(version, e.version());
            assertTrue(e.getMessage().contains("version " + version), e.getMessage());
        }
    }

    @Test
    void shouldRejectABodyThatDoesNotParse() {
        byte[] garbage = {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF};
        byte[] truncatedString = {0x0A, 0x05, 'a'};
        byte[] full = StatsProtos.toProto(patterned(1), SOURCE).toByteArray();
        byte[] truncated = Arrays.copyOf(full, full.length - 1);
        for (byte[] body : new byte[][] {garbage, truncatedString, truncated}) {
            DayFileException.Unparseable e = assertThrowsExactly(DayFileException.Unparseable.class,
                    () -> DayFileCodec.decode(withHeader(1, body)));
            assertTrue(e.getCause() != null && e.getMessage().startsWith("day file body does not parse"));
        }
    }

    @Test
    void shouldRejectAHistogramWithTheWrongBucketCount() {
        GraphicsStatsProto good = StatsProtos.toProto(patterned(1), SOURCE);
        GraphicsStatsProto shortCpu = good.toBuilder().removeHistogram(Histograms.CPU_BUCKETS - 1).build();
        GraphicsStatsProto longGpu = good.toBuilder()
                .addGpuHistogram(GraphicsStatsHistogramBucketProto.newBuilder().setRenderMillis(5000)).build();
        DayFileException.HistogramMismatch cpu = assertThrowsExactly(DayFileException.HistogramMismatch.class,
                () -> DayFileCodec.decode(DayFileCodec.encode(shortCpu)));
        assertEquals("histogram mismatch: CPU histogram has 153 buckets, expected 154", cpu.getMessage());
        DayFileException.HistogramMismatch gpu = assertThrowsExactly(DayFileException.HistogramMismatch.class,
                () -> DayFileCodec.decode(DayFileCodec.encode(longGpu)));
        assertEquals("histogram mismatch: GPU histogram has 27 buckets, expected 26", gpu.getMessage());
    }

    @Test
    void shouldRejectAHistogramWithAWrongLabel() {
        GraphicsStatsProto good = StatsProtos.toProto(patterned(1), SOURCE);
        GraphicsStatsProto badCpu = good.toBuilder()
                .setHistogram(57, good.getHistogram(57).toBuilder().setRenderMillis(149)).build();
        GraphicsStatsProto badGpu = good.toBuilder()
                .setGpuHistogram(25, good.getGpuHistogram(25).toBuilder().setRenderMillis(26)).build();
        DayFileException.HistogramMismatch cpu = assertThrowsExactly(DayFileException.HistogramMismatch.class,
                () -> DayFileCodec.decode(DayFileCodec.encode(badCpu)));
        assertEquals("histogram mismatch: CPU bucket 57 is labelled 149ms, expected 150ms", cpu.getMessage());
        DayFileException.HistogramMismatch gpu = assertThrowsExactly(DayFileException.HistogramMismatch.class,
                () -> DayFileCodec.decode(DayFileCodec.encode(badGpu)));
        assertEquals("histogram mismatch: GPU bucket 25 is labelled 26ms, expected 4950ms", gpu.getMessage());
    }

    @Test
    void shouldAcceptAFileWithoutHistograms() throws DayFileException {
        GraphicsStatsProto bare = StatsProtos.toProto(patterned(1), SOURCE).toBuilder()
                .clearHistogram().clearGpuHistogram().build();
        assertEquals(bare, DayFileCodec.decode(DayFileCodec.encode(bare)));
    }
}
