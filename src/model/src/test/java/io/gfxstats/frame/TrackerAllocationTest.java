package io.gfxstats.frame;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gfxstats.stats.ProfileData;
import java.lang.management.ManagementFactory;
import org.junit.jupiter.api.Test;

/**
 * The per-frame hot path allocates nothing: finishFrame into a ProfileData, after warm-up,
 * measured with the JVM's per-thread allocation counter around 100k frames. The slack allows a
 * constant (the counter reading itself), far below one byte per frame.
 */
class TrackerAllocationTest {
    private static final int FRAMES = 100_000;
    private static final long SLACK_BYTES = 4096;

    private static volatile FrameInfo lastCopy;

    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    /** A varied set of frames (on time, late, stuffed, surface canvas, garbage), none a Davey. */
    private static FrameInfo[] frames() {
        RandomFrames random = new RandomFrames(42);
        FrameInfo[] frames = new FrameInfo[4096];
        int n = 0;
        while (n < frames.length) {
            FrameInfo f = RandomFrames.toFrameInfo(random.next(), new FrameInfo());
            if (f.duration(FrameInfo.INTENDED_VSYNC, FrameInfo.FRAME_COMPLETED) < DaveyListener.DAVEY_THRESHOLD_NANOS) {
                frames[n++] = f;
            }
        }
        return frames;
    }

    private static long allocatedDuring(FrameTracker tracker, FrameInfo[] frames, ProfileData data) {
        for (int round = 0; round < 3; round++) {
            run(tracker, frames, data); // warm-up, lets the JIT compile the path
        }
        long before = THREADS.getCurrentThreadAllocatedBytes();
        run(tracker, frames, data);
        long bytes = THREADS.getCurrentThreadAllocatedBytes() - before;
        System.out.println(tracker.getClass().getSimpleName() + ": " + bytes + " bytes allocated for " + FRAMES + " frames");
        return bytes;
    }

    private static void run(FrameTracker tracker, FrameInfo[] frames, ProfileData data) {
        for (int i = 0; i < FRAMES; i++) {
            tracker.finishFrame(frames[i & (frames.length - 1)], data);
        }
    }

    @Test
    void shouldNotAllocatePerFrameInTheModernTracker() {
        ProfileData data = new ProfileData();
        long bytes = allocatedDuring(new ModernJankTracker(TrackerConfig.live(16_666_667L), DaveyListener.ignoring()),
                frames(), data);
        assertTrue(data.totalFrames() > FRAMES, "frames were counted");
        assertTrue(bytes < SLACK_BYTES, bytes + " bytes allocated for " + FRAMES + " frames");
    }

    @Test
    void shouldNotAllocatePerFrameInTheAndroid9Tracker() {
        ProfileData data = new ProfileData();
        long bytes = allocatedDuring(new Android9JankTracker(TrackerConfig.live(16_666_667L), DaveyListener.ignoring()),
                frames(), data);
        assertTrue(data.totalFrames() > FRAMES, "frames were counted");
        assertTrue(bytes < SLACK_BYTES, bytes + " bytes allocated for " + FRAMES + " frames");
    }

    @Test
    void shouldDetectAllocationWhenThereIsSome() {
        // The measurement itself must be able to fail: a tracker that keeps a copy of each frame.
        FrameTracker copying = (frame, sink) -> {
            lastCopy = new FrameInfo().copyFrom(frame);
            sink.increment(0);
        };
        long bytes = allocatedDuring(copying, frames(), new ProfileData());
        assertTrue(bytes > FRAMES, bytes + " bytes");
    }
}
