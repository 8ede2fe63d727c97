package io.gfxstats.demo;

import io.gfxstats.frame.FrameInfo;
import java.util.SplittableRandom;

/**
 * The frames of a synthetic app, as a hardware-accelerated Android app would produce them:
 * a UI thread that handles input, animates, lays out and records each frame when its vsync
 * arrives; a render thread that syncs, uploads, dequeues a buffer and issues the draw commands;
 * a GPU that executes them; a triple-buffered queue that makes the render thread wait when the
 * GPU falls behind. Every FrameInfo field a device fills in is filled in, from stage times drawn
 * from the {@link JankProfile}.
 *
 * <p>Lateness is never faked: a frame misses its deadline because one stage took too long, and
 * the causes Android attributes (missed vsync, slow UI thread, bitmap uploads, draw commands,
 * stuffed pipeline) follow from the timestamps.
 *
 * <p>Deterministic: the same (profile, interval, seed, duration) give the same frames relative to
 * the origin. Jank classification only looks at differences between timestamps, so the counters
 * do not depend on the origin either; the origin only anchors the frames on the real clock.
 * Not thread-safe; {@link #next} allocates nothing.
 */
public final class SyntheticFrames {
    private static final long MS = 1_000_000L;
    private static final long US = 1_000L;

    private final JankProfile profile;
    private final long interval;
    private final long origin;
    private final long end;
    private final SplittableRandom random;

    private final Episode[] bag = Episode.CAUSES.clone();
    private int bagNext = bag.length;
    private long nextEpisodeAt;
    private long nextHitchAt;
    private Episode burst;
    private int burstLeft;

    private long frameIndex;
    private long uiFree;
    private long rtFree;
    private long gpuFree;
    /** GPU completion of the two previous frames: their buffers come back for reuse then. */
    private long gpuDonePrev1;
    private long gpuDonePrev2;
    private long readyAt;

    /**
     * @param profile        how the app behaves
     * @param intervalNanos  the display's frame interval
     * @param seed           chooses the app's particular run
     * @param originNanos    CLOCK_MONOTONIC time of the first vsync (must be positive)
     * @param durationNanos  frames are produced for vsyncs before {@code origin + duration}
     */
    public SyntheticFrames(JankProfile profile, long intervalNanos, long seed, long originNanos, long durationNanos) {
        if (intervalNanos <= 0 || originNanos <= 0 || durationNanos < 0) {
            throw new IllegalArgumentException("interval and origin must be positive, duration not negative");
        }
        this.profile = profile;
        this.interval = intervalNanos;
        this.origin = originNanos;
        this.end = Math.addExact(originNanos, durationNanos);
        this.random = new SplittableRandom(seed);
        this.uiFree = originNanos;
        this.nextEpisodeAt = originNanos + seconds(profile.causeGapMinSec(), profile.causeGapMaxSec());
        this.nextHitchAt = profile.hasHitches()
                ? originNanos + seconds(profile.hitchGapMinSec(), profile.hitchGapMaxSec()) : Long.MAX_VALUE;
    }

    public long intervalNanos() {
        return interval;
    }

