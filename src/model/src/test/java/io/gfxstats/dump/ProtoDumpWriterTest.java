package io.gfxstats.dump;

import static io.gfxstats.dump.TestProtos.bytes;
import static io.gfxstats.dump.TestProtos.summary;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.UnknownFieldSet;
import io.gfxstats.proto.GfxstatsBufferMark;
import io.gfxstats.proto.GraphicsStatsHistogramBucketProto;
import io.gfxstats.proto.GraphicsStatsProto;
import io.gfxstats.proto.GraphicsStatsServiceDumpProto;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ProtoDumpWriterTest {
    private static final ProtoDumpWriter WRITER = new ProtoDumpWriter();

    private static GraphicsStatsProto marked(GraphicsStatsProto p, String key) {
        return p.toBuilder()
                .addGfxstatsBufferMarks(GfxstatsBufferMark.newBuilder().setBufferKey(key).setPid(31337)
                        .addCounters(123456789L).addCounters(42L).setHarvestedAt(1700000000123L))
                .build();
    }

    @Test
    void shouldRoundTripDumpableEntriesInOrder() throws InvalidProtocolBufferException {
        GraphicsStatsProto a = TextDumpWriterTest.goldenProto();
        GraphicsStatsProto b = a.toBuilder().setPackageName("org.second").setVersionCode(7).setUid(10999).build();
        GraphicsStatsServiceDumpProto dump = GraphicsStatsServiceDumpProto.parseFrom(bytes(WRITER, List.of(a, b)));
        assertEquals(List.of(a, b), dump.getStatsList());
        assertEquals(154, dump.getStats(0).getHistogramCount());
        assertEquals(26, dump.getStats(1).getGpuHistogramCount());
    }

    @Test
    void shouldWriteExactlyTheBytesOfTheWrapperMessage() {
        List<GraphicsStatsProto> entries = new ArrayList<>();
        for (int i = 0; i < 2000; i++) {
            entries.add(TextDumpWriterTest.goldenProto().toBuilder().setPackageName("p" + i)
                    .setSummary(summary(i * 3, i)).build());
        }
        byte[] expected = GraphicsStatsServiceDumpProto.newBuilder().addAllStats(entries).build().toByteArray();
        assertArrayEquals(expected, bytes(WRITER, entries));
    }

    @Test
    void shouldSkipEntriesWithoutPackageNameOrSummary() throws InvalidProtocolBufferException {
        GraphicsStatsProto good = TextDumpWriterTest.goldenProto();
        GraphicsStatsProto noName = good.toBuilder().clearPackageName().build();
        GraphicsStatsProto emptyName = good.toBuilder().setPackageName("").build();
        GraphicsStatsProto noSummary = good.toBuilder().clearSummary().build();
        GraphicsStatsServiceDumpProto dump = GraphicsStatsServiceDumpProto.parseFrom(
                bytes(WRITER, List.of(noName, good, emptyName, noSummary)));
        assertEquals(List.of(good), dump.getStatsList());
        // An all-zero summary is still a summary: dumped.
        GraphicsStatsProto zero = good.toBuilder().setSummary(summary(0, 0)).build();
        assertEquals(1, GraphicsStatsServiceDumpProto.parseFrom(bytes(WRITER, List.of(zero))).getStatsCount());
    }

    @Test
    void shouldWriteNothingForAnEmptyDump() {
        assertEquals(0, bytes(WRITER, List.of()).length);
        assertEquals(0, bytes(WRITER, List.of(GraphicsStatsProto.getDefaultInstance())).length);
    }

    @Test
    void shouldKeepRingDropsOnlyWhenAskedAndNeverInAndroidsBytes() throws InvalidProtocolBufferException {
        GraphicsStatsProto a = TextDumpWriterTest.goldenProto();
        GraphicsStatsProto lost = marked(a, "k").toBuilder().setGfxstatsRingDroppedFrames(37).build();
        assertArrayEquals(bytes(WRITER, List.of(a)), bytes(WRITER, List.of(lost)), "Android's bytes");
        assertArrayEquals(bytes(WRITER, List.of(a)), bytes(ProtoDumpWriter.keepingFrameTimeline(), List.of(lost)));
        GraphicsStatsProto kept = GraphicsStatsServiceDumpProto.parseFrom(
                bytes(ProtoDumpWriter.keeping(false, true), List.of(lost))).getStats(0);
        assertEquals(a.toBuilder().setGfxstatsRingDroppedFrames(37).build(), kept, "only the drops kept, not the marks");
    }

    @Test
    void shouldStripBufferMarksFromEveryEntry() throws InvalidProtocolBufferException {
        GraphicsStatsProto a = TextDumpWriterTest.goldenProto();
        GraphicsStatsProto b = a.toBuilder().setPackageName("org.second").build();
        byte[] out = bytes(WRITER, List.of(marked(a, "mark-key-A"), marked(b, "mark-key-B")));

        // Descriptor-less view: nothing numbered >= 1000 anywhere in the entries or their messages.
        UnknownFieldSet wrapper = UnknownFieldSet.parseFrom(out);
        assertEquals(List.of(1), List.copyOf(wrapper.asMap().keySet()));
        List<ByteString> entries = wrapper.getField(1).getLengthDelimitedList();
        assertEquals(2, entries.size());
        for (ByteString entry : entries) {
            UnknownFieldSet fields = UnknownFieldSet.parseFrom(entry);
            assertNoPrivateField(fields);
            for (int nested : new int[] {5, 6, 7}) {
                for (ByteString m : fields.getField(nested).getLengthDelimitedList()) {
                    assertNoPrivateField(UnknownFieldSet.parseFrom(m));
                }
            }
        }
        // Byte view: neither the tag of field 1000 (wire type 2: varint 8002 = C2 3E) nor the mark's content.
        assertFalse(contains(out, new byte[] {(byte) 0xC2, 0x3E}));
        assertFalse(contains(out, "mark-key".getBytes(StandardCharsets.US_ASCII)));
        // And the entries are otherwise intact.
        assertEquals(List.of(a, b), GraphicsStatsServiceDumpProto.parseFrom(out).getStatsList());
        // The marks were there to strip: the day-file form of the entry carries them.
        assertTrue(contains(marked(a, "mark-key-A").toByteArray(), new byte[] {(byte) 0xC2, 0x3E}));
    }

    @Test
    void shouldStripUnknownPrivateFieldsAtAnyDepthAndKeepUnknownPublicOnes() throws InvalidProtocolBufferException {
        // As read from a file written by a newer gfxstats (private fields 1001, 1500, 2000) or a newer
        // Android (public field 10, 3 in the summary).
        GraphicsStatsProto golden = TextDumpWriterTest.goldenProto();
        UnknownFieldSet privateTop = UnknownFieldSet.newBuilder()
                .addField(1001, UnknownFieldSet.Field.newBuilder().addVarint(99).build())
                .addField(10, UnknownFieldSet.Field.newBuilder().addVarint(5).build())
                .build();
        UnknownFieldSet privateNested = UnknownFieldSet.newBuilder()
                .addField(1500, UnknownFieldSet.Field.newBuilder().addLengthDelimited(ByteString.copyFromUtf8("zz")).build())
                .build();
        GraphicsStatsHistogramBucketProto oddBucket = golden.getHistogram(3).toBuilder()
                .setUnknownFields(UnknownFieldSet.newBuilder()
                        .addField(2000, UnknownFieldSet.Field.newBuilder().addFixed32(1).build()).build())
                .build();
        GraphicsStatsProto input = golden.toBuilder()
                .setUnknownFields(privateTop)
                .setSummary(golden.getSummary().toBuilder().setUnknownFields(privateNested))
                .setHistogram(3, oddBucket)
                .build();

        // The descriptor-driven walk and the generated-accessor fast path agree.
        assertTrue(PrivateFields.usesKnownShape());
        assertEquals(PrivateFields.stripMessage(input), PrivateFields.strip(input));
        GraphicsStatsProto out = GraphicsStatsServiceDumpProto.parseFrom(bytes(WRITER, List.of(input))).getStats(0);
        assertEquals(List.of(10), List.copyOf(out.getUnknownFields().asMap().keySet()));
        assertTrue(out.getSummary().getUnknownFields().asMap().isEmpty());
        assertTrue(out.getHistogram(3).getUnknownFields().asMap().isEmpty());
        assertEquals(golden.toBuilder().setUnknownFields(UnknownFieldSet.newBuilder()
                .addField(10, UnknownFieldSet.Field.newBuilder().addVarint(5).build()).build()).build(), out);
    }

    @Test
    void shouldReturnAnEntryWithoutPrivateFieldsUnchanged() {
        GraphicsStatsProto clean = TextDumpWriterTest.goldenProto();
        assertSame(clean, PrivateFields.strip(clean));
        assertSame(clean, PrivateFields.stripMessage(clean));
        assertEquals(clean, PrivateFields.strip(marked(clean, "k")));
        assertEquals(clean, PrivateFields.stripMessage(marked(clean, "k")));
    }

    private static void assertNoPrivateField(UnknownFieldSet fields) {
        for (int number : fields.asMap().keySet()) {
            assertTrue(number < PrivateFields.FIRST_PRIVATE_FIELD, "private field " + number + " in dump");
        }
    }

    private static boolean contains(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }
}
