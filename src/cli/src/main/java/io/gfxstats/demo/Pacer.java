package io.gfxstats.demo;

import java.util.concurrent.locks.LockSupport;

/**
 * The monotonic clock a synthetic renderer runs on. Waits go to absolute times, so a late
 * wake-up (a GC pause, a busy machine) delays one frame's recording and never shifts the ones
 * after it: the schedule does not drift.
 */
public interface Pacer {
    /** CLOCK_MONOTONIC nanoseconds, the clock frame timestamps are in. */
    long nanoTime();

    /**
     * Returns at or after {@code deadlineNanos}, or early when the thread is interrupted (the
     * interrupt status stays set).
     */
    void sleepUntil(long deadlineNanos);

    /** The real clock ({@link System#nanoTime()} is CLOCK_MONOTONIC on Linux). */
    static Pacer system() {
        return new Pacer() {
            @Override
            public long nanoTime() {
                return System.nanoTime();
            }

            @Override
            public void sleepUntil(long deadlineNanos) {
                long left;
                while ((left = deadlineNanos - System.nanoTime()) > 0 && !Thread.currentThread().isInterrupted()) {
                    LockSupport.parkNanos(left);
                }
            }
        };
    }
}
