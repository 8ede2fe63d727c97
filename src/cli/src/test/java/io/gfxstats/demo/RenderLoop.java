package io.gfxstats.demo;

import io.gfxstats.client.DaemonBufferProvider;
import io.gfxstats.client.SessionOptions;
import io.gfxstats.client.StatsSession;
import io.gfxstats.client.WindowTracker;
import io.gfxstats.frame.FrameInfo;
import java.time.Duration;

public final class RenderLoop {
    public static void main(String[] args) throws Exception {
        long interval = 16_666_667L; // 60 Hz
        SessionOptions options = SessionOptions.builder("com.example.app", 42)
                .refreshIntervalNanos(interval)
                .build();
        // One session per process. It registers with the daemon in the background
        // ($GFXSTATS_SOCKET, else the default socket) and never makes a render thread wait:
        // frames recorded before the daemon answers are kept and handed over.
        try (StatsSession session = StatsSession.open(options, DaemonBufferProvider.atDefaultSocket());
             WindowTracker window = session.newTracker()) { // one per window, used on its render thread
            long vsync = System.nanoTime();
            for (int i = 0; i < 600; i++, vsync += interval) {
                long cpuDone = vsync + (i % 10 == 9 ? 38_000_000L : 4_000_000L); // every 10th frame is slow
                // Short form, for renderers that know only these times (CLOCK_MONOTONIC ns):
                window.record(vsync, vsync, cpuDone, cpuDone + 2_000_000L, interval);
            }
            // Full form: every stage, as Android's FrameInfo has them. Reuse the object:
            // recording allocates nothing.
            FrameInfo frame = new FrameInfo()
                    .set(FrameInfo.INTENDED_VSYNC, vsync).set(FrameInfo.VSYNC, vsync)
                    .set(FrameInfo.FRAME_DEADLINE, vsync + interval).set(FrameInfo.FRAME_INTERVAL, interval)
                    .set(FrameInfo.HANDLE_INPUT_START, vsync + 100_000).set(FrameInfo.DRAW_START, vsync + 900_000)
                    .set(FrameInfo.SYNC_QUEUED, vsync + 3_000_000).set(FrameInfo.SYNC_START, vsync + 3_100_000)
                    .set(FrameInfo.ISSUE_DRAW_COMMANDS_START, vsync + 3_400_000)
                    .set(FrameInfo.SWAP_BUFFERS, vsync + 6_000_000)
                    .set(FrameInfo.SWAP_BUFFERS_COMPLETED, vsync + 6_400_000)
                    .set(FrameInfo.GPU_COMPLETED, vsync + 9_000_000).set(FrameInfo.FRAME_COMPLETED, vsync + 9_000_000);
            window.record(frame);
            // Only for a program this short: make sure the daemon has the buffer before exiting.
            if (!session.awaitAttached(Duration.ofSeconds(10))) {
                System.err.println("no gfxstats daemon answered; these frames were not stored");
            }
        } // tracker, then session closed: the daemon saves this process's counts
    }
}
