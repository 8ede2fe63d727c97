package io.gfxstats.buffer;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * docs/buffer-format.md, "Ring group (id 4, version 1)", against {@link RingGroup}: the ring
 * stripe's diagram and the checkpoint slot's table name the constants' offsets, the images have
 * the room of the stripes they copy, and a buffer with the group is laid out as the doc says.
 */
class RingGroupDocTest {
    private static final Path DOC = Path.of("docs", "buffer-format.md");

    private static String section() throws IOException {
        Path doc = DOC;
        for (int up = 0; up < 4 && !Files.exists(doc); up++) {
            doc = Path.of("..").resolve(doc);
        }
        String text = Files.readString(doc, StandardCharsets.UTF_8);
        int start = text.indexOf("### Ring group (id 4, version 1)");
        assertTrue(start >= 0, "the ring group section");
        int end = text.indexOf("\n### ", start + 1);
        return text.substring(start, end);
    }

    private static long number(String s) {
        return Long.parseLong(s.replace(",", "").strip());
    }

    @Test
    void shouldKeepTheCheckpointTableAndTheConstantsInStep() throws IOException {
        Map<String, Integer> expected = new LinkedHashMap<>();
        expected.put("n (equal to", RingGroup.CP_N);
        expected.put("rp: word index", RingGroup.CP_RP);
        expected.put("flags:", RingGroup.CP_FLAGS);
        expected.put("drops counted", RingGroup.CP_DROPS_COUNTED);
        expected.put("rules kind", RingGroup.CP_RULES_KIND);
        expected.put("deadlines already extended", RingGroup.CP_DEADLINES_EXTENDED);
        expected.put("refresh interval", RingGroup.CP_REFRESH);
        expected.put("the rules' default frame interval", RingGroup.CP_DEFAULT_INTERVAL);
        expected.put("dequeue forgiveness", RingGroup.CP_DEQUEUE_FORGIVENESS);
        expected.put("swap deadline", RingGroup.CP_SWAP_DEADLINE);
        expected.put("next frame start unstuffed", RingGroup.CP_NEXT_FRAME_START);
        expected.put("the tracker's interval", RingGroup.CP_TRACKER_INTERVAL);
        expected.put("Matrix mode", RingGroup.CP_MATRIX_MODE);
        expected.put("Matrix levels", RingGroup.CP_MATRIX_LEVELS);
        expected.put("configured refresh rate", RingGroup.CP_REFRESH_HZ);
        expected.put("own scene slot", RingGroup.CP_OWN_SLOT);
        expected.put("own previous scene slot", RingGroup.CP_OWN_PREVIOUS);
        expected.put("own scene since", RingGroup.CP_OWN_SINCE);
        expected.put("default scene slot", RingGroup.CP_DEFAULT_SLOT);
        expected.put("default previous scene slot", RingGroup.CP_DEFAULT_PREVIOUS);
        expected.put("default scene since", RingGroup.CP_DEFAULT_SINCE);
        expected.put("FrameTimeline: the oldest pending slot", RingGroup.CP_TL_NEXT);
        expected.put("FrameTimeline: frames awaiting", RingGroup.CP_TL_AWAITING);
        expected.put("FrameTimeline: previous predicted present", RingGroup.CP_TL_PREVIOUS_PREDICTED_PRESENT);
        expected.put("FrameTimeline: previous present", RingGroup.CP_TL_PREVIOUS_PRESENT);
        expected.put("FrameTimeline: join wait", RingGroup.CP_TL_JOIN_WAIT);
        expected.put("FrameTimeline: last presented", RingGroup.CP_TL_LAST_PRESENTED);
        expected.put("zero", RingGroup.CP_ZERO);
        expected.put("FrameTimeline pending table", RingGroup.CP_PENDING);
        expected.put("image of counter stripe", RingGroup.CP_COUNTER_IMAGE);
        expected.put("image of scene group", RingGroup.CP_SCENE_IMAGE);
        expected.put("image of FrameTimeline group", RingGroup.CP_TIMELINE_IMAGE);
        expected.put("image of client health group", RingGroup.CP_HEALTH_IMAGE);
        Matcher row = Pattern.compile("(?m)^\\| ([\\d,]+) \\| ([\\d,]+) \\| ([^|]+?) \\|$").matcher(section());
        int rows = 0;
        long end = 0;
        while (row.find()) {
            String field = row.group(3);
            long offset = number(row.group(1));
            assertEquals(end, offset, "the row '" + field + "' starts where the one before ended");
            end = offset + number(row.group(2));
            Integer constant = expected.entrySet().stream().filter(e -> field.startsWith(e.getKey()))
                    .map(Map.Entry::getValue).reduce((a, b) -> field.startsWith("own previous")
                            || field.startsWith("default previous") ? b : a).orElse(null);
            assertTrue(constant != null, "a row the class does not know: " + field);
            assertEquals(offset, (long) constant, field);
            rows++;
        }
        assertEquals(expected.size(), rows, "rows of the checkpoint table");
        assertEquals(RingGroup.SLOT_BYTES, end, "the slot's length");
        // The images hold exactly the stripes they copy.
        assertEquals(BufferDescriptor.stripeLength(BufferDescriptor.LAYOUT_VERSION_2), RingGroup.COUNTER_IMAGE_BYTES);
        assertEquals(CounterGroups.SCENES.stripeLength(), RingGroup.CP_TIMELINE_IMAGE - RingGroup.CP_SCENE_IMAGE);
        assertEquals(CounterGroups.FRAMETIMELINE.stripeLength(), RingGroup.CP_HEALTH_IMAGE - RingGroup.CP_TIMELINE_IMAGE);
        assertEquals(CounterGroups.CLIENT_HEALTH.stripeLength(), RingGroup.SLOT_BYTES - RingGroup.CP_HEALTH_IMAGE);
        assertEquals(RingGroup.PENDING_SLOTS * RingGroup.PENDING_BYTES, RingGroup.CP_COUNTER_IMAGE - RingGroup.CP_PENDING);
    }

