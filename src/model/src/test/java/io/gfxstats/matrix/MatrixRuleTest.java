package io.gfxstats.matrix;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gfxstats.frame.FrameInfo;
import java.lang.management.ManagementFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The per-frame Matrix rule against the facts of the spec (docs/spec/matrix-frametracer.md 1.2, 1.3, 1.4):
 * the smallest TOTAL_DURATION reaching each level at 60, 59.94, 90 and 120 Hz under the 2.1
 * rule, the legacy long division, the outlier filter, and no allocation.
 */
class MatrixRuleTest {

    /**
     * Spec 1.4 table: refresh, I (float ns) and the smallest integer TOTAL_DURATION (ns) giving
     * 1 dropped frame, NORMAL, MIDDLE, HIGH and FROZEN; one nanosecond less stays below. At 60 Hz
     * (25000002) and 120 Hz (12500001) the first column sits where (T - I) / I is the float just
     * below 0.5, 0.49999997f, which Java's Math.round (Java 7+, Android 7+ where Matrix 2.1 runs)
     * rounds to 0.
     */
    @ParameterizedTest
    @CsvSource({
        "60.0,  16666667,   25000002, 58333334, 158333336, 408333329, 708333345",
        "59.94, 16683350,   25025026, 58391723, 158491817, 408742064, 709042337",
        "90.0,  11111111,   16666667, 38888891, 105555548, 272222192, 472222192",
        "120.0, 8333333.5,  12500001, 29166667, 79166668,  204166665, 354166673",
    })
    void shouldReachEachLevelAtTheSpecsSmallestTotalDuration(float refresh, float interval, long one, long normal,
            long middle, long high, long frozen) {
        assertEquals(interval, MatrixRule.intervalNanos(refresh));
        assertEquals(1, MatrixRule.droppedFrames21(one, refresh));
        assertEquals(0, MatrixRule.droppedFrames21(one - 1, refresh));
        long[] firsts = {normal, middle, high, frozen};
        int[] levels = {MatrixRule.NORMAL, MatrixRule.MIDDLE, MatrixRule.HIGH, MatrixRule.FROZEN};
        for (int i = 0; i < firsts.length; i++) {
            assertEquals(levels[i], MatrixRule.level(MatrixRule.droppedFrames21(firsts[i], refresh)), "at " + firsts[i]);
            assertEquals(levels[i] - 1, MatrixRule.level(MatrixRule.droppedFrames21(firsts[i] - 1, refresh)),
                    "below " + firsts[i]);
        }
    }

    /** Spec 1.4's example: a 400 ms frame is 23 dropped frames (MIDDLE) at 60 Hz and 47 (FROZEN) at 120 Hz. */
    @org.junit.jupiter.api.Test
    void shouldPutAFourHundredMillisecondFrameInMiddleAtSixtyAndFrozenAtOneTwentyHertz() {
        assertEquals(23, MatrixRule.droppedFrames21(400_000_000L, 60f));
        assertEquals(MatrixRule.MIDDLE, MatrixRule.level(MatrixRule.droppedFrames21(400_000_000L, 60f)));
        assertEquals(47, MatrixRule.droppedFrames21(400_000_000L, 120f));
        assertEquals(MatrixRule.FROZEN, MatrixRule.level(MatrixRule.droppedFrames21(400_000_000L, 120f)));
    }

    /** docs/scenes.md's table of levels at different refresh rates is what the rule computes. */
    @Test
    void shouldKeepTheDocumentedLevelTableInStep() throws Exception {
        java.util.List<String> rows = java.nio.file.Files.readAllLines(java.nio.file.Path.of("docs", "scenes.md")).stream()
                .filter(l -> l.matches("\\| (59\\.94|60|90|120) Hz \\|.*")).toList();
        assertEquals(4, rows.size(), rows.toString());
        int[] bounds = {1, 3, 9, 24, 42};
        for (String row : rows) {
            String[] cells = row.split("\\|");
            float refresh = Float.parseFloat(cells[1].trim().replace(" Hz", ""));
            assertEquals(Float.parseFloat(cells[2].trim()), MatrixRule.intervalNanos(refresh), row);
            for (int b = 0; b < bounds.length; b++) {
                long first = Math.round(Double.parseDouble(cells[3 + b].trim().replace(" ms", "")) * 1e6);
                assertTrue(MatrixRule.droppedFrames21(first, refresh) >= bounds[b], row + " at " + first);
                assertTrue(MatrixRule.droppedFrames21(first - 1, refresh) < bounds[b], row + " below " + first);
            }
        }
    }

