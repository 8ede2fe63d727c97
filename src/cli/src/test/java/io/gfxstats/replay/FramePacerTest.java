package io.gfxstats.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gfxstats.demo.Pacer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The pacing schedule on a fake clock: no real sleeping, no timing asserts. */
class FramePacerTest {
    /** A monotonic clock that moves only when waited on (plus a configurable oversleep) or told to. */
    static final class FakeClock implements Pacer {
        long now = 5_000_000_000L;
        long oversleep;
        final List<Long> sleeps = new ArrayList<>();

        @Override
        public long nanoTime() {
            return now;
        }

        @Override
        public void sleepUntil(long deadlineNanos) {
            if (deadlineNanos > now) {
                sleeps.add(deadlineNanos - now);
                now = deadlineNanos + oversleep;
            }
        }
    }

    @Test
    void shouldReleaseEveryFrameAtStartPlusIndexOverRate() throws Exception {
        FakeClock clock = new FakeClock();
        FramePacer pacer = FramePacer.atRate(300, clock);
        long start = clock.now;
        for (int k = 0; k < 1000; k++) {
            pacer.awaitFrame(k);
            assertEquals(start + Math.round(k * 1e9 / 300), clock.now, "frame " + k);
        }
        assertEquals(999, clock.sleeps.size(), "frame 0 is due at once");
    }

    @Test
    void shouldNotAccumulateOversleepOrRecordingTime() throws Exception {
        FakeClock clock = new FakeClock();
        clock.oversleep = 2_000_000; // every sleep returns 2 ms late
        FramePacer pacer = FramePacer.atRate(100, clock);
        long start = clock.now;
        for (int k = 0; k < 500; k++) {
            pacer.awaitFrame(k);
            long due = start + k * 10_000_000L;
            assertTrue(clock.now >= due, "never early");
            assertTrue(clock.now - due <= 2_000_000, "late by at most one oversleep at frame " + k);
            clock.now += 3_000_000; // recording the frame takes 3 ms
        }
    }

    @Test
    void shouldCatchUpAfterAStallWithoutSleeping() throws Exception {
        FakeClock clock = new FakeClock();
        FramePacer pacer = FramePacer.atRate(100, clock);
        long start = clock.now;
        pacer.awaitFrame(0);
        clock.now += 55_000_000; // the process stalls for 55 ms
        int sleepsBefore = clock.sleeps.size();
        for (int k = 1; k <= 5; k++) {
            pacer.awaitFrame(k); // frames 1..5 were due at 10..50 ms: all late, released at once
        }
        assertEquals(sleepsBefore, clock.sleeps.size());
        pacer.awaitFrame(6);
        assertEquals(start + 60_000_000, clock.now, "back on the original schedule");
    }

    @Test
    void shouldStopWaitingOnTheSystemClockWhenInterrupted() throws Exception {
        FramePacer pacer = FramePacer.atRate(0.001); // one frame every 1000 s
        pacer.awaitFrame(0);
        Thread.currentThread().interrupt();
        assertThrows(InterruptedException.class, () -> pacer.awaitFrame(1));
        assertFalse(Thread.currentThread().isInterrupted(), "the interrupt is reported once, as the exception");
    }

    @Test
    void shouldNotWaitWhenUnpaced() throws Exception {
        FramePacer pacer = FramePacer.unpaced();
        assertFalse(pacer.isPaced());
        for (int k = 0; k < 10; k++) {
            pacer.awaitFrame(k);
        }
        assertEquals(0, pacer.offsetNanos(1_000_000));
    }

    @Test
    void shouldRejectRatesThatAreNotPositiveFiniteAndBounded() {
        for (double bad : new double[] {0, -1, Double.NaN, Double.POSITIVE_INFINITY, FramePacer.MAX_RATE * 2}) {
            assertThrows(IllegalArgumentException.class, () -> FramePacer.atRate(bad), "rate " + bad);
        }
        assertEquals(0.5, FramePacer.requireValidRate(0.5));
        assertEquals(2_000_000_000L, FramePacer.atRate(0.5).offsetNanos(1));
    }
}
