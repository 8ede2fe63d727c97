package io.gfxstats.dump;

import static io.gfxstats.dump.TestProtos.bucket;
import static io.gfxstats.dump.TestProtos.entry;
import static io.gfxstats.dump.TestProtos.summary;
import static io.gfxstats.dump.TestProtos.text;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import io.gfxstats.proto.GfxstatsBufferMark;
import io.gfxstats.proto.GraphicsStatsJankSummaryProto;
import io.gfxstats.proto.GraphicsStatsProto;
import io.gfxstats.stats.Histograms;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TextDumpWriterTest {

    /** Known values; every line of the expected block below was worked out by hand from them. */
    static GraphicsStatsProto goldenProto() {
        GraphicsStatsJankSummaryProto summary = GraphicsStatsJankSummaryProto.newBuilder()
                .setTotalFrames(32).setJankyFrames(1)
                .setMissedVsyncCount(3).setHighInputLatencyCount(7).setSlowUiThreadCount(2)
                .setSlowBitmapUploadCount(0).setSlowDrawCount(1).setMissedDeadlineCount(1)
                .build();
        return entry("com.example.app", summary,
                Map.of(5, 10, 16, 15, 32, 4, 150, 2, 4950, 1),
                Map.of(1, 6, 4, 10, 12, 2, 20, 1, 4950, 1))
                .setUid(10123).setVersionCode(42)
                .setStatsStart(1700000000000L).setStatsEnd(1700000086400L)
                .setPipeline(GraphicsStatsProto.PipelineType.VULKAN)
                .build();
    }

    // CPU percentiles of 32 frames: p50 pos 16 -> 16ms, p90 pos 28 -> 32ms, p95 pos 30 -> 150ms,
    // p99 pos 31 -> 4950ms. GPU (20 frames, bucket sum): p50 -> 4ms, p90 -> 20ms, p95/p99 -> 4950ms.
    static final String GOLDEN_ANDROID14 = ""
            + "\nUID: 10123"
            + "\nPackage: com.example.app"
            + "\nVersion: 42"
            + "\nStats since: 1700000000000ns"
            + "\nStats end: 1700000086400ns"
            + "\nTotal frames rendered: 32"
            + "\nJanky frames: 1 (3.12%)"
            + "\n50th percentile: 16ms"
            + "\n90th percentile: 32ms"
            + "\n95th percentile: 150ms"
            + "\n99th percentile: 4950ms"
            + "\nNumber Missed Vsync: 3"
            + "\nNumber High input latency: 7"
            + "\nNumber Slow UI thread: 2"
            + "\nNumber Slow bitmap uploads: 0"
            + "\nNumber Slow issue draw commands: 1"
            + "\nNumber Frame deadline missed: 1"
            + "\nHISTOGRAM:"
            + " 5ms=10 6ms=0 7ms=0 8ms=0 9ms=0 10ms=0 11ms=0 12ms=0 13ms=0 14ms=0 15ms=0 16ms=15 17ms=0"
            + " 18ms=0 19ms=0 20ms=0 21ms=0 22ms=0 23ms=0 24ms=0 25ms=0 26ms=0 27ms=0 28ms=0 29ms=0"
            + " 30ms=0 31ms=0 32ms=4 34ms=0 36ms=0 38ms=0 40ms=0 42ms=0 44ms=0 46ms=0 48ms=0 53ms=0"
            + " 57ms=0 61ms=0 65ms=0 69ms=0 73ms=0 77ms=0 81ms=0 85ms=0 89ms=0 93ms=0 97ms=0 101ms=0"
            + " 105ms=0 109ms=0 113ms=0 117ms=0 121ms=0 125ms=0 129ms=0 133ms=0 150ms=2 200ms=0 250ms=0"
            + " 300ms=0 350ms=0 400ms=0 450ms=0 500ms=0 550ms=0 600ms=0 650ms=0 700ms=0 750ms=0 800ms=0"
            + " 850ms=0 900ms=0 950ms=0 1000ms=0 1050ms=0 1100ms=0 1150ms=0 1200ms=0 1250ms=0 1300ms=0"
            + " 1350ms=0 1400ms=0 1450ms=0 1500ms=0 1550ms=0 1600ms=0 1650ms=0 1700ms=0 1750ms=0 1800ms=0"
            + " 1850ms=0 1900ms=0 1950ms=0 2000ms=0 2050ms=0 2100ms=0 2150ms=0 2200ms=0 2250ms=0 2300ms=0"
            + " 2350ms=0 2400ms=0 2450ms=0 2500ms=0 2550ms=0 2600ms=0 2650ms=0 2700ms=0 2750ms=0 2800ms=0"
            + " 2850ms=0 2900ms=0 2950ms=0 3000ms=0 3050ms=0 3100ms=0 3150ms=0 3200ms=0 3250ms=0 3300ms=0"
            + " 3350ms=0 3400ms=0 3450ms=0 3500ms=0 3550ms=0 3600ms=0 3650ms=0 3700ms=0 3750ms=0 3800ms=0"
            + " 3850ms=0 3900ms=0 3950ms=0 4000ms=0 4050ms=0 4100ms=0 4150ms=0 4200ms=0 4250ms=0 4300ms=0"
            + " 4350ms=0 4400ms=0 4450ms=0 4500ms=0 4550ms=0 4600ms=0 4650ms=0 4700ms=0 4750ms=0 4800ms=0"
            + " 4850ms=0 4900ms=0 4950ms=1"
            + "\n50th gpu percentile: 4ms"
            + "\n90th gpu percentile: 20ms"
            + "\n95th gpu percentile: 4950ms"
            + "\n99th gpu percentile: 4950ms"
            + "\nGPU HISTOGRAM:"
            + " 1ms=6 2ms=0 3ms=0 4ms=10 5ms=0 6ms=0 7ms=0 8ms=0 9ms=0 10ms=0 11ms=0 12ms=2 13ms=0"
            + " 14ms=0 15ms=0 16ms=0 17ms=0 18ms=0 19ms=0 20ms=1 21ms=0 22ms=0 23ms=0 24ms=0 25ms=0 4950ms=1"
            + "\n";

    @Test
    void shouldPrintTheFullBlockByteForByte() {
        byte[] actual = TestProtos.bytes(new TextDumpWriter(DumpFormat.ANDROID14), List.of(goldenProto()));
        assertEquals(GOLDEN_ANDROID14, new String(actual, StandardCharsets.US_ASCII));
        assertArrayEquals(GOLDEN_ANDROID14.getBytes(StandardCharsets.US_ASCII), actual);
    }

    @Test
    void shouldPrintOneBlockPerEntryInOrderWithoutSeparators() {
        GraphicsStatsProto second = goldenProto().toBuilder().setPackageName("org.other").setUid(10500).build();
        String both = text(DumpFormat.ANDROID14, List.of(goldenProto(), second));
        String secondBlock = GOLDEN_ANDROID14.replace("\nUID: 10123", "\nUID: 10500")
                .replace("\nPackage: com.example.app", "\nPackage: org.other");
        assertEquals(GOLDEN_ANDROID14 + secondBlock, both);
    }

    @Test
    void shouldSkipEntriesWithoutPackageNameOrSummary() {
        GraphicsStatsProto noName = goldenProto().toBuilder().clearPackageName().build();
        GraphicsStatsProto emptyName = goldenProto().toBuilder().setPackageName("").build();
        GraphicsStatsProto noSummary = goldenProto().toBuilder().clearSummary().build();
        String out = text(DumpFormat.ANDROID14, List.of(noName, goldenProto(), emptyName, noSummary));
        assertEquals(GOLDEN_ANDROID14, out);
        assertEquals("", text(DumpFormat.ANDROID14, List.of(noName, emptyName, noSummary)));
        assertEquals("", text(DumpFormat.ANDROID14, List.of()));
    }

    @Test
    void shouldPrintAnEmptySummaryWithNanAndThe4950PercentilesOfAllZeroHistograms() {
        GraphicsStatsProto p = entry("empty.app", summary(0, 0), Map.of(), Map.of()).build();
        String out = text(DumpFormat.ANDROID14, List.of(p));
        assertTrue(out.contains("\nTotal frames rendered: 0\nJanky frames: 0 (nan%)\n"), out);
        for (String n : List.of("50th", "90th", "95th", "99th")) {
            assertTrue(out.contains("\n" + n + " percentile: 4950ms\n"), out);
            assertTrue(out.contains("\n" + n + " gpu percentile: 4950ms\n"), out);
        }
    }

    @Test
    void shouldPrintZeroPercentilesAndBareHeadersForAnEntryWithoutHistograms() {
        // A summary but no buckets (e.g. an old file): nothing to walk, so every percentile is 0.
        GraphicsStatsProto p = GraphicsStatsProto.newBuilder().setPackageName("bare").setSummary(summary(5, 5)).build();
        String out = text(DumpFormat.ANDROID14, List.of(p));
        assertTrue(out.contains("\nJanky frames: 5 (100.00%)\n50th percentile: 0ms\n"), out);
        assertTrue(out.contains("\nHISTOGRAM:\n50th gpu percentile: 0ms\n"), out);
        assertTrue(out.endsWith("\nGPU HISTOGRAM:\n"), out);
    }

    @Test
    void shouldTakeCpuPercentilesOfTheSummaryTotalAndGpuPercentilesOfTheBucketSum() {
        // Summary says 100 frames but the CPU buckets hold only 10 (all at 20ms): p50 of 100 needs
        // 50 frames from the top, more than the buckets hold, so it falls through to 0. The GPU
        // histogram is taken of its own 10 frames.
        GraphicsStatsProto p = entry("totals", summary(100, 0), Map.of(20, 10), Map.of(7, 10)).build();
        String out = text(DumpFormat.ANDROID14, List.of(p));
        assertTrue(out.contains("\n50th percentile: 0ms\n"), out);
        assertTrue(out.contains("\n99th percentile: 20ms\n"), out);
        assertTrue(out.contains("\n50th gpu percentile: 7ms\n"), out);
    }

    @Test
    void shouldComputePercentilesIn64BitsForHugeCounts() {
        // 99 * 2147483647 overflows 32 bits; Android's int arithmetic would print garbage here.
        int max = Integer.MAX_VALUE;
        GraphicsStatsProto p = entry("huge", summary(max, 0), Map.of(5, max - 1, 4950, 1), Map.of(1, max)).build();
        String out = text(DumpFormat.ANDROID14, List.of(p));
        assertTrue(out.contains("\n50th percentile: 5ms\n90th percentile: 5ms\n95th percentile: 5ms\n99th percentile: 5ms\n"), out);
        assertTrue(out.contains("\nTotal frames rendered: 2147483647\nJanky frames: 0 (0.00%)\n"), out);
        assertTrue(out.contains(" 5ms=2147483646 "), out);
        assertTrue(out.contains("\n99th gpu percentile: 1ms\n"), out);
    }

    @Test
    void shouldPrintNegativeAndExtremeValuesAsPrintfDoes() {
        GraphicsStatsProto p = goldenProto().toBuilder()
                .setUid(-1).setVersionCode(Long.MIN_VALUE).setStatsStart(-5).setStatsEnd(Long.MAX_VALUE)
                .setSummary(summary(0, 3))
                .build();
        String out = text(DumpFormat.ANDROID14, List.of(p));
        // uids are unsigned 32-bit (uint32 field): the 32 bits of -1 are uid 4294967295.
        assertTrue(out.startsWith("\nUID: 4294967295\nPackage: com.example.app\nVersion: -9223372036854775808"
                + "\nStats since: -5ns\nStats end: 9223372036854775807ns\nTotal frames rendered: 0"
                + "\nJanky frames: 3 (inf%)\n"), out);
    }

    @Test
    void shouldPrintThePackageNameAsStoredUpToTheFirstNul() throws IOException {
        byte[] name = {'a', 'p', 'p', (byte) 0xC3, (byte) 0xA9, 0, 'x'};
        GraphicsStatsProto p = goldenProto().toBuilder().setPackageNameBytes(ByteString.copyFrom(name)).build();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new TextDumpWriter(DumpFormat.ANDROID14).write(List.of(p), out);
        byte[] expectedLine = {'\n', 'P', 'a', 'c', 'k', 'a', 'g', 'e', ':', ' ', 'a', 'p', 'p', (byte) 0xC3, (byte) 0xA9,
            '\n', 'V'};
        assertTrue(indexOf(out.toByteArray(), expectedLine) >= 0);
    }

    @Test
    void shouldNeverPrintBufferMarks() {
        GraphicsStatsProto marked = goldenProto().toBuilder()
                .addGfxstatsBufferMarks(GfxstatsBufferMark.newBuilder().setBufferKey("secret-key-77").setPid(4242)
                        .addCounters(987654321L))
                .build();
        String out = text(DumpFormat.ANDROID14, List.of(marked));
        assertEquals(GOLDEN_ANDROID14, out);
        assertFalse(out.contains("secret-key-77"));
    }

    @Test
    void shouldStreamThousandsOfEntriesIdenticallyToSeparateWrites() throws IOException {
        List<GraphicsStatsProto> many = new ArrayList<>();
        StringBuilder expected = new StringBuilder();
        TextDumpWriter writer = new TextDumpWriter(DumpFormat.ANDROID11);
        for (int i = 0; i < 3000; i++) {
            GraphicsStatsProto p = goldenProto().toBuilder().setPackageName("pkg.n" + i).setVersionCode(i)
                    .setSummary(summary(1000 + i, i)).build();
            many.add(p);
            ByteArrayOutputStream one = new ByteArrayOutputStream();
            writer.write(DumpEntry.of(p).orElseThrow(), one);
            expected.append(one.toString(StandardCharsets.US_ASCII));
        }
        CountingStream out = new CountingStream();
        writer.write(many, out);
        assertEquals(expected.toString(), out.buffer.toString(StandardCharsets.US_ASCII));
        // Chunked: many bytes per write call, not one call per line or per entry.
        assertTrue(out.writes < 3000 / 10, "writes: " + out.writes);
        assertTrue(out.flushes >= 1);
    }

    @Test
    void shouldRejectANullFormat() {
        assertThrows(NullPointerException.class, () -> new TextDumpWriter(null));
    }

    @Test
    void shouldPrintWhateverBucketsAStoredEntryHas() {
        // The writer prints what the data says; it does not re-bucket (validation is the day-file codec's job).
        GraphicsStatsProto p = GraphicsStatsProto.newBuilder().setPackageName("odd").setSummary(summary(3, 0))
                .addHistogram(bucket(7, 1)).addHistogram(bucket(9, 2))
                .build();
        String out = text(DumpFormat.ANDROID9, List.of(p));
        assertTrue(out.endsWith("\nHISTOGRAM: 7ms=1 9ms=2\n"), out);
        assertTrue(out.contains("\n50th percentile: 9ms\n"), out);
        assertEquals(Histograms.CPU_BUCKETS, goldenProto().getHistogramCount());
    }

    private static int indexOf(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    private static final class CountingStream extends java.io.OutputStream {
        final ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        int writes;
        int flushes;

        @Override
        public void write(int b) {
            writes++;
            buffer.write(b);
        }

        @Override
        public void write(byte[] b, int off, int len) {
            writes++;
            buffer.write(b, off, len);
        }

        @Override
        public void flush() {
            flushes++;
        }
    }
}