    @Test
    void shouldKeepTheRingStripeDiagramAndTheConstantsInStep() throws IOException {
        String s = section();
        Map<String, Integer> lines = new LinkedHashMap<>();
        lines.put("u64 wp", RingGroup.WP);
        lines.put("u64 wlim", RingGroup.WLIM);
        lines.put("u64 dropped", RingGroup.DROPPED);
        lines.put("u64 rp", RingGroup.RP);
        lines.put("u32 closed", RingGroup.CLOSED);
        lines.put("u64 dropped_logged", RingGroup.DROPPED_LOGGED);
        lines.put("u64 base", RingGroup.BASE);
        lines.put("u32 words", RingGroup.WORDS_FIELD);
        lines.put("8192 words of 8 bytes", RingGroup.RING);
        lines.put("8193 kind bytes", RingGroup.KINDS);
        lines.put("u64 committed", RingGroup.COMMITTED);
        lines.put("checkpoint slot 0", RingGroup.SLOTS);
        lines.put("checkpoint slot 1", RingGroup.SLOTS + RingGroup.SLOT_BYTES);
        for (Map.Entry<String, Integer> e : lines.entrySet()) {
            Matcher m = Pattern.compile("\\|\\s+([\\d,]+)\\s+" + Pattern.quote(e.getKey())).matcher(s);
            assertTrue(m.find(), "the diagram's line of " + e.getKey());
            assertEquals((long) e.getValue(), number(m.group(1)), e.getKey());
        }
        assertTrue(s.contains("R = 87,424 bytes"), "the stripe length");
        assertEquals(87_424, RingGroup.STRIPE_BYTES);
        assertEquals(RingGroup.STRIPE_BYTES, RingGroup.SLOTS + 2 * RingGroup.SLOT_BYTES);
        assertEquals(8192, RingGroup.WORDS);
        assertTrue(RingGroup.KINDS + RingGroup.WORDS + 1 <= RingGroup.COMMITTED);
    }

    private static BufferSpec.Builder spec(String id) throws IOException {
        return BufferSpec.builder().pid(ProcessHandle.current().pid()).uid(TestBuffers.uid())
                .packageName("com.example.app").versionCode(1).registrationId(id).statsStartMillis(TestBuffers.START)
                .stripeCount(16);
    }

    @Test
    void shouldPutTheRingGroupLastInABufferOfAClientThatAskedForIt(@TempDir Path tmp) throws Exception {
        BufferSpec with = spec("reg-rings").rings(true).build();
        BufferSpec without = spec("reg-plain").build();
        assertEquals(without.totalLength() + 16 * 87_424L, with.totalLength(),
                "16 ring stripes (the fourth directory entry fits the directory's 64 bytes)");
        Path file = tmp.resolve("rings.gfxbuf");
        BufferFiles.create(file, with, BufferFiles.OWNER_READ_WRITE);
        try (BufferReader r = BufferReader.open(file, TestBuffers.uid())) {
            assertTrue(r.hasRings());
            assertEquals(with.totalLength(), r.length());
        }
        // A Java client counts into it as into any buffer; the readers sum no ring byte.
        try (BufferWriter w = BufferWriter.open(file)) {
            StripeWriter s = w.claimStripe();
            s.increment(0);
            s.release();
            assertEquals(1, w.snapshot().vector()[0]);
        }
        try (BufferReader r = BufferReader.open(file, TestBuffers.uid())) {
            assertEquals(1, r.snapshot().vector()[0]);
        }
    }

    @Test
    void shouldRefuseARingGroupOfAnotherLength(@TempDir Path tmp) throws Exception {
        Path file = tmp.resolve("short-rings.gfxbuf");
        BufferFiles.create(file, spec("reg-short").rings(true).build(), BufferFiles.OWNER_READ_WRITE);
        try (java.nio.channels.FileChannel c = java.nio.channels.FileChannel.open(file,
                java.nio.file.StandardOpenOption.READ, java.nio.file.StandardOpenOption.WRITE)) {
            java.nio.ByteBuffer h = java.nio.ByteBuffer.allocate(8).order(java.nio.ByteOrder.LITTLE_ENDIAN);
            c.read(h, BufferDescriptor.GROUP_DIRECTORY_OFFSET_OFFSET);
            int directory = h.getInt(0);
            int count = h.getInt(4);
            assertEquals(4, count, "three counter groups and the rings");
            // The ring group's entry (the last) claims one stripe less; the total length still adds up.
            java.nio.ByteBuffer len = java.nio.ByteBuffer.allocate(4).order(java.nio.ByteOrder.LITTLE_ENDIAN)
                    .putInt(0, 15 * RingGroup.STRIPE_BYTES);
            c.write(len, directory + 3L * BufferDescriptor.GROUP_ENTRY_LENGTH + BufferDescriptor.GROUP_ENTRY_LENGTH_FIELD);
            java.nio.ByteBuffer total = java.nio.ByteBuffer.allocate(8).order(java.nio.ByteOrder.LITTLE_ENDIAN)
                    .putLong(0, c.size() - RingGroup.STRIPE_BYTES);
            c.write(total, BufferDescriptor.TOTAL_LENGTH_OFFSET);
            c.truncate(c.size() - RingGroup.STRIPE_BYTES);
        }
        BufferFormatException e = org.junit.jupiter.api.Assertions.assertThrows(BufferFormatException.class,
                () -> BufferReader.open(file, TestBuffers.uid()));
        assertTrue(e.getMessage().contains("ring group length"), e.getMessage());
    }
}
