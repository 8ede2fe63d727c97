package io.gfxstats.buffer;

import io.gfxstats.frame.ModernJankTracker;
import io.gfxstats.stats.Counters;
import io.gfxstats.stats.ProfileData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;

import static org.junit.jupiter.api.Assertions.*;

class BufferWriterTest {
    @TempDir
    Path dir;

    @Test
    void shouldClaimFreeWriterStripesThenFallBackToTheSharedStripe() throws IOException {
        Path file = TestBuffers.create(dir, "b", 2);
        try (BufferWriter writer = BufferWriter.open(file)) {
            StripeWriter first = writer.claimStripe();
            StripeWriter second = writer.claimStripe();
            StripeWriter third = writer.claimStripe();
            assertEquals(1, first.stripeIndex());
            assertEquals(2, second.stripeIndex());
            assertTrue(third.isShared());
            assertEquals(2, writer.snapshot().claimedStripes());

            first.release();
            StripeWriter again = writer.claimStripe();
            assertEquals(1, again.stripeIndex(), "a released stripe can be claimed again");
            for (StripeWriter s : List.of(second, third, again)) {
                s.release();
            }
        }
    }

    @Test
    void shouldCountExactlyWithThreadsOnOwnAndSharedStripes() throws Exception {
        Path file = TestBuffers.create(dir, "b", 2);
        int threads = 5;
        int frames = 60_000;
        try (BufferWriter writer = BufferWriter.open(file)) {
            CyclicBarrier start = new CyclicBarrier(threads);
            List<Thread> workers = new ArrayList<>();
            List<Throwable> failures = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                long seed = 100 + t;
                Thread w = new Thread(() -> {
                    StripeWriter stripe = writer.claimStripe();
                    ModernJankTracker tracker = FrameStream.tracker();
                    FrameStream stream = new FrameStream(seed);
                    try {
                        start.await();
                        for (int i = 0; i < frames; i++) {
                            tracker.finishFrame(stream.next(), stripe);
                        }
                    } catch (Exception e) {
                        synchronized (failures) {
                            failures.add(e);
                        }
                    } finally {
                        stripe.release();
                    }
                });
                workers.add(w);
                w.start();
            }
            for (Thread w : workers) {
                w.join();
            }
            assertEquals(List.of(), failures);
            ProfileData expected = FrameStream.expected(100, threads, frames);
            assertArrayEquals(expected.toArray(), writer.snapshot().counters(),
                    "2 threads on own stripes and 3 sharing one: every counter exact");
            assertTrue(expected.cpuBucket(60) > 0, "the stream reaches the slow buckets");
        }
    }

    @Test
    void shouldContinueFromTheCountsOfAReleasedStripe() throws IOException {
        Path file = TestBuffers.create(dir, "b", 1);
        try (BufferWriter writer = BufferWriter.open(file)) {
            StripeWriter s = writer.claimStripe();
            s.add(Counters.TOTAL_FRAMES, 10);
            s.release();
            StripeWriter next = writer.claimStripe();
            assertEquals(1, next.stripeIndex());
            assertEquals(10, next.contribution(Counters.TOTAL_FRAMES));
            next.increment(Counters.TOTAL_FRAMES);
            next.release();
            assertEquals(11, writer.snapshot().totalFrames());
        }
    }

    @Test
    void shouldKeepASharedWritersOwnContributionApartFromOthers() throws IOException {
        Path file = TestBuffers.create(dir, "b", 1);
        try (BufferWriter writer = BufferWriter.open(file)) {
            StripeWriter own = writer.claimStripe();
            StripeWriter a = writer.claimStripe();
            StripeWriter b = writer.claimStripe();
            a.add(Counters.TOTAL_FRAMES, 3);
            b.add(Counters.TOTAL_FRAMES, 4);
            assertEquals(3, a.contribution(Counters.TOTAL_FRAMES));
            assertEquals(4, b.contribution(Counters.TOTAL_FRAMES));
            assertEquals(7, writer.snapshot().totalFrames());
            for (StripeWriter s : List.of(own, a, b)) {
                s.release();
            }
        }
    }

    @Test
    void shouldRejectCounterIndexesOutsideTheLayout() throws IOException {
        Path file = TestBuffers.create(dir, "b", 1);
        try (BufferWriter writer = BufferWriter.open(file)) {
            StripeWriter s = writer.claimStripe();
            assertThrows(IndexOutOfBoundsException.class, () -> s.increment(Counters.COUNT));
            assertThrows(IndexOutOfBoundsException.class, () -> s.increment(-1));
            s.release();
        }
    }

    @Test
    void shouldOnlyEverLowerTheStatsStart() throws IOException {
        Path file = TestBuffers.create(dir, "b", 1);
        try (BufferWriter writer = BufferWriter.open(file)) {
            assertFalse(writer.lowerStatsStart(TestBuffers.START + 1));
            assertTrue(writer.lowerStatsStart(TestBuffers.START - 5));
            assertEquals(TestBuffers.START - 5, writer.snapshot().statsStartMillis());
        }
    }

    @Test
    void shouldPublishHeartbeat() throws IOException {
        Path file = TestBuffers.create(dir, "b", 1);
        try (BufferWriter writer = BufferWriter.open(file)) {
            writer.heartbeat(123_456L);
            try (BufferReader reader = BufferReader.open(file, TestBuffers.uid())) {
                assertEquals(123_456L, reader.snapshot().heartbeatMillis());
            }
        }
    }

    @Test
    void shouldMarkARetiredBufferWithItsSuccessorAndRefuseNewWriters() throws IOException {
        Path file = TestBuffers.create(dir, "b", 1);
        try (BufferWriter writer = BufferWriter.open(file)) {
            writer.retire("successor-42");
        }
        try (BufferReader reader = BufferReader.open(file, TestBuffers.uid())) {
            BufferSnapshot s = reader.snapshot();
            assertEquals(BufferState.RETIRED, s.state());
            assertEquals("successor-42", s.successorId());
        }
        BufferFormatException e = assertThrows(BufferFormatException.class, () -> BufferWriter.open(file));
        assertEquals(BufferFormatException.Reason.RETIRED, e.reason());
    }

    @Test
    void shouldLetGoOfTheMappingOnlyWhenTheWriterAndEveryStripeAreReleased() throws IOException {
        Path file = TestBuffers.create(dir, "b", 2);
        BufferWriter writer = BufferWriter.open(file);
        StripeWriter stripe = writer.claimStripe();
        writer.close();
        assertFalse(writer.isUnmapped(), "a stripe in use keeps the mapping");
        stripe.increment(Counters.TOTAL_FRAMES);
        assertThrows(IllegalStateException.class, writer::claimStripe);
        long kept = stripe.countersForView();
        stripe.release();
        assertTrue(writer.isUnmapped());
        assertFalse(BufferWriter.isMapped(file));
        // The JDK unmaps when the mapping is collected. Where addresses are checked (the VarHandle
        // way, which the build runs these tests in too), one kept past the release fails instead of
        // writing into the file.
        if (!RawMemory.AVAILABLE) {
            assertThrows(IllegalStateException.class, () -> BufferMemory.readInt(kept));
        }
        try (BufferReader reader = BufferReader.open(file, TestBuffers.uid())) {
            assertEquals(1, reader.snapshot().totalFrames());
        }
    }
}