    @Test
    void shouldClassifyTheSameStallByFramesNotTimeInMatrixLevels() {
        // 410 ms: 23.6 frames late at 60 Hz (HIGH from 24), 48.2 at 120 Hz (FROZEN from 42).
        assertEquals(MatrixRule.HIGH, MatrixRule.level(MatrixRule.droppedFrames21(410_000_000L, 60f)));
        assertEquals(MatrixRule.FROZEN, MatrixRule.level(MatrixRule.droppedFrames21(410_000_000L, 120f)));
        // The Math.round tie just below one half: 0.49999997f rounds to 0, 0.5f to 1.
        assertEquals(0, MatrixRule.roundedDroppedFrames(0.49999997f));
        assertEquals(1, MatrixRule.roundedDroppedFrames(0.5f));
    }

    /** Spec 1.4 last row: the legacy rule at 60 Hz, interval 16666667 ns as a long. */
    @ParameterizedTest
    @CsvSource({"16666667, 1", "50000001, 3", "150000003, 9", "400000008, 24", "700000014, 42"})
    void shouldApplyTheLegacyLongDivision(long first, int dropped) {
        assertEquals(dropped, MatrixRule.legacyDroppedFrames(first, 16_666_667L));
        assertEquals(dropped - 1, MatrixRule.legacyDroppedFrames(first - 1, 16_666_667L));
    }

    @Test
    void shouldCountOneFrameFewerThanLegacyWhenTheFractionIsBelowOneHalf() {
        long interval = 16_666_667L;
        long lowFraction = (long) (interval * 3.4); // T/I = 3.4: legacy 3, 2.1 round(2.4) = 2
        assertEquals(3, MatrixRule.legacyDroppedFrames(lowFraction, interval));
        assertEquals(2, MatrixRule.droppedFrames21(lowFraction, 60f));
        long highFraction = (long) (interval * 3.6); // legacy 3, 2.1 round(2.6) = 3
        assertEquals(3, MatrixRule.legacyDroppedFrames(highFraction, interval));
        assertEquals(3, MatrixRule.droppedFrames21(highFraction, 60f));
    }

    @Test
    void shouldNeverCountNegativeDroppedFramesUnder21() {
        assertEquals(0f, MatrixRule.droppedFrames(1_000_000L, MatrixRule.intervalNanos(60f)));
        assertEquals(0f, MatrixRule.droppedFrames(-5L, MatrixRule.intervalNanos(60f)));
    }

    @Test
    void shouldAddTheBestLevelsClampedDroppedFramesToItsSum() {
        assertEquals(0, MatrixRule.sumContribution(-2));
        assertEquals(2, MatrixRule.sumContribution(2));
        assertEquals(MatrixRule.BEST, MatrixRule.level(-2));
        assertEquals(MatrixRule.BEST, MatrixRule.level(2));
    }

    @Test
    void shouldHonourConfiguredBounds() {
        MatrixLevels levels = MatrixLevels.parse("2, 5, 10, 20");
        assertEquals(MatrixRule.BEST, levels.level(1));
        assertEquals(MatrixRule.NORMAL, levels.level(2));
        assertEquals(MatrixRule.MIDDLE, levels.level(9));
        assertEquals(MatrixRule.HIGH, levels.level(10));
        assertEquals(MatrixRule.FROZEN, levels.level(20));
        assertEquals("2,5,10,20", levels.toString());
        assertThrows(IllegalArgumentException.class, () -> MatrixLevels.parse("3,9,24"));
        assertThrows(IllegalArgumentException.class, () -> MatrixLevels.parse("3,9,x,42"));
        assertThrows(IllegalArgumentException.class, () -> new MatrixLevels(9, 3, 24, 42));
        assertThrows(IllegalArgumentException.class, () -> new MatrixLevels(0, 3, 24, 42));
    }

