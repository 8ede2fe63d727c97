package io.gfxstats.live;

import java.io.IOException;

/**
 * A stream of live snapshots, one per interval: the daemon's {@code Watch} RPC, or a replayed
 * capture. {@code gfxstats top} and {@code gfxstats matrix-report} read only this.
 */
public interface SceneFeed extends AutoCloseable {
    /** Blocks until the next snapshot; null when the feed has ended. */
    LiveSnapshot next() throws IOException, InterruptedException;

    @Override
    void close();
}
