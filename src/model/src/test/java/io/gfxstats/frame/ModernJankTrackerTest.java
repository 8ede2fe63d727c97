package io.gfxstats.frame;

import static io.gfxstats.frame.Frames.HZ120;
import static io.gfxstats.frame.Frames.HZ60;
import static io.gfxstats.frame.Frames.MS;
import static io.gfxstats.frame.Frames.frame;
import static io.gfxstats.frame.Frames.onTime;
import static io.gfxstats.frame.Frames.slowUi;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.gfxstats.stats.Counters;
import io.gfxstats.stats.Histograms;
import io.gfxstats.stats.JankType;
import io.gfxstats.stats.ProfileData;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Scenarios of spec section 3 for the Android 12+ tracker and its legacy accounting. */
class ModernJankTrackerTest {
    private static final long T = 1_000_000 * MS;

    private final List<Long> daveys = new ArrayList<>();
    private final List<FrameInfo> daveyFrames = new ArrayList<>();
    private final DaveyListener recorder = (total, frame) -> {
        daveys.add(total);
        daveyFrames.add(frame);
    };

    private ProfileData run(TrackerConfig config, FrameInfo... frames) {
        ModernJankTracker tracker = new ModernJankTracker(config, recorder);
        ProfileData data = new ProfileData();
        for (FrameInfo f : frames) {
            tracker.finishFrame(f, data);
        }
        return data;
    }

    private ProfileData run60(FrameInfo... frames) {
        return run(TrackerConfig.live(HZ60), frames);
    }

    /**
     * Counters in dump order: total, janky, janky (legacy), Missed Vsync, High input latency,
     * Slow UI thread, Slow bitmap uploads, Slow issue draw commands, Frame deadline missed,
     * Frame deadline missed (legacy).
     */
    private static void assertCounts(ProfileData d, long... expected) {
        long[] actual = {
            d.totalFrames(), d.jankyFrames(), d.jankyFramesLegacy(),
            d.jankCount(JankType.MISSED_VSYNC), d.jankCount(JankType.HIGH_INPUT_LATENCY),
            d.jankCount(JankType.SLOW_UI_THREAD), d.jankCount(JankType.SLOW_BITMAP_UPLOAD),
            d.jankCount(JankType.SLOW_DRAW), d.jankCount(JankType.MISSED_DEADLINE),
            d.jankCount(JankType.MISSED_DEADLINE_LEGACY),
        };
        assertEquals(java.util.Arrays.toString(expected), java.util.Arrays.toString(actual),
                "total, janky, jankyLegacy, missedVsync, highInputLatency, slowUi, slowBitmap, slowDraw, "
                        + "deadlineMissed, deadlineMissedLegacy");
    }

    private static long cpu(ProfileData d, int label) {
        for (int i = 0; i < Histograms.CPU_BUCKETS; i++) {
            if (Histograms.cpuLabel(i) == label) {
                return d.cpuBucket(i);
            }
        }
        throw new IllegalArgumentException("no CPU bucket " + label);
    }

    private static long gpuTotal(ProfileData d) {
        long sum = 0;
        for (int i = 0; i < Histograms.GPU_BUCKETS; i++) {
            sum += d.gpuBucket(i);
        }
        return sum;
    }

    @Test
    void shouldCountNoJankForFramesThatMeetTheirDeadlines() {
        FrameInfo[] frames = new FrameInfo[10];
        for (int k = 0; k < frames.length; k++) {
            frames[k] = onTime(T + k * HZ60);
        }
        ProfileData d = run60(frames);
        // The legacy accounting starts its swap deadline one refresh ahead and keeps it there, so
        // it counts High input latency on every frame (as Android does; the device captures show it).
        assertCounts(d, 10, 0, 0, 0, 10, 0, 0, 0, 0, 0);
        assertEquals(10, cpu(d, 7));
        assertEquals(10, d.gpuBucket(2)); // 2 ms of GPU work -> label 3 ms
        assertEquals(3, Histograms.gpuLabel(2));
        assertEquals(List.of(), daveys);
    }

