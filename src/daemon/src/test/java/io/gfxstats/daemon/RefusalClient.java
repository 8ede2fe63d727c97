package io.gfxstats.daemon;

import io.gfxstats.client.DaemonBufferProvider;
import io.gfxstats.client.SessionOptions;
import io.gfxstats.client.StatsSession;
import io.gfxstats.client.WindowTracker;
import java.nio.file.Paths;
import java.time.Duration;

/**
 * A rendering process for registration tests: {@code socket package}. Records 100 frames, waits
 * for its buffer (at most 20 s) and prints "attached" or "refused REASON" or "not attached";
 * then keeps the session open {@code linger} ms (so a session that retries would retry), closes
 * and prints "done".
 */
public final class RefusalClient {
    private RefusalClient() {
    }

    public static void main(String[] args) throws Exception {
        long linger = Long.parseLong(args[2]);
        StatsSession session = StatsSession.open(SessionOptions.builder(args[1], 1)
                .retry(Duration.ofMillis(50), Duration.ofMillis(200)).build(),
                new DaemonBufferProvider(Paths.get(args[0])));
        WindowTracker tracker = session.newTracker();
        long t = 1_000_000_000L;
        for (int i = 0; i < 100; i++, t += FrameClient.INTERVAL) {
            tracker.record(t, t, t + 5_000_000L, t + 5_000_000L, FrameClient.INTERVAL);
        }
        boolean attached = session.awaitAttached(Duration.ofSeconds(20));
        System.out.println(attached ? "attached"
                : session.refusal().map(r -> "refused " + r).orElse("not attached"));
        System.out.flush();
        Thread.sleep(linger);
        tracker.close();
        session.close();
        System.out.println("done");
    }
}
