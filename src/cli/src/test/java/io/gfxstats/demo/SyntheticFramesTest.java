package io.gfxstats.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gfxstats.frame.FrameInfo;
import io.gfxstats.stats.Histograms;
import io.gfxstats.stats.JankType;
import io.gfxstats.stats.ProfileData;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SyntheticFramesTest {
    private static final long SECOND = 1_000_000_000L;
    private static final long I60 = 16_666_667L;

    private static SynthOptions options(JankProfile profile, int fps, double seconds, long seed) {
        return new SynthOptions("com.example.synth", 1, Duration.ofNanos((long) (seconds * 1e9)), fps, profile, seed,
                Path.of("/nonexistent.sock"), Duration.ofSeconds(1));
    }

    private static List<long[]> frames(JankProfile profile, long interval, long seed, long origin, long duration) {
        SyntheticFrames gen = new SyntheticFrames(profile, interval, seed, origin, duration);
        FrameInfo f = new FrameInfo();
        List<long[]> rows = new ArrayList<>();
        while (gen.next(f)) {
            long[] row = new long[FrameInfo.FIELD_COUNT];
            for (int i = 0; i < row.length; i++) {
                row[i] = f.get(i);
            }
            rows.add(row);
        }
        return rows;
    }

    @Test
    void shouldProduceTheSameFramesForTheSameSeedAtAnyOrigin() {
        long a = 5 * SECOND;
        long b = 987_654_321_123L;
        List<long[]> first = frames(JankProfile.JANKY, I60, 42, a, 3 * SECOND);
        List<long[]> second = frames(JankProfile.JANKY, I60, 42, b, 3 * SECOND);
        assertEquals(first.size(), second.size());
        for (int n = 0; n < first.size(); n++) {
            long[] x = first.get(n);
            long[] y = second.get(n);
            for (int i = 0; i < FrameInfo.FIELD_COUNT; i++) {
                long expected = isTimestamp(i) && x[i] != 0 ? x[i] - a : x[i];
                long actual = isTimestamp(i) && y[i] != 0 ? y[i] - b : y[i];
                assertEquals(expected, actual, "frame " + n + " field " + FrameInfo.name(i));
            }
        }
    }

    private static boolean isTimestamp(int field) {
        return switch (field) {
            case FrameInfo.FLAGS, FrameInfo.FRAME_TIMELINE_VSYNC_ID, FrameInfo.INPUT_EVENT_ID,
                    FrameInfo.FRAME_INTERVAL, FrameInfo.DEQUEUE_BUFFER_DURATION,
                    FrameInfo.QUEUE_BUFFER_DURATION -> false;
            default -> true;
        };
    }

    @Test
    void shouldGiveDifferentRunsForDifferentSeeds() {
        ProfileData one = SyntheticRenderer.simulate(options(JankProfile.JANKY, 60, 3, 1));
        ProfileData two = SyntheticRenderer.simulate(options(JankProfile.JANKY, 60, 3, 2));
        assertNotEquals(one, two);
        assertEquals(one, SyntheticRenderer.simulate(options(JankProfile.JANKY, 60, 3, 1)));
    }

    @ParameterizedTest
    @ValueSource(longs = {0, 1, 2, 3, 7, 42, 1234, -99, Long.MAX_VALUE})
    void shouldCountEveryJankCauseInTheJankyProfile(long seed) {
        ProfileData s = SyntheticRenderer.simulate(options(JankProfile.JANKY, 60, 3, seed));
        for (JankType type : JankType.values()) {
            assertTrue(s.jankCount(type) > 0, type + " counted, seed " + seed + ": " + describe(s));
        }
        assertTrue(s.jankyFrames() > 0 && s.jankyFramesLegacy() > 0, describe(s));
        double janky = 100.0 * s.jankyFrames() / s.totalFrames();
        assertTrue(janky >= 8 && janky <= 40, "janky share " + janky + " %, seed " + seed);
        long gpuFrames = 0;
        for (int i = 0; i < Histograms.GPU_BUCKETS; i++) {
            gpuFrames += s.gpuBucket(i);
        }
        assertEquals(s.totalFrames(), gpuFrames, "every frame has a GPU time");
    }

    @ParameterizedTest
    @ValueSource(ints = {60, 90, 120})
    void shouldKeepTheSmoothProfileMostlyOnTimeAtAnyRefreshRate(int fps) {
        ProfileData s = SyntheticRenderer.simulate(options(JankProfile.SMOOTH, fps, 20, 5));
        double janky = 100.0 * s.jankyFrames() / s.totalFrames();
        assertTrue(janky > 0 && janky < 6, "janky share " + janky + " % at " + fps + " fps");
        assertTrue(s.totalFrames() > 0.9 * 20 * fps && s.totalFrames() <= 20 * fps,
                s.totalFrames() + " frames in 20 s at " + fps + " fps");
    }

    @Test
    void shouldHaveLongHitchesInTheStutterProfile() {
        ProfileData s = SyntheticRenderer.simulate(options(JankProfile.STUTTER, 60, 10, 11));
        long over100ms = 0;
        for (int i = 0; i < Histograms.CPU_BUCKETS; i++) {
            if (Histograms.cpuLabels()[i] >= 100) {
                over100ms += s.cpuBucket(i);
            }
        }
        assertTrue(over100ms >= 3, over100ms + " frames of 100 ms or more in 10 s");
        assertTrue(s.cpuPercentile(50) < 16, "median stays fast: " + s.cpuPercentile(50));
    }

    @Test
    void shouldFillEveryStageInPipelineOrder() {
        long origin = 3 * SECOND;
        long interval = 11_111_111L; // 90 Hz
        for (long[] f : frames(JankProfile.STUTTER, interval, 3, origin, 10 * SECOND)) {
            long intended = f[FrameInfo.INTENDED_VSYNC];
            assertEquals(0, (intended - origin) % interval, "intended vsync on the display's grid");
            assertEquals(0, (f[FrameInfo.VSYNC] - intended) % interval, "vsync is a later tick when skipped");
            int[] order = {FrameInfo.INTENDED_VSYNC, FrameInfo.VSYNC, FrameInfo.FRAME_START_TIME,
                FrameInfo.HANDLE_INPUT_START, FrameInfo.ANIMATION_START, FrameInfo.PERFORM_TRAVERSALS_START,
                FrameInfo.DRAW_START, FrameInfo.SYNC_QUEUED, FrameInfo.SYNC_START,
                FrameInfo.ISSUE_DRAW_COMMANDS_START, FrameInfo.SWAP_BUFFERS, FrameInfo.SWAP_BUFFERS_COMPLETED};
            for (int i = 1; i < order.length; i++) {
                assertTrue(f[order[i - 1]] <= f[order[i]],
                        FrameInfo.name(order[i - 1]) + " <= " + FrameInfo.name(order[i]));
            }
            assertTrue(f[FrameInfo.GPU_COMPLETED] > f[FrameInfo.SWAP_BUFFERS]);
            assertEquals(f[FrameInfo.GPU_COMPLETED], f[FrameInfo.FRAME_COMPLETED]);
            assertTrue(f[FrameInfo.DISPLAY_PRESENT_TIME] > f[FrameInfo.GPU_COMPLETED]);
            assertEquals(intended + interval, f[FrameInfo.FRAME_DEADLINE]);
            assertEquals(interval, f[FrameInfo.FRAME_INTERVAL]);
            assertTrue(f[FrameInfo.DEQUEUE_BUFFER_DURATION] > 0 && f[FrameInfo.QUEUE_BUFFER_DURATION] > 0);
            assertFalse((f[FrameInfo.FLAGS] & FrameInfo.FLAG_SURFACE_CANVAS) != 0);
        }
    }

    @Test
    void shouldStopAtTheEndOfTheDuration() {
        List<long[]> rows = frames(JankProfile.SMOOTH, I60, 9, SECOND, SECOND);
        assertTrue(rows.get(rows.size() - 1)[FrameInfo.INTENDED_VSYNC] < 2 * SECOND);
        // One frame per vsync, but the first frame (inflation, first layout) takes one or two more.
        assertTrue(rows.size() >= 57 && rows.size() <= 60, rows.size() + " frames in a smooth second");
        assertEquals(0, frames(JankProfile.SMOOTH, I60, 9, SECOND, 0).size());
    }

    static String describe(ProfileData s) {
        StringBuilder sb = new StringBuilder("total=" + s.totalFrames() + " janky=" + s.jankyFrames());
        for (JankType t : JankType.values()) {
            sb.append(", ").append(t.label()).append('=').append(s.jankCount(t));
        }
        return sb.toString();
    }
}