    @Test
    void shouldCountALateFrameAsJankyWithItsCause() {
        FrameInfo[] frames = new FrameInfo[6];
        for (int k = 0; k < 5; k++) {
            frames[k] = onTime(T + k * HZ60);
        }
        frames[5] = slowUi(T + 5 * HZ60);
        ProfileData d = run60(frames);
        // GPU done 25 ms after vsync, deadline 16.7 ms: missed, blamed on the 20 ms UI thread
        // (threshold 8.3 ms); no other stage reached its threshold.
        assertCounts(d, 6, 1, 1, 0, 6, 1, 0, 0, 1, 0);
        assertEquals(5, cpu(d, 7));
        assertEquals(1, cpu(d, 23));
        assertEquals(6, gpuTotal(d));
    }

    @Test
    void shouldCountLegacyJankWithoutRealJankWhenTheDeadlineIsLater() {
        // The frame timeline gave this frame two intervals; it took 20 ms, longer than a refresh.
        FrameInfo f = frame(T, HZ60, 12 * MS, 7500 * MS / 1000, 2 * MS);
        f.set(FrameInfo.FRAME_DEADLINE, T + 2 * HZ60);
        ProfileData d = run60(f);
        assertCounts(d, 1, 0, 1, 0, 1, 0, 0, 0, 0, 0);
        assertEquals(1, cpu(d, 20));
    }

    @Test
    void shouldNotCountALongFrameAsJankyWhenThePipelineWasStuffed() {
        FrameInfo late = slowUi(T);
        // The next frame runs on the next vsync behind the late one and takes 20.5 ms.
        FrameInfo stuffed = frame(T + HZ60, HZ60, 10 * MS, 10 * MS, 2 * MS);
        ProfileData d = run60(late, stuffed);
        // Only the late frame is janky; the stuffed one met its deadline extended by one interval
        // and counts High input latency (plus one legacy High input latency per frame).
        assertCounts(d, 2, 1, 2, 0, 3, 1, 0, 0, 1, 0);
        assertEquals(1, cpu(d, 20));

        // On its own (nothing stuffed) the same frame misses its deadline.
        ProfileData alone = run60(frame(T + HZ60, HZ60, 10 * MS, 10 * MS, 2 * MS));
        assertEquals(1, alone.jankyFrames());
    }

    @Test
    void shouldNotExtendPrintedDeadlinesTwiceWhenReplaying() {
        FrameInfo late = slowUi(T);
        FrameInfo stuffed = frame(T + HZ60, HZ60, 10 * MS, 10 * MS, 2 * MS);
        // A device prints the deadline it already extended for the stuffed frame.
        stuffed.set(FrameInfo.FRAME_DEADLINE, T + 3 * HZ60);
        ProfileData replayed = run(TrackerConfig.replay(HZ60), late, stuffed);
        assertCounts(replayed, 2, 1, 2, 0, 3, 1, 0, 0, 1, 0);

        // A stuffed frame that misses even the extended deadline: printed T+3fi, GPU done later.
        FrameInfo veryLate = frame(T + HZ60, HZ60, 30 * MS, 5 * MS, 2 * MS);
        veryLate.set(FrameInfo.FRAME_DEADLINE, T + 3 * HZ60);
        assertEquals(2, run(TrackerConfig.replay(HZ60), slowUi(T), veryLate).jankyFrames());
        // Live, the same printed deadline would be extended once more and hide the jank.
        assertEquals(1, run(TrackerConfig.live(HZ60), slowUi(T), veryLate).jankyFrames());
    }

    @Test
    void shouldCountRealJankAfterAPauseThatUnstuffsThePipeline() {
        FrameInfo late = slowUi(T);
        FrameInfo stuffed = frame(T + HZ60, HZ60, 10 * MS, 10 * MS, 2 * MS);
        FrameInfo afterPause = slowUi(T + 100 * HZ60);
        ProfileData d = run60(late, stuffed, afterPause);
        assertEquals(2, d.jankyFrames());
        assertEquals(2, d.jankCount(JankType.MISSED_DEADLINE));
        assertEquals(2, d.jankCount(JankType.SLOW_UI_THREAD));

        // Without the pause, the third late frame is still behind a stuffed pipeline: not janky.
        ProfileData noPause = run60(slowUi(T), frame(T + HZ60, HZ60, 10 * MS, 10 * MS, 2 * MS),
                slowUi(T + 2 * HZ60));
        assertEquals(1, noPause.jankyFrames());
        // High input latency: the two stuffed frames, plus one per frame from the legacy accounting.
        assertEquals(2 + 3, noPause.jankCount(JankType.HIGH_INPUT_LATENCY));
    }

