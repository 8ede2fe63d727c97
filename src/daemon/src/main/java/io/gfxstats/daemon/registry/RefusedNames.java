package io.gfxstats.daemon.registry;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Lines about names a client wrote into its own buffer against the library's rules: at most one
 * a second over all buffers (each buffer already logs at most once), so that many clients doing
 * it cannot flood the log; the next line says how many were left out.
 */
final class RefusedNames {
    private static final Logger LOG = LoggerFactory.getLogger(RefusedNames.class);
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
            LOG.warn("{} ({} more buffers with refused names since the previous line were not logged)", line,
                    suppressed);
            suppressed = 0;
        } else {
            LOG.warn("{}", line);
        }
    }
}
