package io.gfxstats.frame;

import io.gfxstats.stats.Counters;
import io.gfxstats.stats.JankType;
import io.gfxstats.stats.ProfileData;
import io.gfxstats.stats.StatsSink;
import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The trackers compute their interval thresholds once per interval and compare with integers
 * (it halves the cost of recording a frame). This test holds them to the per-frame
 * floating-point arithmetic of the spec (docs/compatibility.md section 3), written out
 * literally below as the oracle, over realistic and hostile frames: zero, negative and huge
 * timestamps, intervals from 1 ns to 2^62.
 */
class JankRulesEquivalenceTest {
    private static final long[] INTERVALS = {
        1, 3, 7, 10, 11, 19, 8_333_333, 11_111_111, TrackerConfig.NANOS_60HZ, 33_333_333, 1_000_000_007,
        (1L << 52) - 1, 1L << 52, (1L << 52) + 7, 1L << 55, (1L << 62) + 12345,
    };

    @Test
    void shouldCountExactlyLikeTheFloatingPointRulesOfTheSpec() {
        SplittableRandom random = new SplittableRandom(2024);
        FrameInfo frame = new FrameInfo();
        for (long refresh : INTERVALS) {
            for (boolean replay : new boolean[] {false, true}) {
                for (long forgiveness : new long[] {0, refresh / 3 + 1}) {
                    TrackerConfig config = new TrackerConfig(refresh, refresh, forgiveness, replay);
                    ProfileData actual = new ProfileData();
                    ProfileData oracle = new ProfileData();
                    ProfileData actual9 = new ProfileData();
                    ProfileData oracle9 = new ProfileData();
                    ModernJankTracker modern = new ModernJankTracker(config, DaveyListener.ignoring());
                    Android9JankTracker android9 = new Android9JankTracker(config, DaveyListener.ignoring());
                    SpecModern specModern = new SpecModern(config);
                    SpecAndroid9 specAndroid9 = new SpecAndroid9(refresh);
                    long base = random.nextLong(1, 1L << 40);
                    for (int i = 0; i < 40_000; i++) {
                        fill(frame, random, base + i * Math.max(1, Math.min(refresh, 1L << 40)), refresh);
                        modern.finishFrame(frame, actual);
                        specModern.finishFrame(frame, oracle);
                        android9.finishFrame(frame, actual9);
                        specAndroid9.finishFrame(frame, oracle9);
                    }
                    String where = "refresh " + refresh + " replay " + replay + " forgiveness " + forgiveness;
                    assertArrayEquals(oracle.toArray(), actual.toArray(), "modern, " + where);
                    assertArrayEquals(oracle9.toArray(), actual9.toArray(), "android 9, " + where);
                }
            }
        }
    }

    @Test
    void shouldExerciseEveryBranchOfTheRules() {
        // Guards the test above against a generator that never reaches the interesting paths.
        SplittableRandom random = new SplittableRandom(7);
        FrameInfo frame = new FrameInfo();
        ProfileData data = new ProfileData();
        ModernJankTracker modern = new ModernJankTracker(TrackerConfig.live(TrackerConfig.NANOS_60HZ),
                DaveyListener.ignoring());
        for (int i = 0; i < 40_000; i++) {
            fill(frame, random, 1_000_000_000L + i * TrackerConfig.NANOS_60HZ, TrackerConfig.NANOS_60HZ);
            modern.finishFrame(frame, data);
        }
        for (JankType type : JankType.values()) {
            assertEquals(true, data.jankCount(type) > 0, type + " counted");
        }
        assertEquals(true, data.jankyFramesLegacy() > 0 && data.jankyFrames() > 0);
    }

    @Test
    void shouldDecideTheTripleBufferedThresholdLikeJavaDoubleComparisonAtEveryBoundary() {
        for (long interval : INTERVALS) {
            IntervalThresholds t = new IntervalThresholds(interval);
            double tenth = 0.1 * interval;
            long near = (long) tenth;
            for (long gap = near - 300; gap <= near + 300; gap++) {
                assertEquals(gap > tenth, t.exceedsTenth(gap), "interval " + interval + " gap " + gap);
            }
            for (long gap : new long[] {Long.MIN_VALUE, -1, 0, 1, Long.MAX_VALUE, (1L << 53) + 1, -(1L << 53) - 1}) {
                assertEquals(gap > tenth, t.exceedsTenth(gap), "interval " + interval + " gap " + gap);
            }
        }
    }