    @Test
    void shouldCountSurfaceCanvasFramesOnlyInTheCpuHistogram() {
        FrameInfo canvas = slowUi(T);
        canvas.set(FrameInfo.FLAGS, FrameInfo.FLAG_SURFACE_CANVAS);
        ProfileData d = run60(canvas);
        assertCounts(d, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0);
        assertEquals(1, cpu(d, 23));
        assertEquals(0, gpuTotal(d));

        // Nor does it move the tracker: the frames around it count as without it.
        ProfileData without = run60(onTime(T), slowUi(T + HZ60), onTime(T + 2 * HZ60), slowUi(T + 4 * HZ60));
        FrameInfo canvasLate = slowUi(T + 3 * HZ60);
        canvasLate.set(FrameInfo.FLAGS, FrameInfo.FLAG_SURFACE_CANVAS | FrameInfo.FLAG_RT_ANIMATION);
        ProfileData with = run60(onTime(T), slowUi(T + HZ60), onTime(T + 2 * HZ60), canvasLate,
                slowUi(T + 4 * HZ60));
        without.increment(Counters.TOTAL_FRAMES);
        without.increment(Counters.cpuCounterForNanos(23_500_000));
        assertEquals(without, with);

        FrameInfo longCanvas = frame(T, HZ60, 800 * MS, 3 * MS, 2 * MS);
        longCanvas.set(FrameInfo.FLAGS, FrameInfo.FLAG_SURFACE_CANVAS);
        run60(longCanvas);
        assertEquals(List.of(), daveys, "SurfaceCanvas frames are exempt from Davey reports too");
    }

    @Test
    void shouldIgnoreFramesWithoutADuration() {
        FrameInfo unset = onTime(T);
        unset.set(FrameInfo.INTENDED_VSYNC, 0);
        FrameInfo backwards = onTime(T);
        backwards.set(FrameInfo.FRAME_COMPLETED, T - MS);
        ProfileData d = run60(unset, backwards);
        assertEquals(0, d.totalFrames());
        assertEquals(0, d.jankyFrames());
    }

    @Test
    void shouldNotBlameAStageThatTookTenSecondsOrMore() {
        // UI thread stuck 12 s (a suspended process): janky, but not "Slow UI thread".
        ProfileData stuck = run60(frame(T, HZ60, 12_000 * MS, 3 * MS, 2 * MS));
        assertCounts(stuck, 1, 1, 1, 0, 0, 0, 0, 0, 1, 1);
        assertEquals(1, cpu(stuck, 4950));

        ProfileData justUnder = run60(frame(T, HZ60, 10_000 * MS - 1, 3 * MS, 2 * MS));
        assertEquals(1, justUnder.jankCount(JankType.SLOW_UI_THREAD));
        ProfileData exactly = run60(frame(T, HZ60, 10_000 * MS, 3 * MS, 2 * MS));
        assertEquals(0, exactly.jankCount(JankType.SLOW_UI_THREAD));

        // Missed Vsync by 11 s: not counted; by one nanosecond: counted.
        FrameInfo vsyncLate = frame(T, HZ60, 20 * MS, 3 * MS, 2 * MS);
        vsyncLate.set(FrameInfo.VSYNC, T + 11_000 * MS);
        assertEquals(0, run60(vsyncLate).jankCount(JankType.MISSED_VSYNC));
        FrameInfo vsyncJustLate = frame(T, HZ60, 20 * MS, 3 * MS, 2 * MS);
        vsyncJustLate.set(FrameInfo.VSYNC, T + 1);
        assertEquals(1, run60(vsyncJustLate).jankCount(JankType.MISSED_VSYNC));
    }

    @Test
    void shouldReportDaveysOfSevenHundredMillisecondsOrMore() {
        FrameInfo davey = frame(T, HZ60, 700 * MS - MS / 2, 0, 2 * MS);
        FrameInfo almost = frame(T + 100 * HZ60, HZ60, 700 * MS - MS / 2 - 1, 0, 2 * MS);
        run60(davey, almost);
        assertEquals(List.of(700 * MS), daveys);
        assertSame(davey, daveyFrames.get(0));
        String line = davey.describe();
        for (int i = 0; i < FrameInfo.FIELD_COUNT; i++) {
            org.junit.jupiter.api.Assertions.assertTrue(line.contains(FrameInfo.name(i) + "=" + davey.get(i)), line);
        }
    }

