package io.gfxstats.frame;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gfxstats.stats.JankType;
import io.gfxstats.stats.ProfileData;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@link ModernJankTracker#finishFrame(long, long, long, long, long, io.gfxstats.stats.StatsSink)}
 * (a frame given by its main times, the path of WindowTracker's convenience method) must count
 * exactly what {@link ModernJankTracker#finishFrame(FrameInfo, io.gfxstats.stats.StatsSink)}
 * counts for the FrameInfo it stands for, frame by frame, Davey reports included, over plausible
 * and hostile times and intervals from 1 ns to 2^62.
 */
class ModernJankTrackerTimesTest {
    private static final long[] INTERVALS = {
        1, 3, 4, 7, 10, 19, 8_333_333, 11_111_111, TrackerConfig.NANOS_60HZ, 33_333_333,
        (1L << 52) + 7, (1L << 62) + 12345,
    };

    @Test
    void shouldCountFramesGivenByTheirTimesExactlyLikeTheSameFramesInAFrameInfo() {
        SplittableRandom random = new SplittableRandom(4242);
        FrameInfo frame = new FrameInfo();
        for (long refresh : INTERVALS) {
            for (boolean replay : new boolean[] {false, true}) {
                for (long forgiveness : new long[] {0, refresh / 3 + 1}) {
                    TrackerConfig config = new TrackerConfig(refresh, refresh, forgiveness, replay);
                    List<String> daveysByTimes = new ArrayList<>();
                    List<String> daveysByFrame = new ArrayList<>();
                    ModernJankTracker byTimes = new ModernJankTracker(config,
                            (total, f) -> daveysByTimes.add(total + " " + f.describe()));
                    ModernJankTracker byFrame = new ModernJankTracker(config,
                            (total, f) -> daveysByFrame.add(total + " " + f.describe()));
                    ProfileData timesData = new ProfileData();
                    ProfileData frameData = new ProfileData();
                    long scale = Math.max(1, Math.min(refresh, 1L << 40));
                    long intended = random.nextLong(1, 1L << 40);
                    for (int i = 0; i < 10_000; i++) {
                        intended += scale;
                        long[] t = times(random, intended, scale, refresh);
                        frame.clear()
                                .set(FrameInfo.INTENDED_VSYNC, t[0])
                                .set(FrameInfo.VSYNC, t[1])
                                .set(FrameInfo.FRAME_DEADLINE, t[0] + t[4])
                                .set(FrameInfo.FRAME_INTERVAL, t[4])
                                .set(FrameInfo.SWAP_BUFFERS, t[2])
                                .set(FrameInfo.FRAME_COMPLETED, t[2])
                                .set(FrameInfo.SWAP_BUFFERS_COMPLETED, t[2])
                                .set(FrameInfo.GPU_COMPLETED, t[3]);
                        byFrame.finishFrame(frame, frameData);
                        byTimes.finishFrame(t[0], t[1], t[2], t[3], t[4], timesData);
                        if (!Arrays.equals(frameData.toArray(), timesData.toArray())
                                || daveysByFrame.size() != daveysByTimes.size()) {
                            String where = "refresh " + refresh + " replay " + replay + " forgiveness " + forgiveness
                                    + " frame " + i + " " + frame.describe();
                            assertArrayEquals(frameData.toArray(), timesData.toArray(), where);
                            assertEquals(daveysByFrame, daveysByTimes, where);
                        }
                    }
                    assertEquals(daveysByFrame, daveysByTimes);
                    assertTrue(frameData.totalFrames() > 0, "frames counted");
                }
            }
        }
    }

    @Test
    void shouldReachEveryCounterTheTimesCanReach() {
        // Guards the test above against a generator that never reaches the interesting paths.
        SplittableRandom random = new SplittableRandom(11);
        ModernJankTracker tracker = new ModernJankTracker(TrackerConfig.live(1), DaveyListener.ignoring());
        ProfileData data = new ProfileData();
        long intended = 1_000_000_000L;
        for (int i = 0; i < 20_000; i++) {
            intended += 1;
            long[] t = times(random, intended, 1, 1);
            tracker.finishFrame(t[0], t[1], t[2], t[3], t[4], data);
        }
        for (JankType type : JankType.values()) {
            assertTrue(data.jankCount(type) > 0, type + " counted");
        }
        assertTrue(data.jankyFramesLegacy() > 0 && data.jankyFrames() > 0);
        List<Long> daveys = new ArrayList<>();
        tracker = new ModernJankTracker(TrackerConfig.live(TrackerConfig.NANOS_60HZ), (total, f) -> daveys.add(total));
        tracker.finishFrame(1_000_000_000L, 1_000_000_000L, 1_800_000_000L, 1_801_000_000L, 0, data);
        assertEquals(List.of(800_000_000L), daveys);
    }

    /** intended, vsync, completed, gpu completed, interval: mostly plausible, some extreme or missing. */
    private static long[] times(SplittableRandom r, long intended, long scale, long interval) {
        long vsync = intended + (r.nextInt(4) == 0 ? r.nextLong(0, 2 * scale) : 0);
        long completed = intended + r.nextLong(-scale / 8, 3 * scale);
        long gpu = r.nextInt(20) == 0 ? 0 : completed + r.nextLong(-scale / 4, scale);
        long frameInterval = r.nextInt(10) == 0 ? 0 : interval;
        switch (r.nextInt(40)) {
            case 0 -> completed = 0;
            case 1 -> intended = -intended;
            case 2 -> frameInterval = r.nextLong(Long.MAX_VALUE / 2);
            case 3 -> gpu = r.nextLong(1L << 56, 1L << 58);
            case 4 -> completed = r.nextLong(1L << 56, 1L << 58);
            case 5 -> frameInterval = -interval;
            case 6 -> vsync = 0;
            case 7 -> completed = intended + r.nextLong(700_000_000L, 2_000_000_000L);
            case 8 -> intended = 0;
            default -> { }
        }
        return new long[] {intended, vsync, completed, gpu, frameInterval};
    }
}
