package io.gfxstats.timeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gfxstats.timeline.wayland.PresentationFeedback;
import io.gfxstats.timeline.wayland.VsyncGrid;
import java.lang.management.ManagementFactory;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class TimelineRecorderTest {
    private static final long MS = 1_000_000L;
    private static final long REFRESH = 16_666_667L;
    private static final int ALL_FLAGS = PresentationFeedback.KIND_VSYNC | PresentationFeedback.KIND_HW_CLOCK
            | PresentationFeedback.KIND_HW_COMPLETION;

    /**
     * The client API counts what the offline classifier gives for the same frames in client-only
     * mode (a display frame presented on time at the frame's present, so its jank is None), with
     * the recorder's latch estimate given to the offline classifier as the last latch time.
     */
    @Test
    void shouldCountWhatTheOfflineClassifierGivesForTheSameFrames() {
        SplittableRandom r = new SplittableRandom(7);
        TimelineCounters recorded = new TimelineCounters();
        TimelineRecorder recorder = new TimelineRecorder(Thresholds.ANDROID_16_LEGACY, recorded, 8, 0);
        TimelineCounters offline = new TimelineCounters();
        FrameTimelineClassifier classifier = new FrameTimelineClassifier(Thresholds.ANDROID_16_LEGACY);
        TimelineFrame frame = new TimelineFrame();
        long prevPp = Long.MIN_VALUE;
        long prevAp = Long.MIN_VALUE;
        long vsync = 1_000 * MS;
        for (int i = 0; i < 20_000; i++) {
            // Now and then two frames target the same vsync: the queue is stuffed.
            vsync += r.nextInt(6) == 0 ? 0 : REFRESH;
            long ps = vsync - 2 * REFRESH + MS;
            long pe = vsync - REFRESH + MS;
            long as = ps + r.nextLong(-2 * MS, 3 * MS);
            long ae = pe + r.nextLong(-8 * MS, 12 * MS);
            long ap = vsync + (r.nextInt(3) == 0 ? r.nextInt(3) * REFRESH + r.nextLong(-3 * MS, 3 * MS) : 0);
            recorder.commit(frame.token(i).predicted(ps, pe, vsync).actual(as, ae));
            boolean drop = r.nextInt(20) == 0;
            SurfaceFrame sf = new SurfaceFrame();
            long latch = prevAp != Long.MIN_VALUE && prevPp > vsync - 2 * MS ? prevAp - (REFRESH - MS) : 0;
            sf.set(i, Prediction.VALID, ps, pe, vsync, as, ae, drop ? PresentState.DROPPED : PresentState.PRESENTED,
                    Math.max(latch, 0));
            if (drop) {
                assertTrue(recorder.discarded(i, REFRESH));
                classifier.classify(sf, vsync, JankType.NONE, REFRESH, REFRESH);
            } else {
                assertTrue(recorder.presented(i, ap, REFRESH, ALL_FLAGS, i));
                classifier.classify(sf, ap, JankType.NONE, REFRESH, REFRESH);
                prevPp = vsync;
                prevAp = ap;
            }
            offline.add(sf, false);
        }
        assertEquals(offline, recorded);
        assertEquals(20_000, recorded.get(TimelineCounter.FRAMES));
        assertTrue(recorded.get(TimelineCounter.LATE_DISPLAY_UNKNOWN) > 0, recorded.toString());
        assertTrue(recorded.get(TimelineCounter.JANK_APP_DEADLINE_MISSED) > 0);
        assertTrue(recorded.get(TimelineCounter.JANK_BUFFER_STUFFING) > 0);
        assertEquals(recorded.get(TimelineCounter.FRAMES), recorded.get(TimelineCounter.DISPLAY_UNKNOWN_FRAMES));
    }

    @Test
    void shouldCountLateOnTimeFinishedFramesAsDisplaySideUnknown() {
        TimelineCounters c = new TimelineCounters();
        TimelineRecorder recorder = new TimelineRecorder(c);
        TimelineFrame f = new TimelineFrame().token(1).predicted(0, 10 * MS, 20 * MS).actual(0, 9 * MS);
        recorder.commit(f);
        recorder.presented(1, 20 * MS + REFRESH, REFRESH);
        assertEquals(1, c.get(TimelineCounter.JANK_SF_SCHEDULING), "what Android would say");
        assertEquals(1, c.get(TimelineCounter.LATE_DISPLAY_UNKNOWN));
        assertEquals(1, c.get(TimelineCounter.JANKY_FRAMES));
        assertEquals(0, c.get(TimelineCounter.JANK_APP_DEADLINE_MISSED));
    }

    @Test
    void shouldGiveUpTheOldestFrameAsPresentUnknownWhenFeedbackNeverComes() {
        TimelineCounters c = new TimelineCounters();
        TimelineRecorder recorder = new TimelineRecorder(Thresholds.ANDROID_16_LEGACY, c, 2, 0);
        TimelineFrame f = new TimelineFrame();
        recorder.commit(f.token(1).predicted(0, 10, 20).actual(0, 5));
        recorder.commit(f.token(2).predicted(0, 10, 20).actual(0, 5));
        assertEquals(2, recorder.pending());
        recorder.commit(f.token(3).predicted(0, 10, 20).actual(0, 5));
        assertEquals(1, c.get(TimelineCounter.PRESENT_UNKNOWN));
        assertEquals(1, c.get(TimelineCounter.JANK_UNKNOWN));
        assertFalse(recorder.presented(1, 20, REFRESH), "given up already");
        assertTrue(recorder.presented(3, 20, REFRESH));
        assertEquals(2, c.get(TimelineCounter.FRAMES));
    }

    @Test
    void shouldTreatTearingAsUnknownAndEstimatedStampsWithoutPredictionError() {
        TimelineCounters c = new TimelineCounters();
        TimelineRecorder recorder = new TimelineRecorder(c);
        TimelineFrame f = new TimelineFrame();
        recorder.commit(f.token(1).predicted(0, 10 * MS, 20 * MS).actual(0, 5 * MS));
        recorder.presented(1, 30 * MS, REFRESH, 0, 0);
        assertEquals(1, c.get(TimelineCounter.PRESENT_UNKNOWN), "no vsync flag: tearing");
        // 7 ms late, off the vsync cadence: Prediction Error with a measured stamp, Unknown with an estimate.
        recorder.commit(f.token(2).predicted(0, 10 * MS, 20 * MS).actual(0, 5 * MS));
        recorder.presented(2, 27 * MS, REFRESH, PresentationFeedback.KIND_VSYNC, 0);
        assertEquals(0, c.get(TimelineCounter.JANK_PREDICTION_ERROR));
        assertEquals(2, c.get(TimelineCounter.JANK_UNKNOWN));
        recorder.commit(f.token(3).predicted(100 * MS, 110 * MS, 120 * MS).actual(100 * MS, 105 * MS));
        recorder.presented(3, 127 * MS, REFRESH, ALL_FLAGS, 0);
        assertEquals(1, c.get(TimelineCounter.JANK_PREDICTION_ERROR));
    }

    @Test
    void shouldTurnWaylandFeedbackIntoTimesAndPredictions() {
        assertEquals(0x1_0000_0002L * 1_000_000_000L + 3, PresentationFeedback.timestampNanos(1, 2, 3));
        assertEquals(0xFFFF_FFFFL * 1_000_000_000L, PresentationFeedback.timestampNanos(0, -1, 0));
        assertEquals(0x5_0000_0007L, PresentationFeedback.sequence(5, 7));
        assertEquals(0xFFFF_FFFFL, PresentationFeedback.refreshNanos(-1));
        assertTrue(PresentationFeedback.isMeasured(PresentationFeedback.KIND_HW_COMPLETION));
        assertFalse(PresentationFeedback.isGpuComposited(PresentationFeedback.KIND_ZERO_COPY));

        VsyncGrid grid = new VsyncGrid();
        TimelineFrame f = new TimelineFrame();
        assertFalse(grid.predict(0, f), "no presentation yet");
        grid.presented(1_000 * MS, REFRESH);
        // Budgets: app one refresh, compositor refresh - 1 ms: a frame starting at the last present
        // reaches the second vsync after it.
        assertTrue(grid.predict(1_000 * MS, f));
        assertEquals(1_000 * MS + 2 * REFRESH, f.predictedPresent());
        assertEquals(f.predictedPresent() - (REFRESH - MS), f.predictedEnd());
        assertEquals(f.predictedEnd() - REFRESH, f.predictedStart());
        VsyncGrid custom = new VsyncGrid(4 * MS, 3 * MS);
        custom.presented(1_000 * MS, REFRESH);
        assertTrue(custom.predict(1_000 * MS + 5 * MS, f));
        assertEquals(1_000 * MS + REFRESH, f.predictedPresent());
        assertEquals(1_000 * MS + REFRESH - 3 * MS, f.predictedEnd());
    }

    @Test
    void shouldNotAllocatePerFrame() {
        TimelineCounters c = new TimelineCounters();
        TimelineRecorder recorder = new TimelineRecorder(c);
        TimelineFrame f = new TimelineFrame();
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long bytes = 0;
        for (int round = 0; round < 4; round++) {
            long before = threads.getCurrentThreadAllocatedBytes();
            long t = round * 100_000L * REFRESH;
            for (int i = 0; i < 100_000; i++) {
                t += REFRESH;
                recorder.commit(f.token(i).predicted(t, t + 5 * MS, t + 2 * REFRESH).actual(t, t + (i % 7) * MS));
                if (i % 13 == 0) {
                    recorder.discarded(i, REFRESH);
                } else {
                    recorder.presented(i - (i % 2), t + 2 * REFRESH + (i % 5) * MS, REFRESH, ALL_FLAGS, i);
                }
            }
            bytes = threads.getCurrentThreadAllocatedBytes() - before;
        }
        assertTrue(c.get(TimelineCounter.FRAMES) > 300_000);
        assertTrue(bytes < 4096, bytes + " bytes allocated for 100000 frames");
    }
}
