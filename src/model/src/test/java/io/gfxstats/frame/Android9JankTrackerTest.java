package io.gfxstats.frame;

import static io.gfxstats.frame.Frames.HZ120;
import static io.gfxstats.frame.Frames.HZ60;
import static io.gfxstats.frame.Frames.MS;
import static io.gfxstats.frame.Frames.frame;
import static io.gfxstats.frame.Frames.onTime;
import static io.gfxstats.frame.Frames.slowUi;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.gfxstats.stats.Histograms;
import io.gfxstats.stats.JankType;
import io.gfxstats.stats.ProfileData;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Scenarios for the Android 9 tracker (16-column input: no deadline, interval or GPU time). */
class Android9JankTrackerTest {
    private static final long T = 1_000_000 * MS;
    private final List<Long> daveys = new ArrayList<>();

    /** Strips what 16-column rows do not have. */
    private static FrameInfo old(FrameInfo f) {
        f.set(FrameInfo.FRAME_DEADLINE, 0);
        f.set(FrameInfo.FRAME_INTERVAL, 0);
        f.set(FrameInfo.FRAME_START_TIME, 0);
        f.set(FrameInfo.GPU_COMPLETED, 0);
        f.set(FrameInfo.SWAP_BUFFERS_COMPLETED, 0);
        f.set(FrameInfo.DISPLAY_PRESENT_TIME, 0);
        f.set(FrameInfo.COMMAND_SUBMISSION_COMPLETED, 0);
        return f;
    }

    private ProfileData run(long refresh, FrameInfo... frames) {
        Android9JankTracker tracker = new Android9JankTracker(TrackerConfig.live(refresh), (t, f) -> daveys.add(t));
        ProfileData data = new ProfileData();
        for (FrameInfo f : frames) {
            tracker.finishFrame(old(f), data);
        }
        return data;
    }

    /** total, janky, Missed Vsync, High input latency, Slow UI, Slow bitmap, Slow draw, Deadline missed. */
    private static void assertCounts(ProfileData d, long... expected) {
        long[] actual = {
            d.totalFrames(), d.jankyFrames(), d.jankCount(JankType.MISSED_VSYNC),
            d.jankCount(JankType.HIGH_INPUT_LATENCY), d.jankCount(JankType.SLOW_UI_THREAD),
            d.jankCount(JankType.SLOW_BITMAP_UPLOAD), d.jankCount(JankType.SLOW_DRAW),
            d.jankCount(JankType.MISSED_DEADLINE),
        };
        assertEquals(Arrays.toString(expected), Arrays.toString(actual),
                "total, janky, missedVsync, highInputLatency, slowUi, slowBitmap, slowDraw, deadlineMissed");
        assertEquals(0, d.jankyFramesLegacy());
        assertEquals(0, d.jankCount(JankType.MISSED_DEADLINE_LEGACY));
        for (int i = 0; i < Histograms.GPU_BUCKETS; i++) {
            assertEquals(0, d.gpuBucket(i), "the Android 9 tracker has no GPU histogram");
        }
    }

    @Test
    void shouldCountNoJankForFramesWithinOneRefresh() {
        FrameInfo[] frames = new FrameInfo[10];
        for (int k = 0; k < frames.length; k++) {
            frames[k] = onTime(T + k * HZ60);
        }
        assertCounts(run(HZ60, frames), 10, 0, 0, 0, 0, 0, 0, 0);
    }

    @Test
    void shouldCountALateFrameWithItsCause() {
        ProfileData d = run(HZ60, onTime(T), onTime(T + HZ60), slowUi(T + 2 * HZ60));
        assertCounts(d, 3, 1, 0, 0, 1, 0, 0, 1);
    }

    @Test
    void shouldCountHighInputLatencyBehindALateFrame() {
        // After the late frame the swap deadline is two refreshes out: the next on-time frame is
        // queued behind it (High input latency), and is not janky.
        ProfileData d = run(HZ60, slowUi(T), onTime(T + HZ60));
        assertCounts(d, 2, 1, 0, 1, 1, 0, 0, 1);
    }

    @Test
    void shouldCountALongStuffedFrameAsJankyButNotAsAMissedDeadline() {
        // Android 9 calls every frame longer than a refresh janky, whatever the pipeline state.
        ProfileData d = run(HZ60, slowUi(T), frame(T + HZ60, HZ60, 10 * MS, 10 * MS, 0));
        assertCounts(d, 2, 2, 0, 1, 1, 0, 0, 1);
    }

    @Test
    void shouldCountAMissedDeadlineAgainAfterAPause() {
        ProfileData d = run(HZ60, slowUi(T), onTime(T + HZ60), slowUi(T + 100 * HZ60));
        assertCounts(d, 3, 2, 0, 1, 2, 0, 0, 2);
    }

    @Test
    void shouldCountSurfaceCanvasFramesOnlyInTheHistogram() {
        FrameInfo canvas = slowUi(T);
        canvas.set(FrameInfo.FLAGS, FrameInfo.FLAG_SURFACE_CANVAS);
        FrameInfo longCanvas = frame(T + 10 * HZ60, HZ60, 900 * MS, 0, 0);
        longCanvas.set(FrameInfo.FLAGS, FrameInfo.FLAG_SURFACE_CANVAS);
        ProfileData d = run(HZ60, canvas, longCanvas, onTime(T + 100 * HZ60));
        assertCounts(d, 3, 0, 0, 0, 0, 0, 0, 0);
        assertEquals(List.of(), daveys);
    }

    @Test
    void shouldJudgeFramesAgainstTheConfiguredRefresh() {
        // 12.5 ms: janky at 120 Hz, with 6 ms UI (threshold 4.2 ms) and 6.3 ms issuing draw
        // commands (threshold 6.25 ms) to blame; fine at 60 Hz.
        assertCounts(run(HZ120, frame(T, HZ60, 6 * MS, 6 * MS, 0)), 1, 1, 0, 0, 1, 0, 1, 1);
        assertCounts(run(HZ60, frame(T, HZ60, 6 * MS, 6 * MS, 0)), 1, 0, 0, 0, 0, 0, 0, 0);
    }

    @Test
    void shouldNotBlameAStageThatTookTenSecondsOrMore() {
        ProfileData d = run(HZ60, frame(T, HZ60, 10_000 * MS, 3 * MS, 0));
        assertCounts(d, 1, 1, 0, 0, 0, 0, 0, 1);
        ProfileData under = run(HZ60, frame(T, HZ60, 10_000 * MS - 1, 3 * MS, 0));
        assertCounts(under, 1, 1, 0, 0, 1, 0, 0, 1);
        assertEquals(List.of(10_003_500_000L, 10_003_499_999L), daveys);
    }
}
