package io.gfxstats.buffer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gfxstats.stats.Counters;
import io.gfxstats.stats.FrameOutcome;
import io.gfxstats.stats.JankType;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The per-frame path's view counts what the stripe's own methods count, in the slot it was given. */
class StripeViewTest {
    /** A frame in CPU bucket 7, GPU bucket 2, janky: it missed its deadline and the UI thread was slow. */
    private static final int JANKY_FRAME = FrameOutcome.withGpu(FrameOutcome.counted(7), 2) | FrameOutcome.LATENCY_ONE
            | FrameOutcome.MISSED_AND_JANKY | FrameOutcome.SLOW_UI_THREAD;

    @TempDir
    Path dir;

    private static final class Path1 extends StripeView {
        boolean view(StripeWriter stripe, int slot) {
            return viewStripe(stripe, slot);
        }

        int count(int outcome, long total) {
            return countFramePlain(outcome, total);
        }

        void onTime(long maxTotal, int level, long cost, long refresh) {
            onTimeMatrix(maxTotal, level, cost, refresh);
        }

        boolean scene() {
            return viewsScene();
        }
    }

    /** Two buffers alike: one counted through a view, one through the stripe's own methods. */
    private BufferWriter viewBuffer;
    private BufferWriter stripeBuffer;
    private StripeWriter viewed;
    private StripeWriter counted;

    @BeforeEach
    void openTwoBuffers() throws IOException {
        viewBuffer = BufferWriter.open(TestBuffers.create(dir, "view", 2));
        stripeBuffer = BufferWriter.open(TestBuffers.create(dir, "stripe", 2));
        viewed = viewBuffer.claimStripe();
        counted = stripeBuffer.claimStripe();
    }

    @AfterEach
    void closeThem() {
        viewed.release();
        counted.release();
        viewBuffer.close();
        stripeBuffer.close();
    }

    @Test
    void shouldCountAFrameAsTheStripeDoesAndInTheViewedSlotOnly() throws IOException {
        Path1 view = new Path1();
        assertTrue(view.view(viewed, 3));
        assertTrue(view.scene());
        viewed.selectScene(5); // another path's selection does not move the view
        assertEquals(StripeView.MATRIX_LEFT, view.count(JANKY_FRAME, 40_000_000), "no on-time values set");
        assertEquals(StripeView.MATRIX_LEFT, view.count(FrameOutcome.counted(0), 1_000_000));
        counted.selectScene(3);
        counted.countFrame(JANKY_FRAME);
        counted.countFrame(FrameOutcome.counted(0));
        long[] a = viewBuffer.snapshot().vector();
        assertArrayEquals(stripeBuffer.snapshot().vector(), a);
        assertEquals(2, a[Counters.TOTAL_FRAMES]);
        assertEquals(1, a[JankType.SLOW_UI_THREAD.counter()]);
        assertEquals(2, a[SceneGroup.vectorCounter(3, Counters.TOTAL_FRAMES)]);
        assertEquals(0, a[SceneGroup.vectorCounter(5, Counters.TOTAL_FRAMES)]);
        assertEquals(0, a[SceneGroup.vectorCounter(3, SceneGroup.MATRIX_FRAMES)]);
    }

    @Test
    void shouldAddAnOnTimeFramesMatrixValuesAsCountMatrixDoesAndLeaveALateOnesToTheCaller() throws IOException {
        Path1 view = new Path1();
        view.view(viewed, 0);
        view.onTime(16_666_666, 1, 16_666_666, 60_000);
        assertEquals(StripeView.COUNTED, view.count(FrameOutcome.counted(2), 9_000_000));
        assertEquals(StripeView.COUNTED, view.count(FrameOutcome.counted(2), 16_666_666));
        assertEquals(StripeView.MATRIX_LEFT, view.count(FrameOutcome.counted(9), 16_666_667));
        counted.selectScene(0);
        counted.countFrame(FrameOutcome.counted(2));
        counted.countMatrix(1, 0, 16_666_666, 0, 60_000, 9_000_000);
        counted.countFrame(FrameOutcome.counted(2));
        counted.countMatrix(1, 0, 16_666_666, 0, 60_000, 16_666_666);
        counted.countFrame(FrameOutcome.counted(9));
        long[] a = viewBuffer.snapshot().vector();
        assertArrayEquals(stripeBuffer.snapshot().vector(), a);
        assertEquals(2 * 16_666_666L, a[SceneGroup.vectorSum(0, SceneGroup.COST_NANOS)]);
        assertEquals(3, a[SceneGroup.vectorCounter(0, Counters.TOTAL_FRAMES)]);
    }

    @Test
    void shouldViewNothingOfASharedStripeAndCountNothingThroughIt() throws IOException {
        Path file = TestBuffers.create(dir, "b", 1);
        try (BufferWriter buffer = BufferWriter.open(file)) {
            StripeWriter own = buffer.claimStripe();
            StripeWriter shared = buffer.claimStripe();
            assertTrue(shared.isShared(), "one writer stripe: the second claim shares");
            Path1 view = new Path1();
            assertFalse(view.view(shared, 0), "atomic adds needed: the stripe's own methods count");
            assertFalse(view.scene());
            assertEquals(StripeView.NOT_VIEWED, view.count(JANKY_FRAME, 1_000_000));
            assertEquals(0, buffer.snapshot().counter(Counters.TOTAL_FRAMES));
            shared.release();
            own.release();
        }
    }

    @Test
    void shouldRefuseAReleasedStripeAndASlotOutOfRange() throws IOException {
        StripeWriter memory = StripeWriter.inMemory();
        Path1 view = new Path1();
        assertThrows(IndexOutOfBoundsException.class, () -> view.view(memory, SceneGroup.SLOTS));
        assertTrue(view.view(memory, -1));
        assertFalse(view.scene());
        assertEquals(StripeView.COUNTED, view.count(FrameOutcome.counted(1), 1_000_000), "no scene slot: the stripe only");
        memory.release();
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> view.view(memory, 0));
        assertTrue(e.getMessage().contains("was released"), e.getMessage());
    }
}