    @Test
    void shouldScaleBoundsWithTheRefreshRateOnlyInTimeMode() {
        MatrixLevels levels = MatrixLevels.DEFAULT;
        // At 120 Hz the time bounds are 6/18/48/84 frames; Matrix's stay 3/9/24/42.
        assertEquals(MatrixRule.NORMAL, levels.level(MatrixMode.V2_1, 3, 120f));
        assertEquals(MatrixRule.BEST, levels.level(MatrixMode.TIME, 5, 120f));
        assertEquals(MatrixRule.NORMAL, levels.level(MatrixMode.TIME, 6, 120f));
        assertEquals(MatrixRule.HIGH, levels.level(MatrixMode.TIME, 83, 120f));
        assertEquals(MatrixRule.FROZEN, levels.level(MatrixMode.TIME, 84, 120f));
        // At a refresh a hair above 60 Hz (1e9 / 16666666) the bounds stay 3/9/24/42.
        float nearly60 = MatrixRule.refreshHz(16_666_666L, 0f);
        assertTrue(nearly60 > 60f);
        assertEquals(MatrixRule.NORMAL, levels.level(MatrixMode.TIME, 3, nearly60));
        assertEquals(MatrixRule.FROZEN, levels.level(MatrixMode.TIME, 42, nearly60));
    }

    /** Matrix 2.1 leaves out frames with a duration below 0 or at least Long.MAX_VALUE >>> 1. */
    @Test
    void shouldRejectOutlierDurations() {
        assertTrue(MatrixRule.isValidDuration(0));
        assertTrue(MatrixRule.isValidDuration((1L << 62) - 2));
        assertFalse(MatrixRule.isValidDuration((1L << 62) - 1));
        assertFalse(MatrixRule.isValidDuration(Long.MAX_VALUE));
        assertFalse(MatrixRule.isValidDuration(-1));
        // android/performance-samples#144: frameOverrunNanos 9222602686413166853 (a garbage TOTAL).
        assertFalse(MatrixRule.isValidDuration(9_222_602_686_413_166_853L));
    }

    @Test
    void shouldLeaveOutAFrameWhoseStageDurationIsNegative() {
        FrameInfo frame = fullFrame(0, 20_000_000L);
        assertTrue(MatrixRule.frameMetricsValid(frame));
        assertEquals(0, MatrixRule.droppedFrames(MatrixMode.V2_1, frame, 60f, true));
        frame.set(FrameInfo.ANIMATION_START, frame.get(FrameInfo.HANDLE_INPUT_START) - 1); // INPUT_HANDLING < 0
        assertFalse(MatrixRule.frameMetricsValid(frame));
        assertEquals(MatrixRule.INVALID, MatrixRule.droppedFrames(MatrixMode.V2_1, frame, 60f, true));
        // A frame known by its main times only is judged by TOTAL alone.
        FrameInfo times = new FrameInfo().setMainTimes(1_000L, 1_000L, 1_000L + 60_000_000L, 1_000L + 60_000_000L,
                16_666_667L);
        assertEquals(3, MatrixRule.droppedFrames(MatrixMode.V2_1, times, 60f, false));
        assertEquals(MatrixRule.INVALID, MatrixRule.droppedFrames(MatrixMode.V2_1, times, 60f, true));
    }

    @Test
    void shouldMeasureLegacySpansToIssueDrawCommandsStart() {
        FrameInfo frame = fullFrame(0, 100_000_000L); // issue at 60% of the frame: 60 ms
        assertEquals(3, MatrixRule.droppedFrames(MatrixMode.LEGACY, frame, 60f, true));
        assertEquals(5, MatrixRule.droppedFrames(MatrixMode.V2_1, frame, 60f, true)); // round(100/16.67 - 1)
    }

    @Test
    void shouldTakeTheRefreshRateFromConfigurationElseTheFrameInterval() {
        assertEquals(59.94f, MatrixRule.refreshHz(16_666_667L, 59.94f));
        assertEquals(1e9f / 8_333_333f, MatrixRule.refreshHz(8_333_333L, 0f));
        assertEquals(60f, MatrixRule.refreshHz(0L, 0f));
    }

