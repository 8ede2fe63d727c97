package io.gfxstats.daemon.rpc;

import java.util.HashSet;
import java.util.Set;
import org.slf4j.Logger;

/**
 * Log lines for failures that are our bugs rather than a peer's doing (a RuntimeException from
 * the backend), which a peer may still be able to trigger over and over: the first failure of
 * each kind and exception class logs its stack trace (what a bug report needs), later ones one
 * line without it, at most one a second over all kinds, with the count left out.
 */
public final class FailureLog {
    private static final long MIN_GAP_NANOS = 1_000_000_000L;

    private final Logger log;
    private final Set<String> traced = new HashSet<>();
    private long lastNanos;
    private boolean any;
    private long suppressed;

    public FailureLog(Logger log) {
        this.log = log;
    }

    /** {@code what} names the failed step and whom for, e.g. "dump failed for unix pid 12". */
    public synchronized void failed(String kind, String what, Throwable e) {
        long now = System.nanoTime();
        if (traced.size() < 64 && traced.add(kind + " " + e.getClass().getName())) {
            any = true;
            lastNanos = now;
            log.error("{}", what, e);
            return;
        }
        if (any && now - lastNanos < MIN_GAP_NANOS) {
            suppressed++;
            return;
        }
        any = true;
        lastNanos = now;
        String more = suppressed > 0 ? " (" + suppressed + " more failures since the previous line were not logged)" : "";
        suppressed = 0;
        log.error("{}: {}{}", what, e, more);
    }
}
