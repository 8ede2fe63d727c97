package io.gfxstats.cli;

import io.gfxstats.live.SceneFeed;
import java.time.Duration;
import java.util.Map;

/** The daemon's {@code Watch} stream as a {@link SceneFeed}. */
final class WatchFeed {
    private WatchFeed() {
    }

    static SceneFeed open(Args.Parsed args, Map<String, String> env, Duration interval, String packageName)
            throws UsageException {
        throw new UsageException("this build has no Watch RPC yet (it comes with the scenes work)");
    }
}
