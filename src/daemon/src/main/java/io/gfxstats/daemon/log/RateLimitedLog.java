package io.gfxstats.daemon.log;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Warning lines a peer can trigger (refused requests, names refused in a client's buffer): at
 * most one a second, so that a client doing it in a loop cannot flood the log; the next line
 * says how many were left out.
 */
public final class RateLimitedLog {
    private static final long MIN_GAP_NANOS = 1_000_000_000L;

    /** One logger for every such line, so an operator (and a test) can find and silence them together. */
    private static final Logger LOG = LoggerFactory.getLogger(RateLimitedLog.class);

    private final String leftOut;
    private long lastNanos;
    private boolean any;
    private long suppressed;

    /** @param leftOut what the count of suppressed lines counts, e.g. "refused requests" */
    public RateLimitedLog(String leftOut) {
        this.leftOut = leftOut;
    }

    public synchronized void warn(String line) {
        long now = System.nanoTime();
        if (any && now - lastNanos < MIN_GAP_NANOS) {
            suppressed++;
            return;
        }
        any = true;
        lastNanos = now;
        if (suppressed > 0) {
            LOG.warn("{} ({} more {} since the previous line were not logged)", line, suppressed, leftOut);
            suppressed = 0;
        } else {
            LOG.warn("{}", line);
        }
    }
}
