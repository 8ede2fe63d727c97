package io.gfxstats.daemon;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Paces retries of failing saves: after a failure the next attempt waits 1 s, doubling with each
 * further failure up to 5 min, and the log gets one line when saving starts failing and one when
 * it works again - not two lines every few hundred milliseconds for as long as a disk is full or
 * a file unwritable. The frames stay in their live buffers meanwhile; nothing is lost.
 */
final class SaveBackoff {
    private static final Logger log = LoggerFactory.getLogger(SaveBackoff.class);
    static final long FIRST_DELAY_MILLIS = 1000;
    static final long MAX_DELAY_MILLIS = 5 * 60_000;

    private int failures;
    private long nextAttemptNanos;

    /** Whether a retry may run now (always, while saves work). */
    boolean due() {
        return failures == 0 || System.nanoTime() - nextAttemptNanos >= 0;
    }

    void failed(String reason) {
        failures++;
        long delay = Math.min(MAX_DELAY_MILLIS, FIRST_DELAY_MILLIS << Math.min(failures - 1, 20));
        nextAttemptNanos = System.nanoTime() + delay * 1_000_000;
        if (failures == 1) {
            log.warn("saving failed: {}; the frames stay in their live buffers; retrying after 1 s, then doubling "
                    + "the wait up to every {} min", reason, MAX_DELAY_MILLIS / 60_000);
        }
    }

    void succeeded() {
        if (failures > 0) {
            log.info("saving works again after {} failed attempts", failures);
            failures = 0;
        }
    }
}
