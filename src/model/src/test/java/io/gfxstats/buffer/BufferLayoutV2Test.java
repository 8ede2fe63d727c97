package io.gfxstats.buffer;

import io.gfxstats.buffer.BufferFormatException.Reason;
import io.gfxstats.stats.Counters;
import io.gfxstats.stats.JankType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.List;

import static io.gfxstats.buffer.BufferDescriptor.*;
import static org.junit.jupiter.api.Assertions.*;

class BufferLayoutV2Test {
    @TempDir
    Path dir;

    private static final CounterGroup FOREIGN = new CounterGroup(99, 3, "future", 100, 5, 2);

    @Test
    void shouldKeepTheDocumentedVersion2OffsetsAndLengths() {
        assertEquals(536, GROUP_DIRECTORY_OFFSET_OFFSET);
        assertEquals(540, GROUP_COUNT_OFFSET);
        assertEquals(544, claimsOffset(LAYOUT_VERSION_2));
        assertEquals(640, headerLength(LAYOUT_VERSION_2, 16));
        assertEquals(640 + 17 * 768, groupDirectoryOffset(16));
        CounterGroup scenes = CounterGroups.SCENES;
        assertEquals(2048, scenes.alignedPrefix());
        assertEquals(1024, scenes.wideOffset(), "16 slots of 16 u32: each slot's counters one cache line");
        assertEquals(3328, scenes.stripeLength());
        assertEquals(2048 + 17 * 3328, scenes.length(16));
        assertEquals(2, scenes.version());
        assertEquals(3008, SceneGroup.VERSION_1.stripeLength(), "version 1, still read");
        assertEquals(scenes.elements(), SceneGroup.VERSION_1.elements(), "both versions fill the same vector entries");
        assertEquals(256, CounterGroups.FRAMETIMELINE.stripeLength());
        assertEquals(64, CounterGroups.CLIENT_HEALTH.stripeLength());
        assertEquals(13_696 + 64 + 58_624 + 17 * 256 + 17 * 64, totalLength(16, CounterGroups.KNOWN),
                "docs/buffer-format.md: 77,824 bytes");
        assertEquals(21, SceneGroup.COUNTERS);
        assertEquals(13, SceneGroup.SUMS);
        assertEquals(16, SceneGroup.U32_PER_SLOT);
        assertEquals(18, SceneGroup.U64_PER_SLOT);
        assertEquals(Counters.JANK_TYPE_BASE + JankType.COUNT, SceneGroup.MIRRORED);
        for (int stripes : new int[] {1, 7, 16, MAX_STRIPES}) {
            assertEquals(0, groupDirectoryOffset(stripes) % 64);
            assertEquals(0, scenes.length(stripes) % 64, "group areas stay on cache lines");
        }
        assertEquals(Counters.COUNT + SceneGroup.SLOTS * (21 + 13) + io.gfxstats.timeline.TimelineCounter.COUNT + 1,
                CounterGroups.VECTOR_LENGTH);
        assertEquals(CounterGroups.VECTOR_LENGTH - 1, ClientHealthGroup.vectorIndex(ClientHealthGroup.RING_DROPPED));
    }

