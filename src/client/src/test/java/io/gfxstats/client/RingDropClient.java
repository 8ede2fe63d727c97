package io.gfxstats.client;

import io.gfxstats.frame.DaveyListener;

import java.nio.file.Path;
import java.time.Duration;

/**
 * Child process: {@code <socket> <package> <extra>}. Attaches to a daemon, holds its drain thread
 * off (test hook), records {@link FrameRing#DEFAULT_CAPACITY} + extra frames so that exactly
 * {@code extra} are dropped, flushes (which counts the frames and the drops into the mapped
 * buffer), prints "dropped &lt;n&gt; of &lt;recorded&gt;" and waits to be killed.
 */
public final class RingDropClient {
    private static final long INTERVAL = 16_666_667L;

    private RingDropClient() {
    }

    public static void main(String[] args) throws Exception {
        int extra = Integer.parseInt(args[2]);
        StatsSession session = StatsSession.open(SessionOptions.builder(args[1], 4)
                .daveyListener(DaveyListener.ignoring()).retry(Duration.ofMillis(50), Duration.ofMillis(200)).build(),
                new DaemonBufferProvider(Path.of(args[0])));
        if (!session.awaitAttached(Duration.ofSeconds(60))) {
            System.exit(3);
        }
        WindowTracker tracker = session.newTracker();
        session.pauseDrain(true);
        long t = 1_000_000_000L;
        for (int i = 0; i < FrameRing.DEFAULT_CAPACITY + extra; i++, t += INTERVAL) {
            tracker.record(t, t, t + 5_000_000L, t + 6_000_000L, INTERVAL);
        }
        session.flush();
        System.out.println("dropped " + session.droppedFrames() + " of " + (FrameRing.DEFAULT_CAPACITY + extra));
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE);
    }
}
