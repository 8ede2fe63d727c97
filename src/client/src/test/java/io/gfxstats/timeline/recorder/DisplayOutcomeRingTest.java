package io.gfxstats.timeline.recorder;

import io.gfxstats.timeline.feed.DisplayFramePublisher;
import io.gfxstats.timeline.feed.DisplayOutcome;
import io.gfxstats.timeline.feed.DisplayOutcomeLayout;
import io.gfxstats.timeline.feed.DisplayOutcomeWriter;
import io.gfxstats.timeline.feed.DisplayOutcomes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gfxstats.timeline.DisplayFrame;
import io.gfxstats.timeline.FinishMetadata;
import io.gfxstats.timeline.JankType;
import io.gfxstats.timeline.Prediction;
import io.gfxstats.timeline.PresentMetadata;
import io.gfxstats.timeline.Severity;
import io.gfxstats.timeline.Thresholds;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DisplayOutcomeRingTest {
    private static final long MS = 1_000_000L;
    private static final long REFRESH = 16_666_667L;

    @TempDir
    Path dir;

    private static DisplayFrame frame(long token, long vsync, long present, long end) {
        return new DisplayFrame().set(token, Prediction.VALID, vsync - 10 * MS, vsync - MS, vsync, vsync - 10 * MS, end,
                present, REFRESH, REFRESH);
    }

    @Test
    void shouldFindTheClassifiedFrameOfAnOutputAndMsc() throws IOException {
        Path path = dir.resolve(DisplayOutcomeLayout.FILE_NAME);
        try (DisplayFramePublisher publisher = new DisplayFramePublisher(Thresholds.ANDROID_16_LEGACY,
                DisplayOutcomeWriter.create(path))) {
            DisplayOutcomes ring = DisplayOutcomes.open(path);
            DisplayOutcome o = new DisplayOutcome();
            assertFalse(ring.find(7, 100, o), "nothing published yet");
            // On time, then late with the CPU work past the deadline: SurfaceFlinger CPU deadline missed.
            publisher.publish(7, 100, frame(1, 1_000 * MS, 1_000 * MS, 995 * MS), true);
            publisher.publish(7, 102, frame(2, 1_000 * MS + 2 * REFRESH, 1_000 * MS + 3 * REFRESH,
                    1_000 * MS + 2 * REFRESH + 5 * MS), false);
            publisher.publish(9, 100, new DisplayFrame().set(3, Prediction.EXPIRED, 0, 0, 0, 10, 20, 30, REFRESH, REFRESH),
                    true);

            assertTrue(ring.find(7, 100, o));
            assertEquals(JankType.NONE, o.jank());
            assertEquals(PresentMetadata.ON_TIME, o.present());
            assertEquals(1_000 * MS, o.actualPresent());
            assertTrue(ring.find(7, 102, o));
            assertEquals(JankType.SF_CPU_DEADLINE_MISSED, o.jank(), o.toString());
            assertEquals(PresentMetadata.LATE, o.present());
            assertEquals(FinishMetadata.LATE, o.finish());
            assertEquals(Severity.FULL, o.severity());
            assertEquals(2, o.token());
            assertEquals(REFRESH, o.refreshPeriod());
            assertTrue(ring.find(9, 100, o));
            assertEquals(JankType.UNKNOWN, o.jank());
            assertEquals(Prediction.EXPIRED, o.prediction());
            assertFalse(ring.find(7, 101, o), "no frame at that msc");
            assertFalse(ring.find(8, 100, o), "no such output");
            assertEquals(3, ring.published());
            assertEquals(ProcessHandle.current().pid(), ring.writerPid());

            // 512 newer frames of output 7 overwrite msc 100's slot.
            for (long msc = 103; msc < 103 + DisplayOutcomeLayout.SLOTS; msc++) {
                publisher.publish(7, msc, frame(msc, msc * REFRESH, msc * REFRESH, msc * REFRESH - 2 * MS), false);
            }
            assertFalse(ring.find(7, 100, o), "overwritten");
            assertTrue(ring.find(7, 102 + DisplayOutcomeLayout.SLOTS, o));
            assertTrue(ring.find(9, 100, o), "other outputs keep their region");
        }
    }

    @Test
    void shouldRefuseOutOfOrderFramesUnlessAFeedRestartsTheOutput() throws IOException {
        try (DisplayFramePublisher publisher = new DisplayFramePublisher(Thresholds.ANDROID_16_LEGACY,
                DisplayOutcomeWriter.create(dir.resolve("r")))) {
            assertEquals(null, publisher.check(1, 10, true));
            publisher.publish(1, 10, frame(1, 1_000 * MS, 1_000 * MS, 995 * MS), true);
            assertEquals("output 1 msc 10 is not after msc 10 (an output's frames must come in presentation order)",
                    publisher.check(1, 10, false));
            assertEquals(null, publisher.check(1, 5, true), "a new feed may restart the output");
            assertEquals(null, publisher.check(2, 5, false), "another output");
            for (long o = 100; o < 100 + DisplayFramePublisher.MAX_OUTPUTS - 1; o++) {
                assertEquals(null, publisher.checkAndPublish(o, 1, frame(o, 1_000 * MS, 1_000 * MS, 995 * MS), true));
            }
            assertEquals("output 7 would be output number 257; the daemon keeps at most 256 that presented in the "
                    + "last 60 s (output ids are the outputs' wl_registry names)", publisher.check(7, 1, true));
            assertEquals(null, publisher.check(100, 2, false), "known outputs go on");
        }
    }

    @Test
    void shouldForgetTheOutputIdleLongestOnceItHasBeenIdleAMinute() throws IOException {
        long[] now = {0};
        try (DisplayFramePublisher publisher = new DisplayFramePublisher(Thresholds.ANDROID_16_LEGACY,
                DisplayOutcomeWriter.create(dir.resolve("r")), () -> now[0])) {
            for (long o = 0; o < DisplayFramePublisher.MAX_OUTPUTS; o++) {
                now[0] += 1_000_000;
                assertEquals(null, publisher.checkAndPublish(o, 1, frame(o, 1_000 * MS, 1_000 * MS, 995 * MS), true));
            }
            now[0] += 1_000_000;
            assertEquals(null, publisher.checkAndPublish(0, 2, frame(0, 1_016 * MS, 1_016 * MS, 1_011 * MS), false),
                    "output 0 presents again: output 1 is now idle longest");
            assertTrue(publisher.check(10_000, 1, true) != null, "nobody idle for a minute yet");
            now[0] = DisplayFramePublisher.OUTPUT_IDLE_NANOS + 2_000_001;
            assertEquals(null, publisher.checkAndPublish(10_000, 1, frame(10_000, 1_000 * MS, 1_000 * MS, 995 * MS),
                    true), "a hot-plugged monitor's new id takes the place of output 1");
            assertEquals(null, publisher.check(0, 3, false), "output 0 was kept: its order still holds");
            assertEquals("output 0 msc 2 is not after msc 2 (an output's frames must come in presentation order)",
                    publisher.check(0, 2, false));
        }
    }

    @Test
    void shouldReuseTheRegionWrittenLongestAgoBeyondEightOutputs() throws IOException {
        Path path = dir.resolve("r");
        try (DisplayFramePublisher publisher = new DisplayFramePublisher(Thresholds.ANDROID_16_LEGACY,
                DisplayOutcomeWriter.create(path))) {
            DisplayOutcomes ring = DisplayOutcomes.open(path);
            DisplayOutcome o = new DisplayOutcome();
            for (int output = 1; output <= DisplayOutcomeLayout.REGIONS; output++) {
                publisher.publish(output, 5, frame(output, 1_000 * MS, 1_000 * MS, 995 * MS), true);
            }
            publisher.publish(2, 6, frame(2, 1_000 * MS + REFRESH, 1_000 * MS + REFRESH, 995 * MS + REFRESH), false);
            publisher.publish(100, 5, frame(100, 1_000 * MS, 1_000 * MS, 995 * MS), true);
            assertFalse(ring.find(1, 5, o), "output 1 was written longest ago: its region went to output 100");
            assertTrue(ring.find(100, 5, o));
            assertTrue(ring.find(2, 5, o));
            assertTrue(ring.find(8, 5, o));
        }
    }

    @Test
    void shouldRefuseAFileThatIsNotARingInOneLine() throws IOException {
        Path small = Files.write(dir.resolve("small"), new byte[10]);
        IOException e = assertThrows(IOException.class, () -> DisplayOutcomes.open(small));
        assertTrue(e.getMessage().contains("is not a display-frame ring"), e.getMessage());
        Path zeros = Files.write(dir.resolve("zeros"), new byte[DisplayOutcomeLayout.LENGTH]);
        e = assertThrows(IOException.class, () -> DisplayOutcomes.open(zeros));
        assertEquals(zeros + " is not a display-frame ring (bad magic)", e.getMessage());
        assertThrows(java.nio.file.NoSuchFileException.class, () -> DisplayOutcomes.open(dir.resolve("none")));
    }

    @Test
    void shouldReplaceAnOldRingWithoutDisturbingItsReaders() throws IOException {
        Path path = dir.resolve("r");
        DisplayOutcomeWriter first = DisplayOutcomeWriter.create(path);
        first.publish(1, 1, frame(1, 1_000 * MS, 1_000 * MS, 995 * MS));
        DisplayOutcomes old = DisplayOutcomes.open(path);
        DisplayOutcomeWriter second = DisplayOutcomeWriter.create(path);
        DisplayOutcome o = new DisplayOutcome();
        assertTrue(old.find(1, 1, o), "a reader of the old file still reads it");
        assertFalse(DisplayOutcomes.open(path).find(1, 1, o), "the new daemon's ring starts empty");
        first.close();
        second.close();
        assertFalse(Files.exists(path.resolveSibling("r.new")));
    }

    /**
     * A writer thread keeps rewriting the same slots while a reader looks them up: every entry the
     * reader accepts is one the writer wrote as a whole (its fields all derive from its MSC).
     */
    @Test
    void shouldNeverHandOutATornEntry() throws Exception {
        Path path = dir.resolve("r");
        DisplayOutcomeWriter writer = DisplayOutcomeWriter.create(path);
        DisplayOutcomes ring = DisplayOutcomes.open(path);
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong written = new AtomicLong();
        Thread t = new Thread(() -> {
            DisplayFrame d = new DisplayFrame();
            long msc = 1;
            while (!stop.get()) {
                d.set(msc * 3, Prediction.VALID, 0, 0, 0, 0, 0, msc * 5, msc * 7, msc * 11);
                writer.publish(42, msc, d);
                written.set(msc);
                msc = msc % 4 == 0 ? msc - 3 + DisplayOutcomeLayout.SLOTS : msc + 1;
            }
        });
        t.start();
        DisplayOutcome o = new DisplayOutcome();
        long found = 0;
        long deadline = System.nanoTime() + 1_000_000_000L;
        try {
            while (System.nanoTime() < deadline || found < 1000) {
                long w = written.get();
                for (long msc = Math.max(1, w - 8); msc <= w; msc++) {
                    if (ring.find(42, msc, o)) {
                        found++;
                        assertEquals(msc, o.msc());
                        assertEquals(msc * 3, o.token());
                        assertEquals(msc * 5, o.actualPresent());
                        assertEquals(msc * 7, o.refreshPeriod());
                        assertEquals(msc * 11, o.renderPeriod());
                    }
                }
                if (System.nanoTime() > deadline + 20_000_000_000L) {
                    break;
                }
            }
        } finally {
            stop.set(true);
            t.join();
        }
        assertTrue(found >= 1000, found + " entries read");
    }

    @Test
    void shouldNotAllocateToFindAnOutcome() throws IOException {
        Path path = dir.resolve("r");
        DisplayOutcomeWriter writer = DisplayOutcomeWriter.create(path);
        for (long msc = 1; msc <= 64; msc++) {
            writer.publish(3, msc, frame(msc, msc * REFRESH, msc * REFRESH, msc * REFRESH - MS));
        }
        DisplayOutcomes ring = DisplayOutcomes.open(path);
        DisplayOutcome o = new DisplayOutcome();
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long bytes = 0;
        long hits = 0;
        for (int round = 0; round < 4; round++) {
            long before = threads.getCurrentThreadAllocatedBytes();
            for (int i = 0; i < 256_000; i++) {
                if (ring.find(3, 1 + (i & 127), o)) {
                    hits++;
                }
            }
            bytes = threads.getCurrentThreadAllocatedBytes() - before;
        }
        assertEquals(4 * 128_000, hits);
        assertTrue(bytes < 4096, bytes + " bytes allocated for 256000 look-ups");
    }

    @Test
    void shouldBeDescribedByTheDocsAsItIs() throws IOException {
        String doc = Files.readString(Path.of("docs/frametimeline.md"));
        assertTrue(doc.contains("`<buffer.dir>/" + DisplayOutcomeLayout.FILE_NAME + "` ("
                + String.format(java.util.Locale.ROOT, "%,d", DisplayOutcomeLayout.LENGTH) + " bytes: "
                + DisplayOutcomeLayout.REGIONS + " outputs x " + DisplayOutcomeLayout.SLOTS + " frames;"), doc);
        assertTrue(doc.contains("(default " + io.gfxstats.timeline.recorder.TimelineRecorder.DEFAULT_JOIN_WAIT_NANOS / 1_000_000
                + " ms of\npresentation time)"), "join wait");
    }
}