    @Test
    void shouldDocumentTheVersion2FiguresTheCodeUses() throws IOException {
        String doc = java.nio.file.Files.readString(Path.of("docs/buffer-format.md"));
        java.text.NumberFormat n = java.text.NumberFormat.getIntegerInstance(java.util.Locale.US);
        for (String fact : List.of(
                "**" + n.format(totalLength(16, CounterGroups.KNOWN)) + " bytes**",
                "17 scene\nstripes of " + n.format(CounterGroups.SCENES.stripeLength()),
                "slot table " + n.format(CounterGroups.SCENES.alignedPrefix()),
                "| " + claimsOffset(LAYOUT_VERSION_2) + " | 4 N | claim words",
                "`align64(" + claimsOffset(LAYOUT_VERSION_2) + " + 4 N)` (" + headerLength(LAYOUT_VERSION_2, 16),
                "### Scene group (id " + SceneGroup.ID + ", version " + SceneGroup.VERSION + ")",
                SceneGroup.U32_PER_SLOT + " u32 each (" + n.format(CounterGroups.SCENES.wideOffset()) + " bytes)",
                SceneGroup.U64_PER_SLOT + " u64 each (" + n.format(SceneGroup.SLOTS * SceneGroup.U64_PER_SLOT * 8)
                        + " bytes)",
                "version 1 stripe (" + n.format(SceneGroup.VERSION_1.stripeLength()) + " bytes)",
                "Per buffer " + SceneGroup.SLOTS + " scene slots",
                "17 FrameTimeline stripes of " + CounterGroups.FRAMETIMELINE.stripeLength(),
                "17 client health stripes of " + CounterGroups.CLIENT_HEALTH.stripeLength(),
                "### Client health group (id " + ClientHealthGroup.ID + ", version " + ClientHealthGroup.VERSION + ")",
                io.gfxstats.timeline.TimelineCounter.COUNT + " u32 counters (")) {
            String f = fact.replace("\\n", "\n");
            assertTrue(doc.replace("\n", " ").contains(f.replace("\n", " ")), "docs/buffer-format.md lacks: " + f);
        }
    }

    @Test
    void shouldCountPerSceneOnOwnAndSharedStripesAndReadNamesAndSums() throws IOException {
        Path file = TestBuffers.create(dir, "b", 1);
        try (BufferWriter w = BufferWriter.open(file);
             BufferReader r = BufferReader.open(file, TestBuffers.uid())) {
            assertTrue(w.hasScenes());
            assertTrue(w.nameScene(0, SceneGroup.OTHER));
            assertTrue(w.nameScene(3, "menu ü"));
            StripeWriter own = w.claimStripe();
            StripeWriter shared = w.claimStripe();
            assertFalse(own.isShared());
            assertTrue(shared.isShared());
            for (StripeWriter s : List.of(own, shared)) {
                s.selectScene(3);
                s.increment(Counters.TOTAL_FRAMES);
                s.increment(Counters.JANKY_FRAMES);
                s.increment(Counters.cpuBucket(5));
                s.addScene(SceneGroup.LEVEL_COUNT_BASE + 2, 1);
                s.addSceneSum(SceneGroup.WIDE_LEVEL_SUM_BASE + 2, 11);
                s.addSceneSum(SceneGroup.COST_NANOS, 5_000_000_000L);
                s.selectScene(-1);
                s.increment(Counters.TOTAL_FRAMES);
            }
            BufferSnapshot snap = r.snapshot();
            assertEquals(LAYOUT_VERSION_2, snap.layoutVersion());
            assertTrue(snap.hasScenes());
            assertEquals("menu ü", snap.sceneName(3));
            assertEquals(SceneGroup.OTHER, snap.sceneName(0));
            assertEquals("", snap.sceneName(4));
            assertEquals(4, snap.totalFrames());
            assertEquals(Counters.COUNT, snap.counters().length, "counters() stays the Android vector");
            assertEquals(2, snap.element(SceneGroup.vectorCounter(3, Counters.TOTAL_FRAMES)));
            assertEquals(2, snap.element(SceneGroup.vectorCounter(3, Counters.JANKY_FRAMES)));
            assertEquals(2, snap.element(SceneGroup.vectorCounter(3, SceneGroup.LEVEL_COUNT_BASE + 2)));
            assertEquals(22, snap.element(SceneGroup.vectorCounter(3, SceneGroup.LEVEL_SUM_BASE + 2)));
            assertEquals(10_000_000_000L, snap.element(SceneGroup.vectorSum(3, SceneGroup.COST_NANOS)),
                    "64-bit sums read whole");
            assertEquals(0, snap.element(SceneGroup.vectorCounter(4, Counters.TOTAL_FRAMES)));
            assertEquals(1, shared.contributionOf(SceneGroup.vectorCounter(3, Counters.TOTAL_FRAMES)),
                    "a shared writer keeps its own part of the group too");
            assertEquals(5_000_000_000L, shared.contributionOf(SceneGroup.vectorSum(3, SceneGroup.COST_NANOS)));
            assertArrayEquals(snap.vector(), w.snapshot().vector(), "the writer's snapshot reads the same");
            own.release();
            shared.release();
        }
    }

