package io.gfxstats.scene;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gfxstats.buffer.SceneGroup;
import io.gfxstats.buffer.StripeWriter;
import io.gfxstats.frame.FrameInfo;
import io.gfxstats.matrix.FrameMetric;
import io.gfxstats.matrix.Matrix21Slice;
import io.gfxstats.matrix.MatrixDevice;
import io.gfxstats.matrix.MatrixLevels;
import io.gfxstats.matrix.MatrixMode;
import io.gfxstats.matrix.MatrixRule;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class SceneFrameCounterTest {
    private static void same(float d) {
        if (SceneFrameCounter.round(d) != Math.round(d)) {
            assertEquals(Math.round(d), SceneFrameCounter.round(d), "round(" + d + ") bits " + Float.floatToIntBits(d));
        }
    }

    @Test
    void shouldRoundExactlyAsMathRoundForEveryNonNegativeDroppedFrameCount() {
        for (int bits = Float.floatToIntBits(0.25f); bits <= Float.floatToIntBits(64f); bits++) {
            same(Float.intBitsToFloat(bits));
        }
        for (int k = 0; k < 1 << 24; k++) {
            float half = k + 0.5f;
            float f = half;
            for (int i = 0; i < 4; i++) {
                same(f);
                f = Math.nextDown(f);
            }
            f = half;
            for (int i = 0; i < 4; i++) {
                same(f);
                f = Math.nextUp(f);
            }
        }
        for (float f : new float[] {0f, Float.MIN_VALUE, 0.49999997f, 0.5f, 1e-30f, 2.1474836E9f, 3e9f, 1e38f,
                Float.MAX_VALUE, Float.POSITIVE_INFINITY}) {
            same(f);
        }
        SplittableRandom random = new SplittableRandom(17);
        for (int i = 0; i < 10_000_000; i++) {
            same(Float.intBitsToFloat(random.nextInt(0, 0x7f800001)));
        }
    }

    @Test
    void shouldFindTheLargestTotalThatJavaComparesAsAtMostTheInterval() {
        SplittableRandom random = new SplittableRandom(3);
        for (int n = 0; n < 200_000; n++) {
            float i = n < 1000 ? MatrixRule.intervalNanos(1f + n * 0.25f)
                    : Float.intBitsToFloat(random.nextInt(Float.floatToIntBits(1f), Float.floatToIntBits(0x1p63f) + 8));
            long t = SceneFrameCounter.largestAtMost(i);
            assertTrue(t <= i, () -> t + " <= " + i);
            assertTrue(t == Long.MAX_VALUE || !(t + 1 <= i), () -> (t + 1) + " > " + i);
        }
        assertEquals(Long.MAX_VALUE, SceneFrameCounter.largestAtMost(Float.POSITIVE_INFINITY));
    }

    /**
     * The short path for frames within one interval against the rule computed in full, frame by
     * frame, around the boundary and at random, for every mode and several refresh rates.
     */
    @Test
    void shouldCountEveryFrameAsTheFullMatrixRuleDoes() {
        SplittableRandom random = new SplittableRandom(11);
        long[] intervals = {0, 16_666_667, 16_666_666, 8_333_333, 11_111_111, 6_944_444, 1_000_000_000, 7};
        for (MatrixMode mode : MatrixMode.values()) {
            for (float configured : new float[] {0f, 90f}) {
                for (long interval : intervals) {
                    StripeWriter stripe = StripeWriter.inMemory();
                    stripe.selectScene(1);
                    SceneFrameCounter counter = new SceneFrameCounter(mode, MatrixLevels.DEFAULT, configured);
                    long[] expected = new long[SceneGroup.COUNTERS + SceneGroup.SUMS];
                    float hz = MatrixRule.refreshHz(interval, configured);
                    float i = MatrixRule.intervalNanos(hz);
                    long near = (long) i;
                    for (int f = 0; f < 4000; f++) {
                        long total = f < 64 ? near - 32 + f : random.nextLong(1, 4 * Math.max(near, 2));
                        counter.count(1_000_000_000L, 1_000_000_000L + total, interval, stripe);
                        if (total >= 0) { // a total of 0 counts, as in Matrix 2.1; a negative one does not
                            expect(expected, mode, total, interval, hz, i);
                        }
                    }
                    for (int field = 0; field < SceneGroup.COUNTERS; field++) {
                        if (field >= SceneGroup.MIRRORED) {
                            int fld = field;
                            // Exact: the level sums pass 2^32 here (a 7 ns interval), 64 bits since group version 2.
                            assertEquals(expected[field], stripe.contributionOf(SceneGroup.vectorCounter(1, field)),
                                    () -> mode + " " + configured + " Hz " + interval + " ns: counter " + fld);
                        }
                    }
                    for (int field = 0; field < SceneGroup.SUMS; field++) {
                        int fld = field;
                        assertEquals(expected[SceneGroup.COUNTERS + field],
                                stripe.contributionOf(SceneGroup.vectorSum(1, field)),
                                () -> mode + " " + configured + " Hz " + interval + " ns: sum " + fld);
                    }
                    if (mode == MatrixMode.V2_1 && near > 64) { // frames within one interval were among them
                        assertFalse(expected[SceneGroup.LEVEL_COUNT_BASE + MatrixRule.BEST] == 0);
                    }
                    stripe.release();
                }
            }
        }
    }

    @Test
    void shouldSumRefreshRatesSoThatTheMeanTruncatesAsMatrixsDoes() {
        // 1e9 / 8,333,334 ns = 119.99999 Hz in float: Matrix 2.1 prints REFRESH_RATE 119.
        float hz = MatrixRule.refreshHz(8_333_334L, 0f);
        Matrix21Slice offline = new Matrix21Slice(MatrixLevels.DEFAULT);
        FrameInfo frame = new FrameInfo();
        // A 5 ms frame whose stages all start 1 ms after IntendedVsync (every duration valid).
        for (int field : new int[] {FrameInfo.HANDLE_INPUT_START, FrameInfo.ANIMATION_START,
                FrameInfo.PERFORM_TRAVERSALS_START, FrameInfo.DRAW_START, FrameInfo.SYNC_QUEUED, FrameInfo.SYNC_START,
                FrameInfo.ISSUE_DRAW_COMMANDS_START, FrameInfo.SWAP_BUFFERS}) {
            frame.set(field, 2_000_000L);
        }
        frame.set(FrameInfo.INTENDED_VSYNC, 1_000_000L);
        frame.set(FrameInfo.FRAME_COMPLETED, 6_000_000L);
        for (int f = 0; f < 100; f++) {
            offline.append(frame, hz, false);
        }
        assertEquals(119, offline.report(MatrixDevice.UNKNOWN, "s", "p", 0, false).refreshRate());
        SceneFrameCounter counter = new SceneFrameCounter(MatrixMode.V2_1, MatrixLevels.DEFAULT, 0f);
        counter.useInterval(8_333_334L);
        assertEquals(119_999L, counter.refreshMilliHz());
        // The live report's mean of 100 such frames, as the daemon's reader divides the milli-Hz sum.
        assertEquals(119, (int) (float) (100 * counter.refreshMilliHz() / 1000.0 / 100));
        // Whole rates stay whole.
        counter.useInterval(0L);
        assertEquals(60_000L, counter.refreshMilliHz());
    }

    /**
     * Frames Matrix 2.1 counts although Android's counters leave them out or call them unusual: a
     * total of 0 ns, a total of two hours and GPU durations of 0 and below. The live counter adds
     * them as the offline replay ({@link Matrix21Slice}) does, stage by stage.
     */
    @Test
    void shouldCountZeroNanosecondAndHourLongFramesAndGpuDurationsOfZeroOrBelowAsMatrixDoes() {
        long[][] frames = { // total, GPU duration
            {0L, 0L}, {7_200_000_000_000L, 3_000_000L}, {12_000_000L, -4_000_000L}, {5_000_000L, 0L}, {0L, -1L},
        };
        StripeWriter stripe = StripeWriter.inMemory();
        stripe.selectScene(1);
        SceneFrameCounter counter = new SceneFrameCounter(MatrixMode.V2_1, MatrixLevels.DEFAULT, 0f);
        Matrix21Slice offline = new Matrix21Slice(MatrixLevels.DEFAULT);
        long gpuSum = 0;
        for (long[] f : frames) {
            FrameInfo frame = frame(f[0], f[1]);
            counter.count(frame, stripe);
            assertTrue(offline.append(frame, MatrixRule.refreshHz(16_666_667L, 0f), true));
            gpuSum += f[1];
        }
        assertEquals(frames.length, stripe.contributionOf(SceneGroup.vectorCounter(1, SceneGroup.MATRIX_FRAMES)));
        assertEquals(gpuSum, stripe.contributionOf(SceneGroup.vectorSum(1, SceneGroup.STAGE_BASE + FrameMetric.GPU)));
        assertEquals(7_200_017_000_000L,
                stripe.contributionOf(SceneGroup.vectorSum(1, SceneGroup.STAGE_BASE + SceneGroup.TOTAL_STAGE)));
        // The two-hour frame is FROZEN, the others BEST, as the offline slice has them.
        assertEquals(1, stripe.contributionOf(SceneGroup.vectorCounter(1, SceneGroup.LEVEL_COUNT_BASE + MatrixRule.FROZEN)));
        assertEquals(4, stripe.contributionOf(SceneGroup.vectorCounter(1, SceneGroup.LEVEL_COUNT_BASE + MatrixRule.BEST)));
        assertEquals(frames.length, offline.count());
        stripe.release();
    }

    /** A frame of {@code total} ns whose stages all take 0 ns but the last, with {@code gpu} ns of GPU. */
    private static FrameInfo frame(long total, long gpu) {
        FrameInfo frame = new FrameInfo();
        long start = 1_000_000_000L;
        for (int field = 0; field < FrameInfo.FIELD_COUNT; field++) {
            frame.set(field, start);
        }
        frame.set(FrameInfo.FLAGS, 0L);
        frame.set(FrameInfo.FRAME_INTERVAL, 16_666_667L);
        frame.set(FrameInfo.FRAME_COMPLETED, start + total);
        frame.set(FrameInfo.SWAP_BUFFERS_COMPLETED, start + total);
        frame.set(FrameInfo.COMMAND_SUBMISSION_COMPLETED, start + total);
        frame.set(FrameInfo.GPU_COMPLETED, start + total + gpu);
        return frame;
    }

    private static void expect(long[] v, MatrixMode mode, long total, long interval, float hz, float i) {
        float dropped = MatrixRule.droppedFrames(total, i);
        int whole = mode == MatrixMode.LEGACY
                ? MatrixRule.legacyDroppedFrames(total, interval > 0 ? interval : (long) i)
                : Math.round(dropped);
        int level = MatrixLevels.DEFAULT.level(mode, whole, hz);
        v[SceneGroup.MATRIX_FRAMES]++;
        v[SceneGroup.LEVEL_COUNT_BASE + level]++;
        v[SceneGroup.LEVEL_SUM_BASE + level] += MatrixRule.sumContribution(whole);
        int sums = SceneGroup.COUNTERS;
        v[sums + SceneGroup.COST_NANOS] += (long) MatrixRule.frameCostNanos(total, i);
        v[sums + SceneGroup.DROPPED_Q20] += (long) (dropped * SceneGroup.DROPPED_SCALE);
        v[sums + SceneGroup.REFRESH_MILLIHZ] += (long) (hz * 1000.0);
        v[sums + SceneGroup.STAGE_BASE + SceneGroup.TOTAL_STAGE] += total;
    }
}