    /** Mostly plausible frames around {@code intended}, some with extreme or missing values. */
    private static void fill(FrameInfo f, SplittableRandom r, long intended, long interval) {
        f.clear();
        long scale = Math.max(1, Math.min(interval, 1L << 40));
        long vsync = intended + (r.nextInt(4) == 0 ? r.nextLong(0, 2 * scale) : 0);
        long syncQueued = vsync + r.nextLong(0, scale);
        long syncStart = syncQueued + (r.nextInt(5) == 0 ? r.nextLong(0, scale / 2 + 1) : 0);
        long issue = syncStart + r.nextLong(0, scale / 3 + 1);
        long completed = intended + r.nextLong(-scale / 8, 3 * scale);
        long swap = Math.min(completed, issue + r.nextLong(0, scale / 2 + 1));
        f.set(FrameInfo.FLAGS, r.nextInt(40) == 0 ? FrameInfo.FLAG_SURFACE_CANVAS : 0)
                .set(FrameInfo.INTENDED_VSYNC, intended)
                .set(FrameInfo.VSYNC, vsync)
                .set(FrameInfo.FRAME_DEADLINE, intended + interval + (r.nextInt(3) == 0 ? r.nextLong(-scale, scale) : 0))
                .set(FrameInfo.FRAME_INTERVAL, r.nextInt(10) == 0 ? 0 : interval)
                .set(FrameInfo.SYNC_QUEUED, syncQueued)
                .set(FrameInfo.SYNC_START, syncStart)
                .set(FrameInfo.ISSUE_DRAW_COMMANDS_START, issue)
                .set(FrameInfo.SWAP_BUFFERS, swap)
                .set(FrameInfo.FRAME_COMPLETED, completed)
                .set(FrameInfo.DEQUEUE_BUFFER_DURATION, r.nextLong(0, scale / 2 + 1))
                .set(FrameInfo.GPU_COMPLETED, r.nextInt(20) == 0 ? 0 : completed + r.nextLong(-scale / 4, scale))
                .set(FrameInfo.SWAP_BUFFERS_COMPLETED, completed + r.nextLong(-scale / 8, scale / 4 + 1));
        switch (r.nextInt(60)) {
            case 0 -> f.set(FrameInfo.FRAME_COMPLETED, 0);
            case 1 -> f.set(FrameInfo.INTENDED_VSYNC, -intended);
            case 2 -> f.set(FrameInfo.FRAME_INTERVAL, r.nextLong(Long.MAX_VALUE / 2));
            case 3 -> f.set(FrameInfo.GPU_COMPLETED, r.nextLong(1L << 56, 1L << 58));
            case 4 -> f.set(FrameInfo.FRAME_COMPLETED, r.nextLong(1L << 56, 1L << 58));
            case 5 -> f.set(FrameInfo.FRAME_INTERVAL, -interval);
            default -> { }
        }
    }

    // ---- The oracle: the rules with the spec's per-frame floating-point thresholds. ----

    private static final long CAP = 10_000_000_000L;

    private static void checks(FrameInfo f, long interval, StatsSink sink) {
        check(f, FrameInfo.INTENDED_VSYNC, FrameInfo.VSYNC, 1, JankType.MISSED_VSYNC, sink);
        check(f, FrameInfo.VSYNC, FrameInfo.SYNC_START, (long) (0.5 * interval), JankType.SLOW_UI_THREAD, sink);
        check(f, FrameInfo.SYNC_START, FrameInfo.ISSUE_DRAW_COMMANDS_START, (long) (0.2 * interval),
                JankType.SLOW_BITMAP_UPLOAD, sink);
        check(f, FrameInfo.ISSUE_DRAW_COMMANDS_START, FrameInfo.FRAME_COMPLETED, (long) (0.75 * interval),
                JankType.SLOW_DRAW, sink);
    }

    private static void check(FrameInfo f, int start, int end, long threshold, JankType type, StatsSink sink) {
        long d = f.duration(start, end);
        if (d >= threshold && d < CAP) {
            sink.increment(type.counter());
        }
    }

    private static final class SpecLegacy {
        final long refresh;
        final long forgiveness;
        long swapDeadline = -1;

        SpecLegacy(TrackerConfig c) {
            refresh = c.refreshIntervalNanos();
            forgiveness = c.dequeueForgivenessNanos();
        }