    @Test
    void shouldKeepALevelSumPast2To32Exactly() throws IOException {
        // A frame across a suspend drops millions of frames; version 1's u32 level sums wrapped.
        Path file = TestBuffers.create(dir, "wide", 1);
        int frozen = 4;
        long perFrame = Integer.MAX_VALUE; // the largest whole dropped count of one frame (Matrix's int)
        try (BufferWriter w = BufferWriter.open(file); BufferReader r = BufferReader.open(file, TestBuffers.uid())) {
            w.nameScene(3, "suspended");
            StripeWriter own = w.claimStripe();
            StripeWriter shared = w.claimStripe();
            assertTrue(shared.isShared());
            for (StripeWriter s : List.of(own, shared)) {
                s.selectScene(3);
                for (int i = 0; i < 3; i++) {
                    s.countMatrix(frozen, (int) perFrame, 1, 1, 1, 1);
                }
                s.countMatrix(frozen, 7, 1, 1, 1, 1);
            }
            long each = 3 * perFrame + 7;
            assertTrue(each > 1L << 32);
            BufferSnapshot snap = r.snapshot();
            int levelSum = SceneGroup.vectorCounter(3, SceneGroup.LEVEL_SUM_BASE + frozen);
            assertEquals(2 * each, snap.element(levelSum), "the reader sums 64-bit level sums");
            assertEquals(4 * 2, snap.element(SceneGroup.vectorCounter(3, SceneGroup.LEVEL_COUNT_BASE + frozen)));
            assertEquals(each, own.contributionOf(levelSum));
            assertEquals(each, shared.contributionOf(levelSum), "and the shared writer's record of its own adds");
            own.addElement(levelSum, -each);
            assertEquals(each, r.snapshot().element(levelSum), "a handover moves the whole sum");
            own.release();
            shared.release();
        }
    }

    @Test
    void shouldTakeASceneSlotsTotalFromTheSecondCopySoThatNoLevelCountExceedsIt() throws IOException {
        // A snapshot reads the file twice. In one copy a slot's total lies before its Matrix level
        // counts, so a frame counted while the copy was read can show in its level and not in its
        // total (gfxstats top once showed 61 frames with 62 levels). The writer counts the total
        // first: taken from the second copy, it covers every level of the first.
        Path file = TestBuffers.create(dir, "torn", 1);
        int slot = 3;
        int level = 2;
        try (BufferWriter w = BufferWriter.open(file);
             FileChannel channel = BufferHeader.openChannel(file, false, null, -1)) {
            StripeWriter own = claimInScene(w, slot, "menu");
            frame(own, level);
            BufferHeader header = BufferHeader.read(file, channel);
            int length = header.countedLength();
            ByteBuffer before = BufferHeader.readFully(channel, 0, length);
            frame(own, level);
            ByteBuffer after = BufferHeader.readFully(channel, 0, length);
            // The first copy as a read that passed the slot's total before the second frame was
            // counted and its level after: the total of before, everything else of after.
            int scenes = CounterGroups.KNOWN.indexOf(CounterGroups.SCENES);
            int total = (int) header.groupStripeOffset(scenes, 1)
                    + SceneGroup.GROUP.elementOffset(SceneGroup.counter(slot, Counters.TOTAL_FRAMES));
            ByteBuffer first = ByteBuffer.allocate(length).put(after.duplicate());
            first.order(ByteOrder.LITTLE_ENDIAN).putInt(total, before.order(ByteOrder.LITTLE_ENDIAN).getInt(total));
            first.flip();
            // As from a writer counting flat out: the changed stripe never reads the same twice,
            // so it is taken element by element.
            int[] reads = {0};
            long[] sums = header.sumStripes(first, after, (offset, len) -> {
                if (len == Long.BYTES) {
                    throw new AssertionError("no 64-bit sum differs between the copies");
                }
                ByteBuffer changing = ByteBuffer.allocate(len).order(ByteOrder.LITTLE_ENDIAN);
                changing.putInt(0, ++reads[0]);
                return changing;
            });
            assertTrue(reads[0] > 1, "the changed stripe was read again");
            int levels = SceneGroup.vectorCounter(slot, SceneGroup.LEVEL_COUNT_BASE + level);
            assertEquals(2, sums[levels]);
            assertEquals(2, sums[SceneGroup.vectorCounter(slot, Counters.TOTAL_FRAMES)],
                    "the slot's total is the second copy's");
            own.release();
        }
    }

