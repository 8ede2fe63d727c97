package io.gfxstats.testing;

import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.concurrent.Callable;

/**
 * Waits for a condition instead of sleeping and hoping: a test polls what it can observe (a
 * log line, a file, a count) until it holds, and fails with the state it saw when it never does.
 * The timeout only bounds a broken run; a passing run is as fast as the system under test.
 */
public final class Await {
    private static final long POLL_NANOS = 20_000_000L;

    private Await() {
    }

    /** Returns once {@code condition} is true; fails with {@code state} after {@code timeout}. */
    public static void until(Callable<Boolean> condition, Duration timeout, Callable<String> state)
            throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!Boolean.TRUE.equals(condition.call())) {
            if (System.nanoTime() - deadline > 0) {
                fail("waited " + timeout.toSeconds() + " s in vain: " + state.call());
            }
            Thread.sleep(POLL_NANOS / 1_000_000L);
        }
    }

    /** {@link #until(Callable, Duration, Callable)} with a fixed description. */
    public static void until(Callable<Boolean> condition, Duration timeout, String what) throws Exception {
        until(condition, timeout, () -> what);
    }
}