        void account(FrameInfo f, StatsSink sink) {
            long t = f.duration(FrameInfo.INTENDED_VSYNC, FrameInfo.SWAP_BUFFERS_COMPLETED);
            if (forgiveness > 0) {
                long dequeue = f.get(FrameInfo.DEQUEUE_BUFFER_DURATION);
                if (dequeue > 0) {
                    t -= Math.min(dequeue, forgiveness);
                }
            }
            if (t <= 0 || f.hasFlag(FrameInfo.FLAG_SURFACE_CANVAS)) {
                return;
            }
            if (t > refresh) {
                sink.increment(Counters.JANKY_FRAMES_LEGACY);
            }
            long intended = f.get(FrameInfo.INTENDED_VSYNC);
            if (swapDeadline < 0) {
                swapDeadline = intended + refresh;
            }
            boolean tb = (swapDeadline - intended) > 0.1 * refresh;
            swapDeadline = Math.max(swapDeadline + refresh, intended + refresh);
            long completed = f.get(FrameInfo.FRAME_COMPLETED);
            if (completed < swapDeadline || t < refresh) {
                if (tb) {
                    sink.increment(JankType.HIGH_INPUT_LATENCY.counter());
                }
            } else {
                sink.increment(JankType.MISSED_DEADLINE_LEGACY.counter());
                swapDeadline = completed - ((completed - f.get(FrameInfo.VSYNC)) % refresh) + refresh;
            }
        }
    }

    private static final class SpecModern {
        final TrackerConfig config;
        final SpecLegacy legacy;
        long next = -1;

        SpecModern(TrackerConfig config) {
            this.config = config;
            this.legacy = new SpecLegacy(config);
        }

        void finishFrame(FrameInfo f, StatsSink sink) {
            legacy.account(f, sink);
            long total = f.duration(FrameInfo.INTENDED_VSYNC, FrameInfo.FRAME_COMPLETED);
            if (total <= 0) {
                return;
            }
            sink.increment(Counters.TOTAL_FRAMES);
            sink.increment(Counters.cpuCounterForNanos(total));
            if (f.hasFlag(FrameInfo.FLAG_SURFACE_CANVAS)) {
                return;
            }
            long fi = f.get(FrameInfo.FRAME_INTERVAL);
            if (fi <= 0) {
                fi = config.defaultFrameIntervalNanos();
            }
            long intended = f.get(FrameInfo.INTENDED_VSYNC);
            boolean tb = (next - intended) > 0.1 * fi;
            long deadline = f.get(FrameInfo.FRAME_DEADLINE);
            if (tb && !config.deadlinesAlreadyExtended()) {
                deadline += fi;
            }
            long gpuCompleted = f.get(FrameInfo.GPU_COMPLETED);
            if (gpuCompleted < deadline) {
                if (tb) {
                    sink.increment(JankType.HIGH_INPUT_LATENCY.counter());
                    next += fi;
                }
            } else {
                sink.increment(JankType.MISSED_DEADLINE.counter());
                sink.increment(Counters.JANKY_FRAMES);
                long jitter = gpuCompleted - f.get(FrameInfo.VSYNC);
                next = gpuCompleted - (jitter % fi) + fi;
                checks(f, fi, sink);
            }
            if (gpuCompleted > 0) {
                long gpu = gpuCompleted - f.get(FrameInfo.SWAP_BUFFERS);
                if (gpu >= 0) {
                    sink.increment(Counters.gpuCounterForNanos(gpu));
                }
            }
        }
    }

    private static final class SpecAndroid9 {
        final long refresh;
        long swapDeadline = -1;

        SpecAndroid9(long refresh) {
            this.refresh = refresh;
        }

        void finishFrame(FrameInfo f, StatsSink sink) {
            long total = f.duration(FrameInfo.INTENDED_VSYNC, FrameInfo.FRAME_COMPLETED);
            if (total <= 0) {
                return;
            }
            sink.increment(Counters.TOTAL_FRAMES);
            sink.increment(Counters.cpuCounterForNanos(total));
            if (f.hasFlag(FrameInfo.FLAG_SURFACE_CANVAS)) {
                return;
            }
            if (total > refresh) {
                sink.increment(Counters.JANKY_FRAMES);
            }
            long intended = f.get(FrameInfo.INTENDED_VSYNC);
            boolean tb = swapDeadline > intended;
            swapDeadline = Math.max(swapDeadline + refresh, intended + refresh);
            long completed = f.get(FrameInfo.FRAME_COMPLETED);
            if (completed < swapDeadline) {
                if (tb) {
                    sink.increment(JankType.HIGH_INPUT_LATENCY.counter());
                }
                return;
            }
            sink.increment(JankType.MISSED_DEADLINE.counter());
            swapDeadline = completed - ((completed - f.get(FrameInfo.VSYNC)) % refresh) + refresh;
            checks(f, refresh, sink);
        }
    }
}