    @Test
    void shouldTakeAGroupStripeThatChangedBetweenTheCopiesWholeFromOneLaterRead() throws IOException {
        // A frame counted between the two copies: the slot's Matrix frames from the first copy and
        // its refresh sum from a later read made a live slice's refresh rate (Σ refresh / frames)
        // 59 for 60 Hz frames. Read again whole, both cover the same frames.
        Path file = TestBuffers.create(dir, "changed", 1);
        int slot = 2;
        try (BufferWriter w = BufferWriter.open(file);
             FileChannel channel = BufferHeader.openChannel(file, false, null, -1)) {
            StripeWriter own = claimInScene(w, slot, "list");
            for (int i = 0; i < 3; i++) {
                sixtyHertzFrame(own);
            }
            BufferHeader header = BufferHeader.read(file, channel);
            int length = header.countedLength();
            ByteBuffer first = BufferHeader.readFully(channel, 0, length);
            sixtyHertzFrame(own);
            ByteBuffer second = BufferHeader.readFully(channel, 0, length);
            int[] reads = {0};
            long[] sums = header.sumStripes(first, second, (offset, len) -> {
                reads[0]++;
                return BufferHeader.readFully(channel, offset, len).order(ByteOrder.LITTLE_ENDIAN);
            });
            assertEquals(4, sums[SceneGroup.vectorCounter(slot, SceneGroup.MATRIX_FRAMES)]);
            assertEquals(4 * 60_000, sums[SceneGroup.vectorSum(slot, SceneGroup.REFRESH_MILLIHZ)]);
            assertEquals(4, sums[SceneGroup.vectorCounter(slot, Counters.TOTAL_FRAMES)]);
            assertEquals(2, reads[0], "one stripe changed, read twice");

            // Unchanged between the copies: nothing is read again.
            ByteBuffer third = BufferHeader.readFully(channel, 0, length);
            long[] still = header.sumStripes(third, BufferHeader.readFully(channel, 0, length), (offset, len) -> {
                throw new AssertionError("nothing changed between the copies");
            });
            assertEquals(4 * 60_000, still[SceneGroup.vectorSum(slot, SceneGroup.REFRESH_MILLIHZ)]);
            own.release();
        }
    }

    /** A stripe of {@code w} with scene {@code slot}, named {@code name}, selected. */
    private static StripeWriter claimInScene(BufferWriter w, int slot, String name) {
        w.nameScene(slot, name);
        StripeWriter own = w.claimStripe();
        own.selectScene(slot);
        return own;
    }

    /** A frame of a 60 Hz display, on time, in the selected scene. */
    private static void sixtyHertzFrame(StripeWriter s) {
        s.increment(Counters.TOTAL_FRAMES);
        s.countMatrix(0, 0, 16_666_667, 0, 60_000, 9_000_000);
    }

    /** One frame in the selected scene: its total (mirrored into the scene), then its Matrix level. */
    private static void frame(StripeWriter s, int level) {
        s.increment(Counters.TOTAL_FRAMES);
        s.countMatrix(level, 1, 1, 1, 1, 1);
    }

