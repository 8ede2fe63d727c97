package io.gfxstats.timeline.recorder;

import io.gfxstats.timeline.DisplayFrame;
import io.gfxstats.timeline.FrameTimelineClassifier;
import io.gfxstats.timeline.JankType;
import io.gfxstats.timeline.Prediction;
import io.gfxstats.timeline.PresentState;
import io.gfxstats.timeline.SurfaceFrame;
import io.gfxstats.timeline.Thresholds;
import io.gfxstats.timeline.TimelineCounter;
import io.gfxstats.timeline.TimelineCounters;
import io.gfxstats.timeline.TimelineFrame;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gfxstats.timeline.feed.DisplayFramePublisher;
import io.gfxstats.timeline.feed.DisplayOutcomeWriter;
import io.gfxstats.timeline.feed.DisplayOutcomes;
import io.gfxstats.timeline.wayland.PresentationFeedback;
import io.gfxstats.timeline.wayland.VsyncGrid;
import java.lang.management.ManagementFactory;
import java.util.SplittableRandom;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TimelineRecorderTest {
    @TempDir
    Path dir;
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

    /**
     * Compositor mode: the compositor's display frames are classified and published by the
     * daemon's publisher into a real ring file; the recorder joins each presented frame with the
     * display frame of its (output, MSC) - published before the feedback, or a frame later (the
     * frame waits), or never (it falls back to client-only mode) - and counts what the classifier
     * gives for the surface under its classified display frame, or client-only for the unjoined.
     */
    @Test
    void shouldCountInCompositorModeWhatTheClassifierGivesUnderTheDisplayFrame() throws Exception {
        SplittableRandom r = new SplittableRandom(5);
        Path ringFile = dir.resolve("ring");
        DisplayFramePublisher publisher = new DisplayFramePublisher(Thresholds.ANDROID_16_LEGACY,
                DisplayOutcomeWriter.create(ringFile));
        TimelineCounters recorded = new TimelineCounters();
        TimelineRecorder recorder = new TimelineRecorder(Thresholds.ANDROID_16_LEGACY, recorded, 8, 0);
        recorder.joinCompositor(DisplayOutcomes.open(ringFile), 3 * REFRESH);
        TimelineCounters expected = new TimelineCounters();
        FrameTimelineClassifier classifier = new FrameTimelineClassifier(Thresholds.ANDROID_16_LEGACY);
        TimelineFrame frame = new TimelineFrame();
        long prevPp = Long.MIN_VALUE;
        long prevAp = Long.MIN_VALUE;
        long vsync = 1_000 * MS;
        long msc = 500;
        int missing = 0;
        int dfJanky = 0;
        for (int i = 0; i < 20_000; i++) {
            vsync += r.nextInt(6) == 0 ? 0 : REFRESH;
            long ps = vsync - 2 * REFRESH + MS;
            long pe = vsync - REFRESH + MS;
            long as = ps + r.nextLong(-2 * MS, 3 * MS);
            long ae = pe + r.nextLong(-8 * MS, 12 * MS);
            int late3 = r.nextInt(3);
            long ap = vsync + (late3 == 0 ? r.nextInt(3) * REFRESH + r.nextLong(-3 * MS, 3 * MS) : 0);
            msc += 1 + (ap - vsync) / REFRESH;
            long output = r.nextInt(4) == 0 ? 2 : 1;
            // The compositor's frame for that vsync: its work late now and then, GPU-composited now and then.
            DisplayFrame df = new DisplayFrame().set(i, r.nextInt(40) == 0 ? Prediction.EXPIRED : Prediction.VALID,
                    vsync - 6 * MS, vsync - MS, vsync, vsync - 6 * MS + r.nextLong(-3 * MS, 3 * MS),
                    vsync - MS + r.nextLong(-4 * MS, 3 * MS), r.nextInt(60) == 0 ? -1 : ap, REFRESH, REFRESH);
            if (r.nextInt(4) == 0) {
                df.gpuFence(vsync - MS + r.nextLong(-3 * MS, 2 * MS));
            }
            recorder.commit(frame.token(i).predicted(ps, pe, vsync).actual(as, ae));
            long latch = prevAp != Long.MIN_VALUE && prevPp > vsync - 2 * MS ? prevAp - (REFRESH - MS) : 0;
            SurfaceFrame sf = new SurfaceFrame().set(i, Prediction.VALID, ps, pe, vsync, as, ae, PresentState.PRESENTED,
                    Math.max(latch, 0));
            int when = r.nextInt(10); // 0: never published, 1: a frame after the feedback, else before
            if (when >= 2) {
                publisher.publish(output, msc, df, false);
            }
            assertTrue(recorder.presented(i, ap, REFRESH, ALL_FLAGS, msc, output));
            if (when == 1) {
                publisher.publish(output, msc, df, false); // the frame waits; the next call joins it
            }
            if (when == 0) {
                missing++;
                classifier.classify(sf, ap, JankType.NONE, REFRESH, REFRESH);
                expected.add(sf, false);
            } else {
                classifier.classify(sf, df); // df classified by the publisher
                expected.add(sf, true);
                dfJanky += df.jank() != JankType.NONE ? 1 : 0;
            }
            prevPp = vsync;
            prevAp = ap;
        }
        recorder.flush();
        assertEquals(0, recorder.awaitingDisplay());
        assertEquals(missing, recorder.unjoined());
        assertEquals(20_000 - missing, recorder.joined());
        assertEquals(expected, recorded);
        assertTrue(dfJanky > 1000, dfJanky + " janky display frames");
        assertTrue(recorded.get(TimelineCounter.JANK_SF_CPU_DEADLINE_MISSED) > 0, recorded.toString());
        assertTrue(recorded.get(TimelineCounter.JANK_SF_GPU_DEADLINE_MISSED) > 0, recorded.toString());
        assertTrue(recorded.get(TimelineCounter.JANK_DISPLAY_HAL) > 0, recorded.toString());
        assertEquals(missing, recorded.get(TimelineCounter.DISPLAY_UNKNOWN_FRAMES));
    }

    @Test
    void shouldWaitForTheCompositorFrameOnlyAsLongAsTheJoinWait() throws Exception {
        Path ringFile = dir.resolve("ring");
        DisplayOutcomeWriter writer = DisplayOutcomeWriter.create(ringFile);
        TimelineCounters c = new TimelineCounters();
        TimelineRecorder recorder = new TimelineRecorder(c);
        recorder.joinCompositor(DisplayOutcomes.open(ringFile), 50 * MS);
        TimelineFrame f = new TimelineFrame();
        recorder.commit(f.token(1).predicted(0, 10 * MS, 20 * MS).actual(0, 9 * MS));
        assertTrue(recorder.presented(1, 20 * MS, REFRESH, ALL_FLAGS, 77, 4));
        assertEquals(1, recorder.awaitingDisplay());
        assertEquals(0, c.get(TimelineCounter.FRAMES), "not counted while it waits");
        assertFalse(recorder.presented(1, 20 * MS, REFRESH, ALL_FLAGS, 77, 4), "feedback for a frame already presented");
        recorder.poll(60 * MS);
        assertEquals(1, recorder.awaitingDisplay(), "30 ms later: still waiting");
        recorder.poll(71 * MS);
        assertEquals(0, recorder.awaitingDisplay());
        assertEquals(1, recorder.unjoined());
        assertEquals(1, c.get(TimelineCounter.DISPLAY_UNKNOWN_FRAMES), "classified client-only");

        // A late compositor frame that arrives within the wait is joined: its display jank counts.
        recorder.commit(f.token(2).predicted(100 * MS, 110 * MS, 120 * MS).actual(100 * MS, 109 * MS));
        assertTrue(recorder.presented(2, 120 * MS + REFRESH, REFRESH, ALL_FLAGS, 79, 4));
        writer.publish(4, 79, new DisplayFrame().set(9, Prediction.VALID, 110 * MS, 119 * MS, 120 * MS, 110 * MS,
                119 * MS, 120 * MS + REFRESH, REFRESH, REFRESH));
        // The publisher would classify it; unclassified here, so give the ring a display jank by hand.
        DisplayFrame hal = new DisplayFrame().set(9, Prediction.VALID, 110 * MS, 119 * MS, 120 * MS, 110 * MS,
                118 * MS, 120 * MS + REFRESH, REFRESH, REFRESH);
        new FrameTimelineClassifier(Thresholds.ANDROID_16_LEGACY).classify(hal, 100 * MS);
        assertEquals(JankType.DISPLAY_HAL, hal.jank());
        writer.publish(4, 79, hal);
        recorder.poll(120 * MS + REFRESH + MS);
        assertEquals(1, recorder.joined());
        assertEquals(1, c.get(TimelineCounter.JANK_DISPLAY_HAL));
        assertEquals(0, c.get(TimelineCounter.LATE_DISPLAY_UNKNOWN), "the display side is known");

        // The wait also ends when the frame's slot is needed for a new commit.
        TimelineRecorder small = new TimelineRecorder(Thresholds.ANDROID_16_LEGACY, c, 1, 0);
        small.joinCompositor(DisplayOutcomes.open(ringFile), 50 * MS);
        small.commit(f.token(3).predicted(0, 10 * MS, 20 * MS).actual(0, 9 * MS));
        small.presented(3, 20 * MS, REFRESH, ALL_FLAGS, 1234, 4);
        small.commit(f.token(4).predicted(0, 10 * MS, 20 * MS).actual(0, 9 * MS));
        assertEquals(1, small.unjoined());
        assertEquals(1, small.pending());
    }

    @Test
    void shouldNotAllocatePerFrameInCompositorMode() throws Exception {
        Path ringFile = dir.resolve("ring");
        DisplayOutcomeWriter writer = DisplayOutcomeWriter.create(ringFile);
        TimelineCounters c = new TimelineCounters();
        TimelineRecorder recorder = new TimelineRecorder(c);
        recorder.joinCompositor(DisplayOutcomes.open(ringFile), 3 * REFRESH);
        TimelineFrame f = new TimelineFrame();
        DisplayFrame df = new DisplayFrame();
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long bytes = 0;
        long msc = 1;
        for (int round = 0; round < 4; round++) {
            long before = threads.getCurrentThreadAllocatedBytes();
            long t = round * 100_000L * REFRESH;
            for (int i = 0; i < 100_000; i++) {
                t += REFRESH;
                msc++;
                recorder.commit(f.token(i).predicted(t, t + 5 * MS, t + 2 * REFRESH).actual(t, t + (i % 7) * MS));
                df.set(i, Prediction.VALID, t, t + 2 * REFRESH - MS, t + 2 * REFRESH, t, t + 2 * REFRESH - (i % 3) * MS,
                        t + 2 * REFRESH + (i % 5) * MS, REFRESH, REFRESH);
                if (i % 3 == 0) {
                    writer.publish(1, msc, df); // before the feedback
                }
                recorder.presented(i, t + 2 * REFRESH + (i % 5) * MS, REFRESH, ALL_FLAGS, msc, 1);
                if (i % 3 == 1) {
                    writer.publish(1, msc, df); // after: the frame waits, the next call joins it
                }
                // i % 3 == 2: never published, client-only after the wait
            }
            bytes = threads.getCurrentThreadAllocatedBytes() - before;
        }
        assertTrue(recorder.joined() > 250_000, recorder.joined() + " joined");
        assertTrue(recorder.unjoined() > 100_000, recorder.unjoined() + " unjoined");
        assertTrue(bytes < 4096, bytes + " bytes allocated for 100000 frames");
    }
}
