package io.gfxstats.buffer;

import io.gfxstats.frame.DaveyListener;
import io.gfxstats.frame.FrameInfo;
import io.gfxstats.frame.ModernJankTracker;
import io.gfxstats.frame.TrackerConfig;
import io.gfxstats.stats.ProfileData;

import java.util.SplittableRandom;

/**
 * A deterministic stream of plausible frames for one window: 90 % of frames 4-16 ms, 8 % 17-50 ms,
 * 2 % 50-800 ms (so slow buckets and legacy jank occur), with occasional missed vsyncs, render
 * thread stalls, SurfaceCanvas frames, slow GPU work and in-flight rows that trackers ignore.
 * The same seed gives the same frames, so a test can replay a stream into a reference tracker.
 * Reuses one FrameInfo: {@link #next()} allocates nothing.
 */
public final class FrameStream {
    public static final long INTERVAL = TrackerConfig.NANOS_60HZ;
    private static final long MS = 1_000_000L;

    private final SplittableRandom random;
    private final FrameInfo frame = new FrameInfo();
    private long intended = 1_000_000_000L;

    public FrameStream(long seed) {
        this.random = new SplittableRandom(seed);
    }

    /** Frame duration in nanoseconds from the benchmark's distribution. */
    public static long drawDuration(SplittableRandom random) {
        int p = random.nextInt(100);
        if (p < 90) {
            return random.nextLong(4 * MS, 17 * MS);
        }
        if (p < 98) {
            return random.nextLong(17 * MS, 51 * MS);
        }
        return random.nextLong(50 * MS, 801 * MS);
    }

    public FrameInfo next() {
        FrameInfo f = frame.clear();
        long total = drawDuration(random);
        intended += INTERVAL;
        long vsync = intended + (random.nextInt(100) < 5 ? random.nextLong(1, 2 * INTERVAL) : 0);
        long work = Math.max(total - (vsync - intended), 3 * MS);
        long ui = work * (20 + random.nextInt(40)) / 100;
        long syncQueued = vsync + ui;
        long stall = random.nextInt(100) < 3 ? random.nextLong(1, 3 * MS) : 0;
        long syncStart = syncQueued + stall;
        long upload = work * random.nextInt(15) / 100;
        long issue = syncStart + upload;
        long completed = intended + total + stall;
        long swap = Math.max(issue, completed - MS);
        long gpu = random.nextInt(100) < 3 ? random.nextLong(20 * MS, 40 * MS) : random.nextLong(MS / 2, 8 * MS);
        f.set(FrameInfo.FLAGS, random.nextInt(100) == 0 ? FrameInfo.FLAG_SURFACE_CANVAS : 0)
                .set(FrameInfo.INTENDED_VSYNC, intended)
                .set(FrameInfo.VSYNC, vsync)
                .set(FrameInfo.HANDLE_INPUT_START, vsync)
                .set(FrameInfo.ANIMATION_START, vsync)
                .set(FrameInfo.PERFORM_TRAVERSALS_START, vsync)
                .set(FrameInfo.DRAW_START, vsync + ui / 2)
                .set(FrameInfo.FRAME_DEADLINE, intended + INTERVAL)
                .set(FrameInfo.FRAME_START_TIME, vsync)
                .set(FrameInfo.FRAME_INTERVAL, INTERVAL)
                .set(FrameInfo.SYNC_QUEUED, syncQueued)
                .set(FrameInfo.SYNC_START, syncStart)
                .set(FrameInfo.ISSUE_DRAW_COMMANDS_START, issue)
                .set(FrameInfo.SWAP_BUFFERS, swap)
                .set(FrameInfo.FRAME_COMPLETED, completed)
                .set(FrameInfo.GPU_COMPLETED, swap + gpu)
                .set(FrameInfo.SWAP_BUFFERS_COMPLETED, completed + random.nextLong(MS / 10, 2 * MS));
        if (random.nextInt(200) == 0) {
            // A row still in flight: FrameCompleted not set yet. Every tracker ignores it.
            f.set(FrameInfo.FRAME_COMPLETED, 0);
        }
        if (total > 100 * MS) {
            intended += (total / INTERVAL) * INTERVAL;
        }
        return f;
    }

    /** The tracker every test and child process counts with. */
    public static ModernJankTracker tracker() {
        return new ModernJankTracker(TrackerConfig.live(INTERVAL), DaveyListener.ignoring());
    }

    /** What a tracker counts for the first {@code frames} frames of stream {@code seed}. */
    public static ProfileData expected(long seed, int frames) {
        ProfileData data = new ProfileData();
        ModernJankTracker tracker = tracker();
        FrameStream stream = new FrameStream(seed);
        for (int i = 0; i < frames; i++) {
            tracker.finishFrame(stream.next(), data);
        }
        return data;
    }

    /** Sum of {@link #expected} over seeds {@code firstSeed .. firstSeed + streams - 1}. */
    public static ProfileData expected(long firstSeed, int streams, int frames) {
        ProfileData data = new ProfileData();
        for (int i = 0; i < streams; i++) {
            data.merge(expected(firstSeed + i, frames));
        }
        return data;
    }
}