    @Test
    void shouldReadAVersion1SceneGroupButNotWriteIt() throws IOException {
        // A buffer a daemon of the previous release made, still alive during an upgrade.
        Path file = dir.resolve("v1");
        BufferFiles.create(file, BufferSpec.builder().pid(ProcessHandle.current().pid()).uid(TestBuffers.uid())
                .packageName("p").registrationId("r1").stripeCount(2)
                .groups(List.of(SceneGroup.VERSION_1, CounterGroups.FRAMETIMELINE)).build(), BufferFiles.OWNER_READ_WRITE);
        long area = groupDirectoryOffset(2) + 64;
        long slot = area + 3 * SceneGroup.SLOT_ENTRY_BYTES;
        TestBuffers.putInt(file, slot + SceneGroup.SLOT_NAME_LENGTH, 4);
        TestBuffers.putInt(file, slot + SceneGroup.SLOT_NAME, 0x756e656d); // "menu"
        TestBuffers.putInt(file, slot + SceneGroup.SLOT_STATE, SceneGroup.SLOT_NAMED);
        for (int stripe = 0; stripe <= 2; stripe++) {
            long base = area + SceneGroup.SLOTS * SceneGroup.SLOT_ENTRY_BYTES + stripe * 3008L;
            TestBuffers.putInt(file, base + (3 * 21 + Counters.TOTAL_FRAMES) * 4L, 10 + stripe);
            TestBuffers.putInt(file, base + (3 * 21 + SceneGroup.LEVEL_SUM_BASE + 4) * 4L, -1); // 2^32 - 1
            TestBuffers.putLong(file, base + 1344 + (3 * 13 + SceneGroup.COST_NANOS) * 8L, 1L << 40);
            TestBuffers.putLong(file, base + 1344 + (3 * 13 + SceneGroup.STAGE_BASE + 9) * 8L, 5);
        }
        try (BufferWriter w = BufferWriter.open(file); BufferReader r = BufferReader.open(file, TestBuffers.uid())) {
            BufferSnapshot before = r.snapshot();
            assertTrue(before.hasScenes());
            assertEquals("menu", before.sceneName(3));
            assertEquals(33, before.element(SceneGroup.vectorCounter(3, Counters.TOTAL_FRAMES)));
            assertEquals(3 * 0xFFFF_FFFFL, before.element(SceneGroup.vectorCounter(3, SceneGroup.LEVEL_SUM_BASE + 4)));
            assertEquals(3L << 40, before.element(SceneGroup.vectorSum(3, SceneGroup.COST_NANOS)));
            assertEquals(15, before.element(SceneGroup.vectorSum(3, SceneGroup.STAGE_BASE + 9)));

            assertFalse(w.hasScenes(), "only the version this release writes is written");
            assertFalse(w.nameScene(4, "new"));
            StripeWriter s = w.claimStripe();
            assertFalse(s.hasScenes());
            s.selectScene(3);
            s.increment(Counters.TOTAL_FRAMES);
            s.countMatrix(4, 100, 1, 1, 1, 1);
            BufferSnapshot after = r.snapshot();
            assertEquals(1, after.totalFrames());
            long[] a = before.vector();
            long[] b = after.vector();
            for (int e = Counters.COUNT; e < CounterGroups.VECTOR_LENGTH; e++) {
                assertEquals(a[e], b[e], "vector entry " + e);
            }
            s.release();
        }
    }

