package io.gfxstats.buffer;

import io.gfxstats.buffer.BufferFormatException.Reason;
import io.gfxstats.stats.Counters;
import io.gfxstats.stats.JankType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
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
        assertEquals(1344, scenes.wideOffset());
        assertEquals(3008, scenes.stripeLength());
        assertEquals(2048 + 17 * 3008, scenes.length(16));
        assertEquals(256, CounterGroups.FRAMETIMELINE.stripeLength());
        assertEquals(64, CounterGroups.CLIENT_HEALTH.stripeLength());
        assertEquals(13_696 + 64 + 53_184 + 17 * 256 + 17 * 64, totalLength(16, CounterGroups.KNOWN),
                "docs/buffer-format.md: 72,384 bytes");
        assertEquals(21, SceneGroup.COUNTERS32);
        assertEquals(13, SceneGroup.COUNTERS64);
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
                SceneGroup.COUNTERS32 + " u32 each (" + n.format(CounterGroups.SCENES.wideOffset()) + " bytes)",
                SceneGroup.COUNTERS64 + " u64 each (" + n.format(SceneGroup.SLOTS * SceneGroup.COUNTERS64 * 8) + " bytes)",
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
                s.addScene(SceneGroup.LEVEL_SUM_BASE + 2, 11);
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
