package io.gfxstats.frame;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.gfxstats.stats.Histograms;
import io.gfxstats.stats.JankType;
import io.gfxstats.stats.ProfileData;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The production trackers against {@link ReferenceJankModel}, frame by frame: after every frame
 * of a long seeded random sequence, every counter, both histograms and the Davey reports must be
 * identical.
 *
 * <p>Every {@value #EPISODE} frames both sides start a fresh tracker (as for a new window) that
 * keeps counting into the same totals: one garbage timestamp near 2^58 can leave a tracker's
 * deadline state in the far future for good (as on Android), and the rest of the sequence would
 * then exercise little.
 */
class TrackerMatchesReferenceTest {
    private static final int FRAMES = 6000;
    private static final int EPISODE = 1000;

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 5, 8, 13, 21, 34, 55, 89})
    void shouldMatchReferenceFrameByFrameForModernTrackerLive(long seed) {
        long refresh = RandomFrames.INTERVALS[(int) (seed % 3)];
        runModern(seed, TrackerConfig.live(refresh), false);
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {4, 9, 16, 25, 36, 49, 64, 81, 100, 121})
    void shouldMatchReferenceFrameByFrameForModernTrackerReplay(long seed) {
        long refresh = RandomFrames.INTERVALS[(int) (seed % 3)];
        runModern(seed, TrackerConfig.replay(refresh), true);
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {7, 11, 17, 19, 23, 29, 31, 37, 41, 43})
    void shouldMatchReferenceFrameByFrameForAndroid9Tracker(long seed) {
        long refresh = RandomFrames.INTERVALS[(int) (seed % 3)];
        boolean sixteenColumns = seed % 2 == 1;
        RandomFrames frames = new RandomFrames(seed);
        List<Long> daveys = new ArrayList<>();
        List<Long> referenceDaveys = new ArrayList<>();
        ReferenceJankModel.Counts counts = new ReferenceJankModel.Counts();
        ProfileData data = new ProfileData();
        FrameInfo info = new FrameInfo();
        Android9JankTracker tracker = null;
        ReferenceJankModel.Android9 reference = null;
        for (int i = 0; i < FRAMES; i++) {
            if (i % EPISODE == 0) {
                tracker = new Android9JankTracker(TrackerConfig.live(refresh), (total, f) -> daveys.add(total));
                reference = new ReferenceJankModel.Android9(counts, referenceDaveys, refresh);
            }
            long[] f = frames.next();
            if (sixteenColumns) {
                // Android 9 rows have no deadline, interval, GPU or swap-completed times.
                f[ReferenceJankModel.FRAME_DEADLINE] = 0;
                f[ReferenceJankModel.FRAME_INTERVAL] = 0;
                f[ReferenceJankModel.GPU_COMPLETED] = 0;
                f[ReferenceJankModel.SWAP_BUFFERS_COMPLETED] = 0;
            }
            tracker.finishFrame(RandomFrames.toFrameInfo(f, info), data);
            reference.frame(f);
            compare("seed " + seed + " frame " + i + " " + Arrays.toString(f), counts, data);
            assertEquals(referenceDaveys, daveys, "Davey reports, seed " + seed + " frame " + i);
        }
        assertCovered(counts.jankyFrames, counts.highInputLatency, counts.frameDeadlineMissed, counts.missedVsync,
                counts.slowUiThread, counts.slowBitmapUploads, counts.slowIssueDrawCommands, referenceDaveys.size());
    }

    private static void runModern(long seed, TrackerConfig config, boolean replay) {
        RandomFrames frames = new RandomFrames(seed);
        List<Long> daveys = new ArrayList<>();
        List<Long> referenceDaveys = new ArrayList<>();
        ReferenceJankModel.Counts counts = new ReferenceJankModel.Counts();
        ProfileData data = new ProfileData();
        FrameInfo info = new FrameInfo();
        ModernJankTracker tracker = null;
        ReferenceJankModel.Modern reference = null;
        for (int i = 0; i < FRAMES; i++) {
            if (i % EPISODE == 0) {
                tracker = new ModernJankTracker(config, (total, f) -> daveys.add(total));
                reference = new ReferenceJankModel.Modern(counts, referenceDaveys, config.refreshIntervalNanos(),
                        config.defaultFrameIntervalNanos(), replay);
            }
            long[] f = frames.next();
            tracker.finishFrame(RandomFrames.toFrameInfo(f, info), data);
            reference.frame(f);
            compare("seed " + seed + " frame " + i + " " + Arrays.toString(f), counts, data);
            assertEquals(referenceDaveys, daveys, "Davey reports, seed " + seed + " frame " + i);
        }
        assertCovered(counts.jankyFrames, counts.jankyFramesLegacy, counts.highInputLatency,
                counts.frameDeadlineMissed, counts.frameDeadlineMissedLegacy, counts.missedVsync, counts.slowUiThread,
                counts.slowBitmapUploads, counts.slowIssueDrawCommands, referenceDaveys.size());
        assertTrue(counts.gpu.get(4950) > 0 && counts.cpu.get(4950) > 0 && counts.cpu.get(150) > 0,
                "histogram ends reached: " + counts.cpu + " gpu " + counts.gpu);
    }

    /** The sequences must exercise every counter, or agreement proves little. */
    private static void assertCovered(long... counts) {
        for (int i = 0; i < counts.length; i++) {
            assertTrue(counts[i] > 0, "counter #" + i + " never counted: the random frames miss a branch");
        }
    }

    private static void compare(String where, ReferenceJankModel.Counts ref, ProfileData data) {
        List<String> diffs = new ArrayList<>();
        check(diffs, "total", ref.totalFrames, data.totalFrames());
        check(diffs, "janky", ref.jankyFrames, data.jankyFrames());
        check(diffs, "janky legacy", ref.jankyFramesLegacy, data.jankyFramesLegacy());
        check(diffs, "missed vsync", ref.missedVsync, data.jankCount(JankType.MISSED_VSYNC));
        check(diffs, "high input latency", ref.highInputLatency, data.jankCount(JankType.HIGH_INPUT_LATENCY));
        check(diffs, "slow ui", ref.slowUiThread, data.jankCount(JankType.SLOW_UI_THREAD));
        check(diffs, "slow bitmap", ref.slowBitmapUploads, data.jankCount(JankType.SLOW_BITMAP_UPLOAD));
        check(diffs, "slow draw", ref.slowIssueDrawCommands, data.jankCount(JankType.SLOW_DRAW));
        check(diffs, "deadline missed", ref.frameDeadlineMissed, data.jankCount(JankType.MISSED_DEADLINE));
        check(diffs, "deadline missed legacy", ref.frameDeadlineMissedLegacy,
                data.jankCount(JankType.MISSED_DEADLINE_LEGACY));
        for (int i = 0; i < Histograms.CPU_BUCKETS; i++) {
            Long expected = ref.cpu.get(Histograms.cpuLabel(i));
            check(diffs, "cpu " + Histograms.cpuLabel(i) + "ms", expected == null ? -1 : expected, data.cpuBucket(i));
        }
        for (int i = 0; i < Histograms.GPU_BUCKETS; i++) {
            Long expected = ref.gpu.get(Histograms.gpuLabel(i));
            check(diffs, "gpu " + Histograms.gpuLabel(i) + "ms", expected == null ? -1 : expected, data.gpuBucket(i));
        }
        if (!diffs.isEmpty()) {
            fail(where + ": " + diffs);
        }
    }

    private static void check(List<String> diffs, String what, long expected, long actual) {
        if (expected != actual) {
            diffs.add(what + " reference=" + expected + " production=" + actual);
        }
    }
}
