package io.gfxstats.daemon.rpc;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Log lines for refused requests: one line per refusal at most, and at most one a second, so a
 * client sending garbage in a loop cannot flood the log; the next line says how many were left
 * out.
 */
final class RefusalLog {
    private static final Logger LOG = LoggerFactory.getLogger(RefusalLog.class);
    private static final long MIN_GAP_NANOS = 1_000_000_000L;

    private long lastNanos;
    private boolean any;
    private long suppressed;

    synchronized void refused(String line) {
        long now = System.nanoTime();
        if (any && now - lastNanos < MIN_GAP_NANOS) {
            suppressed++;
            return;
        }
        any = true;
        lastNanos = now;
        if (suppressed > 0) {
            LOG.warn("{} ({} more refused requests since the previous line were not logged)", line, suppressed);
            suppressed = 0;
        } else {
            LOG.warn("{}", line);
        }
    }
}