    @Test
    void shouldReadFrameMetricsAsPlainDifferences() {
        FrameInfo frame = fullFrame(1_000L, 30_000_000L);
        assertEquals(30_000_000L, FrameMetric.value(frame, FrameMetric.TOTAL));
        assertEquals(FrameMetric.total(frame), FrameMetric.value(frame, FrameMetric.TOTAL));
        long sumOfStages = 0;
        for (int m = FrameMetric.UNKNOWN_DELAY; m <= FrameMetric.COMMAND_ISSUE; m++) {
            sumOfStages += FrameMetric.value(frame, m);
        }
        // UNKNOWN_DELAY..COMMAND_ISSUE cover IntendedVsync..SwapBuffers except SyncQueued..SyncStart.
        assertEquals(frame.get(FrameInfo.SWAP_BUFFERS) - frame.get(FrameInfo.INTENDED_VSYNC)
                - (frame.get(FrameInfo.SYNC_START) - frame.get(FrameInfo.SYNC_QUEUED)), sumOfStages);
        assertEquals("GPU_DURATION", FrameMetric.key(FrameMetric.GPU));
    }

    @Test
    void shouldNotAllocateOnThePerFramePath() {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        FrameInfo[] frames = new FrameInfo[64];
        for (int i = 0; i < frames.length; i++) {
            frames[i] = fullFrame(i * 16_666_667L, 5_000_000L + i * 7_000_000L);
        }
        long sink = run(frames, 200_000); // warm-up
        long before = threads.getCurrentThreadAllocatedBytes();
        sink += run(frames, 200_000);
        long bytes = threads.getCurrentThreadAllocatedBytes() - before;
        assertTrue(sink != 0);
        assertTrue(bytes < 4096, bytes + " bytes allocated for 200000 frames");
    }

    private static long run(FrameInfo[] frames, int n) {
        long sum = 0;
        MatrixLevels levels = MatrixLevels.DEFAULT;
        MatrixMode[] modes = MatrixMode.values();
        for (int i = 0; i < n; i++) {
            FrameInfo f = frames[i & 63];
            MatrixMode mode = modes[i % modes.length];
            float r = MatrixRule.refreshHz(f.get(FrameInfo.FRAME_INTERVAL), 0f);
            int d = MatrixRule.droppedFrames(mode, f, r, true);
            if (d != MatrixRule.INVALID) {
                sum += levels.level(mode, d, r) + MatrixRule.sumContribution(d)
                        + (long) MatrixRule.frameCostNanos(FrameMetric.total(f), MatrixRule.intervalNanos(r));
            }
        }
        return sum;
    }

    /** A plausible full frame of {@code total} ns starting at {@code start}, 60 Hz, stages in order. */
    static FrameInfo fullFrame(long start, long total) {
        long t = start + 1_000_000L;
        FrameInfo f = new FrameInfo();
        f.set(FrameInfo.INTENDED_VSYNC, t)
                .set(FrameInfo.VSYNC, t)
                .set(FrameInfo.FRAME_INTERVAL, 16_666_667L)
                .set(FrameInfo.FRAME_DEADLINE, t + 16_666_667L)
                .set(FrameInfo.HANDLE_INPUT_START, t + total / 20)
                .set(FrameInfo.ANIMATION_START, t + total / 10)
                .set(FrameInfo.PERFORM_TRAVERSALS_START, t + total / 5)
                .set(FrameInfo.DRAW_START, t + total * 3 / 10)
                .set(FrameInfo.SYNC_QUEUED, t + total * 2 / 5)
                .set(FrameInfo.SYNC_START, t + total * 9 / 20)
                .set(FrameInfo.ISSUE_DRAW_COMMANDS_START, t + total * 3 / 5)
                .set(FrameInfo.SWAP_BUFFERS, t + total * 4 / 5)
                .set(FrameInfo.FRAME_COMPLETED, t + total)
                .set(FrameInfo.SWAP_BUFFERS_COMPLETED, t + total * 9 / 10)
                .set(FrameInfo.COMMAND_SUBMISSION_COMPLETED, t + total * 17 / 20)
                .set(FrameInfo.GPU_COMPLETED, t + total * 19 / 20);
        return f;
    }
}