    @Test
    void shouldTakeTheIntervalFromTheFrameNotFromTheConfiguredRefresh() {
        // A 120 Hz frame on a tracker whose display is configured at 60 Hz: 12.5 ms total with
        // 6 ms of UI work misses its 8.3 ms deadline and is blamed on the UI thread (threshold 4.2 ms).
        FrameInfo fast = frame(T, HZ120, 6 * MS, 6 * MS, 2 * MS);
        ProfileData d = run(TrackerConfig.live(HZ60), fast);
        assertEquals(1, d.jankyFrames());
        assertEquals(1, d.jankCount(JankType.SLOW_UI_THREAD));
        assertEquals(0, d.jankyFramesLegacy(), "legacy accounting uses the configured 60 Hz refresh");

        // The same work at 60 Hz is on time.
        ProfileData slow = run(TrackerConfig.live(HZ60), frame(T, HZ60, 6 * MS, 6 * MS, 2 * MS));
        assertEquals(0, slow.jankyFrames());

        // Legacy accounting follows the configured refresh: at 120 Hz the 12.5 ms frame is legacy-janky.
        ProfileData at120 = run(TrackerConfig.live(HZ120), frame(T, HZ60, 6 * MS, 6 * MS, 2 * MS));
        assertEquals(1, at120.jankyFramesLegacy());
        assertEquals(0, at120.jankyFrames());
    }

    @Test
    void shouldFallBackToTheConfiguredIntervalForFramesWithoutOne() {
        FrameInfo noInterval = frame(T, HZ120, 6 * MS, 6 * MS, 2 * MS);
        noInterval.set(FrameInfo.FRAME_INTERVAL, 0);
        ProfileData at120 = run(new TrackerConfig(HZ60, HZ120, 0, false), noInterval);
        assertEquals(1, at120.jankCount(JankType.SLOW_UI_THREAD), "threshold 0.5 * 8.3 ms");
        ProfileData at60 = run(new TrackerConfig(HZ60, HZ60, 0, false), noInterval);
        assertEquals(0, at60.jankCount(JankType.SLOW_UI_THREAD), "threshold 0.5 * 16.7 ms");
        assertEquals(1, at60.jankyFrames());
    }

    @Test
    void shouldChargeTheRenderThreadStallToThePreviousFrame() {
        // 10 ms of the UI thread's time is spent waiting for the render thread (SyncQueued ->
        // SyncStart); the frame's total leaves it out.
        FrameInfo f = frame(T, HZ60, 4 * MS, 3 * MS, 2 * MS);
        long stall = 10 * MS;
        for (int field = FrameInfo.SYNC_START; field < FrameInfo.FIELD_COUNT; field++) {
            if (field != FrameInfo.DEQUEUE_BUFFER_DURATION && field != FrameInfo.QUEUE_BUFFER_DURATION
                    && f.get(field) > 0) {
                f.set(field, f.get(field) + stall);
            }
        }
        assertEquals(7_500_000, f.duration(FrameInfo.INTENDED_VSYNC, FrameInfo.FRAME_COMPLETED));
        // Spans that cross SyncQueued leave the stall out as well; spans after it keep it.
        assertEquals(4 * MS, f.duration(FrameInfo.VSYNC, FrameInfo.SYNC_START));
        assertEquals(4 * MS, f.duration(FrameInfo.VSYNC, FrameInfo.SYNC_QUEUED));
        assertEquals(stall, f.duration(FrameInfo.SYNC_QUEUED, FrameInfo.SYNC_START));
        ProfileData d = run60(f);
        assertEquals(1, cpu(d, 7));
        // The deadline is absolute: the frame still completes late and is janky, but the stall is
        // not blamed on its UI thread (4 ms) or anything else, nor counted by the legacy accounting.
        assertCounts(d, 1, 1, 0, 0, 1, 0, 0, 0, 1, 0);
    }

    @Test
    void shouldApplyDequeueForgivenessToTheLegacyAccountingOnlyWhenConfigured() {
        // 18.5 ms to swap completion, 5 ms of it blocked in dequeueBuffer.
        FrameInfo f = frame(T, HZ60, 12 * MS, 6 * MS, 2 * MS);
        f.set(FrameInfo.DEQUEUE_BUFFER_DURATION, 5 * MS);
        f.set(FrameInfo.FRAME_DEADLINE, T + 2 * HZ60);
        assertEquals(1, run(TrackerConfig.live(HZ60), f).jankyFramesLegacy());
        assertEquals(0, run(TrackerConfig.live(HZ60).withDequeueForgiveness(3 * MS), f).jankyFramesLegacy());
    }
}