    @Test
    void shouldRefuseToRenameASceneSlot() throws IOException {
        Path file = TestBuffers.create(dir, "b", 1);
        try (BufferWriter w = BufferWriter.open(file)) {
            w.nameScene(2, "a");
            assertTrue(w.nameScene(2, "a"));
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> w.nameScene(2, "b"));
            assertTrue(e.getMessage().startsWith("scene slot 2 of ") && e.getMessage().endsWith(" is already named 'a', not 'b'"),
                    e.getMessage());
            assertThrows(IllegalArgumentException.class, () -> w.nameScene(5, "bad\nname"));
            assertThrows(IllegalArgumentException.class, () -> w.nameScene(5, "x".repeat(121)));
        }
    }

    @Test
    void shouldReadVersion1FilesWithZeroGroupsAndRefuseToWriteThem() throws IOException {
        Path file = dir.resolve("v1");
        BufferSpec spec = BufferSpec.builder().pid(ProcessHandle.current().pid()).uid(TestBuffers.uid())
                .packageName("p").registrationId("r1").stripeCount(4).layoutVersion1().build();
        BufferFiles.create(file, spec, BufferFiles.OWNER_READ_WRITE);
        assertEquals(totalLength(LAYOUT_VERSION_1, 4), java.nio.file.Files.size(file));
        TestBuffers.putInt(file, stripeOffset(LAYOUT_VERSION_1, 4, 2), 7);
        try (BufferReader r = BufferReader.open(file, TestBuffers.uid())) {
            BufferSnapshot snap = r.snapshot();
            assertEquals(LAYOUT_VERSION_1, snap.layoutVersion());
            assertEquals(7, snap.totalFrames());
            assertFalse(snap.hasScenes());
            assertEquals(CounterGroups.VECTOR_LENGTH, snap.vector().length);
            assertEquals(7, java.util.Arrays.stream(snap.vector()).sum(), "group elements of a v1 file are zero");
        }
        BufferFormatException e = assertThrows(BufferFormatException.class, () -> BufferWriter.open(file));
        assertEquals(Reason.UNSUPPORTED_VERSION, e.reason());
    }

    @Test
    void shouldReadRingDropsFromOwnAndSharedStripesAndZeroFromABufferWithoutTheHealthGroup() throws IOException {
        int dropped = ClientHealthGroup.vectorIndex(ClientHealthGroup.RING_DROPPED);
        Path file = TestBuffers.create(dir, "health", 1);
        try (BufferWriter w = BufferWriter.open(file); BufferReader r = BufferReader.open(file, TestBuffers.uid())) {
            StripeWriter own = w.claimStripe();
            StripeWriter shared = w.claimStripe();
            assertTrue(shared.isShared());
            own.addElement(dropped, 5);
            shared.addElement(dropped, 3);
            shared.addElement(dropped, 4);
            BufferSnapshot snap = r.snapshot();
            assertEquals(12, ClientHealthGroup.ringDropped(snap.vector()));
            assertEquals(12, snap.element(dropped));
            assertEquals(5, own.contributionOf(dropped));
            assertEquals(7, shared.contributionOf(dropped), "a shared writer knows its own adds, for handover");
            assertEquals(0, snap.totalFrames(), "drops are not frames");
            own.release();
            shared.release();
        }
        // A buffer of the previous release (scenes and FrameTimeline only): drops read as zero and
        // a writer's adds go nowhere rather than into another group.
        Path older = dir.resolve("older");
        BufferFiles.create(older, BufferSpec.builder().pid(ProcessHandle.current().pid()).uid(TestBuffers.uid())
                .packageName("p").registrationId("r3").stripeCount(2)
                .groups(List.of(CounterGroups.SCENES, CounterGroups.FRAMETIMELINE)).build(), BufferFiles.OWNER_READ_WRITE);
        try (BufferWriter w = BufferWriter.open(older); BufferReader r = BufferReader.open(older, TestBuffers.uid())) {
            StripeWriter s = w.claimStripe();
            s.addElement(dropped, 9);
            s.addElement(FrameTimelineGroup.vectorIndex(0), 2);
            BufferSnapshot snap = r.snapshot();
            assertEquals(0, ClientHealthGroup.ringDropped(snap.vector()));
            assertEquals(2, snap.element(FrameTimelineGroup.vectorIndex(0)));
            assertEquals(0, s.contributionOf(dropped));
            s.release();
        }
        assertTrue(CounterGroups.isVectorPrefix(ClientHealthGroup.vectorIndex(0)), "a mark of the previous release is read");
        assertTrue(CounterGroups.isVectorPrefix(Counters.COUNT));
        assertFalse(CounterGroups.isVectorPrefix(Counters.COUNT + 1));
    }

    @Test
    void shouldSkipGroupsOfUnknownIdOrVersion() throws IOException {
        Path file = dir.resolve("foreign");
        CounterGroup oldScenes = new CounterGroup(SceneGroup.ID, 7, "scenes v7", 0, 3, 0);
        BufferSpec spec = BufferSpec.builder().pid(ProcessHandle.current().pid()).uid(TestBuffers.uid())
                .packageName("p").registrationId("r1").stripeCount(2).groups(List.of(FOREIGN, CounterGroups.SCENES))
                .build();
        BufferFiles.create(file, spec, BufferFiles.OWNER_READ_WRITE);
        try (BufferWriter w = BufferWriter.open(file); BufferReader r = BufferReader.open(file, TestBuffers.uid())) {
            w.nameScene(1, "s");
            StripeWriter s = w.claimStripe();
            s.selectScene(1);
            s.increment(Counters.TOTAL_FRAMES);
            assertEquals(1, r.snapshot().element(SceneGroup.vectorCounter(1, Counters.TOTAL_FRAMES)));
            s.release();
        }
        Path other = dir.resolve("otherversion");
        BufferFiles.create(other, BufferSpec.builder().pid(ProcessHandle.current().pid()).uid(TestBuffers.uid())
                .packageName("p").registrationId("r2").stripeCount(2).groups(List.of(oldScenes)).build(),
                BufferFiles.OWNER_READ_WRITE);
        try (BufferWriter w = BufferWriter.open(other); BufferReader r = BufferReader.open(other, TestBuffers.uid())) {
            assertFalse(w.hasScenes(), "a known id with an unknown version is skipped");
            assertFalse(w.nameScene(1, "s"));
            StripeWriter s = w.claimStripe();
            assertFalse(s.hasScenes());
            s.selectScene(1);
            s.increment(Counters.TOTAL_FRAMES);
            s.addScene(SceneGroup.MATRIX_FRAMES, 1);
            BufferSnapshot snap = r.snapshot();
            assertFalse(snap.hasScenes());
            assertEquals(1, snap.totalFrames());
            s.release();
        }
    }

    @Test
    void shouldRejectCorruptGroupDirectories() throws IOException {
        long directory = groupDirectoryOffset(4);
        Path count = TestBuffers.create(dir, "count", 4);
        TestBuffers.putInt(count, GROUP_COUNT_OFFSET, MAX_GROUPS + 1);
        assertEquals(Reason.CORRUPT_HEADER, rejection(count));

        Path where = TestBuffers.create(dir, "where", 4);
        TestBuffers.putInt(where, GROUP_DIRECTORY_OFFSET_OFFSET, (int) directory + 64);
        assertEquals(Reason.CORRUPT_HEADER, rejection(where));

        Path outside = TestBuffers.create(dir, "outside", 4);
        TestBuffers.putInt(outside, directory + GROUP_ENTRY_LENGTH_FIELD, 1 << 30);
        assertEquals(Reason.CORRUPT_HEADER, rejection(outside));

        Path misaligned = TestBuffers.create(dir, "misaligned", 4);
        TestBuffers.putInt(misaligned, directory + GROUP_ENTRY_OFFSET, (int) directory + 68);
        assertEquals(Reason.CORRUPT_HEADER, rejection(misaligned));

        Path declared = TestBuffers.create(dir, "declared", 4);
        TestBuffers.putLong(declared, TOTAL_LENGTH_OFFSET, totalLength(4, CounterGroups.KNOWN) + 64);
        assertEquals(Reason.CORRUPT_HEADER, rejection(declared));

        Path length = TestBuffers.create(dir, "length", 4);
        TestBuffers.putInt(length, directory + GROUP_ENTRY_LENGTH_FIELD, CounterGroups.SCENES.length(4) - 64);
        assertEquals(Reason.CORRUPT_HEADER, rejection(length), "a known group must have its layout's length");
    }

    @Test
    void shouldRejectOverlappingGroups() throws IOException {
        Path file = dir.resolve("overlap");
        BufferFiles.create(file, BufferSpec.builder().pid(ProcessHandle.current().pid()).uid(TestBuffers.uid())
                .packageName("p").registrationId("r1").stripeCount(2).groups(List.of(FOREIGN, CounterGroups.SCENES))
                .build(), BufferFiles.OWNER_READ_WRITE);
        long directory = groupDirectoryOffset(2);
        TestBuffers.putInt(file, directory + GROUP_ENTRY_LENGTH + GROUP_ENTRY_OFFSET, (int) directory + 64);
        assertEquals(Reason.CORRUPT_HEADER, rejection(file));
    }

    private static Reason rejection(Path file) throws IOException {
        try (BufferReader r = BufferReader.open(file, TestBuffers.uid())) {
            fail("accepted " + file + ": " + r.snapshot());
            return null;
        } catch (BufferFormatException e) {
            return e.reason();
        }
    }
}
