package io.gfxstats.testing;

import io.gfxstats.rpc.GfxStatsClient;
import io.gfxstats.rpc.GfxStatsClientException;
import io.gfxstats.rpc.v1.HealthResponse;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;

/** Waiting for a daemon process that was just started to answer on its socket. */
public final class DaemonHealth {
    private DaemonHealth() {
    }

    public static HealthResponse check(Path socket) throws GfxStatsClientException {
        try (GfxStatsClient c = GfxStatsClient.unix(socket)) {
            return c.health();
        }
    }

    /**
     * Polls Health until it answers; fails with the daemon's log when the process exits first or
     * the timeout passes.
     */
    public static HealthResponse await(Process process, Path socket, Duration timeout, Callable<String> log)
            throws InterruptedException, IOException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("gfxstatsd exited with " + process.exitValue() + ":\n" + text(log));
            }
            try {
                return check(socket);
            } catch (GfxStatsClientException e) {
                Thread.sleep(50);
            }
        }
        throw new IllegalStateException("gfxstatsd did not answer within " + timeout + ":\n" + text(log));
    }

    private static String text(Callable<String> log) throws IOException {
        try {
            return log.call();
        } catch (IOException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IOException(e);
        }
    }
}