    /**
     * Fills {@code f} with the next frame (every field is overwritten).
     *
     * @return false when the next frame's vsync is past the end: nothing is written
     */
    public boolean next(FrameInfo f) {
        long tick = firstTickAtOrAfter(uiFree);
        if (tick >= end) {
            return false;
        }
        Episode episode = episodeFor(tick);
        double load = profile.load();

        // UI thread: the vsync callback runs when the thread gets to it. Blocked past a whole
        // interval, the choreographer skips the vsyncs it missed and reports the latest one.
        long blocked = episode == Episode.MAIN_THREAD_BLOCKED ? frames(1.6, 4.0) : 0;
        long callback = tick + uniform(80 * US, 600 * US) + blocked;
        long vsync = tick + ((callback - tick) / interval) * interval;
        boolean input = random.nextInt(10) == 0;
        long handleInput = callback + uniform(20 * US, 120 * US);
        long animation = handleInput + (input ? uniform(200 * US, 1500 * US) : uniform(5 * US, 60 * US));
        long traversals = animation + scaled(100 * US, 1200 * US, load);
        long layout;
        if (frameIndex == 0) {
            layout = uniform(18 * MS, 35 * MS); // first frame: inflation and first layout
        } else if (episode == Episode.SLOW_UI) {
            layout = frames(1.2, 3.0);
        } else if (episode == Episode.HITCH) {
            layout = uniform(100 * MS, 450 * MS);
        } else {
            layout = scaled(300 * US, 2500 * US, load);
        }
        long drawStart = traversals + layout;
        long syncQueued = drawStart + scaled(400 * US, 2500 * US, load);

        // Render thread: sync waits for the previous frame's draw (a stall charged to that frame).
        long syncStart = Math.max(syncQueued + uniform(20 * US, 150 * US), rtFree);
        long sync = episode == Episode.BITMAP_UPLOAD ? frames(1.3, 2.6) : scaled(80 * US, 700 * US, load);
        long issueStart = syncStart + sync;
        uiFree = issueStart; // the UI thread is released once the sync is done

        // Triple buffering: the buffer two frames back is free once the GPU finished it.
        long dequeueWait = Math.max(0, gpuDonePrev2 - issueStart);
        long dequeue = dequeueWait + uniform(15 * US, 90 * US);
        long issue = episode == Episode.SLOW_DRAW ? frames(1.2, 2.8) : scaled(700 * US, 3500 * US, load);
        long swapBuffers = issueStart + dequeue + issue;
        long queue = uniform(200 * US, 700 * US);
        long swapCompleted = swapBuffers + queue;
        rtFree = swapCompleted;

        long gpuWork = episode == Episode.GPU_HEAVY ? frames(0.9, 1.7) : scaled(900 * US, 4500 * US, load);
        long gpuDone = Math.max(swapBuffers, gpuFree) + gpuWork;
        gpuFree = gpuDone;
        gpuDonePrev2 = gpuDonePrev1;
        gpuDonePrev1 = gpuDone;

        long flags = frameIndex == 0 ? FrameInfo.FLAG_WINDOW_VISIBILITY_CHANGED : 0;
        f.set(FrameInfo.FLAGS, flags)
                .set(FrameInfo.FRAME_TIMELINE_VSYNC_ID, 1_000 + (tick - origin) / interval)
                .set(FrameInfo.INTENDED_VSYNC, tick)
                .set(FrameInfo.VSYNC, vsync)
                .set(FrameInfo.INPUT_EVENT_ID, input ? 1 + random.nextInt(Integer.MAX_VALUE - 1) : 0)
                .set(FrameInfo.HANDLE_INPUT_START, handleInput)
                .set(FrameInfo.ANIMATION_START, animation)
                .set(FrameInfo.PERFORM_TRAVERSALS_START, traversals)
                .set(FrameInfo.DRAW_START, drawStart)
                .set(FrameInfo.FRAME_DEADLINE, tick + interval)
                .set(FrameInfo.FRAME_START_TIME, callback)
                .set(FrameInfo.FRAME_INTERVAL, interval)
                .set(FrameInfo.SYNC_QUEUED, syncQueued)
                .set(FrameInfo.SYNC_START, syncStart)
                .set(FrameInfo.ISSUE_DRAW_COMMANDS_START, issueStart)
                .set(FrameInfo.SWAP_BUFFERS, swapBuffers)
                // As on current devices: the frame completes when its GPU fence signals.
                .set(FrameInfo.FRAME_COMPLETED, gpuDone)
                .set(FrameInfo.DEQUEUE_BUFFER_DURATION, dequeue)
                .set(FrameInfo.QUEUE_BUFFER_DURATION, queue)
                .set(FrameInfo.GPU_COMPLETED, gpuDone)
                .set(FrameInfo.SWAP_BUFFERS_COMPLETED, swapCompleted)
                .set(FrameInfo.DISPLAY_PRESENT_TIME, firstTickAtOrAfter(gpuDone + 1))
                .set(FrameInfo.COMMAND_SUBMISSION_COMPLETED, swapBuffers);
        readyAt = Math.max(gpuDone, swapCompleted);
        frameIndex++;
        return true;
    }

    /** When the frame last returned by {@link #next} is finished: all its timestamps are in the past. */
    public long readyAtNanos() {
        return readyAt;
    }

    private Episode episodeFor(long tick) {
        if (burstLeft > 0) {
            burstLeft--;
            return burst;
        }
        if (tick >= nextHitchAt) {
            nextHitchAt = tick + seconds(profile.hitchGapMinSec(), profile.hitchGapMaxSec());
            return Episode.HITCH;
        }
        if (tick < nextEpisodeAt) {
            return null;
        }
        nextEpisodeAt = tick + seconds(profile.causeGapMinSec(), profile.causeGapMaxSec());
        Episode e = fromBag();
        // Heavy GPU work and draw-heavy scenes last a few frames; the rest are one-offs.
        int length = switch (e) {
            case GPU_HEAVY -> 2 + random.nextInt(3);
            case SLOW_DRAW -> 1 + random.nextInt(2);
            default -> 1;
        };
        burst = e;
        burstLeft = length - 1;
        return e;
    }

    private Episode fromBag() {
        if (bagNext == bag.length) {
            for (int i = bag.length - 1; i > 0; i--) {
                int j = random.nextInt(i + 1);
                Episode t = bag[i];
                bag[i] = bag[j];
                bag[j] = t;
            }
            bagNext = 0;
        }
        return bag[bagNext++];
    }

    private long firstTickAtOrAfter(long t) {
        long since = t - origin;
        if (since <= 0) {
            return origin;
        }
        return origin + ((since + interval - 1) / interval) * interval;
    }

    private long uniform(long min, long max) {
        return min + random.nextLong(max - min + 1);
    }

    /** A duration of ordinary work: heavier apps take proportionally longer. */
    private long scaled(long min, long max, double load) {
        return (long) (uniform(min, max) * load);
    }

    /** A duration between {@code min} and {@code max} frame intervals. */
    private long frames(double min, double max) {
        return (long) (interval * (min + (max - min) * random.nextDouble()));
    }

    private long seconds(double min, double max) {
        return (long) (1e9 * (min + (max - min) * random.nextDouble()));
    }
}
