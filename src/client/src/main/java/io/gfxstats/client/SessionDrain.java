package io.gfxstats.client;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Counts the frames of a session's trackers off their recording threads: one daemon thread per
 * session ("gfxstats-drain-&lt;package&gt;") takes every tracker's ring out under one lock and runs
 * the rules ({@link TrackerDrain}). Whoever else needs the counts up to date takes the same lock
 * and drains first: {@link StatsSession#flush()}, a scene change (so that it applies to exactly
 * the frames it applied to when record counted synchronously), a tracker's close or cleanup,
 * the session's close and the JVM's shutdown.
 *
 * <p>Period: every {@link #BUSY_PERIOD_NANOS} while frames arrive; after a pass that found
 * nothing the wait doubles up to {@link #IDLE_PERIOD_NANOS}, so an idle session wakes about 20
 * times a second. A frame is therefore counted at most about {@link #IDLE_PERIOD_NANOS} (plus
 * scheduling delay) after it was recorded; a SIGKILL of the app loses what its rings held, at
 * most that long's frames (a normal exit drains through the shutdown hook).
 */
final class SessionDrain {
    private static final Logger LOG = LoggerFactory.getLogger(StatsSession.class);
    static final long BUSY_PERIOD_NANOS = TimeUnit.MILLISECONDS.toNanos(4);
    static final long IDLE_PERIOD_NANOS = TimeUnit.MILLISECONDS.toNanos(50);
    /** At most one log line about dropped frames per this time, per session. */
    private static final long DROP_LOG_NANOS = TimeUnit.SECONDS.toNanos(60);

    private final String name;
    final ReentrantLock lock = new ReentrantLock();
    /** The drain thread waits on it between passes (the lock free meanwhile); signalled to stop or resume. */
    private final Condition wakeUp = lock.newCondition();
    // Guarded by lock:
    private final List<TrackerDrain> drains = new ArrayList<>();
    /** Frames dropped by rings no longer drained (trackers closed). */
    private long droppedClosed;
    private boolean paused;
    private boolean stopped;
    private long lastDropLog = Long.MIN_VALUE;

    private final Thread thread;
    private final Thread shutdownHook;

    SessionDrain(String packageName) {
        this.name = packageName;
        this.thread = new Thread(this::run, "gfxstats-drain-" + packageName);
        thread.setDaemon(true);
        // At exit the frames still in the rings are counted (into the mapped buffer, which the
        // daemon reads after the process is gone); trackers may go on recording meanwhile.
        this.shutdownHook = new Thread(this::flush, "gfxstats-drain-exit-" + packageName);
    }

    void start() {
        thread.start();
        try {
            Runtime.getRuntime().addShutdownHook(shutdownHook);
        } catch (IllegalStateException e) {
            // The JVM is already shutting down: nothing will wait for the hook.
        }
    }

    void add(TrackerDrain d) {
        lock.lock();
        try {
            if (stopped) {
                d.ring.close("session closed");
            }
            drains.add(d);
        } finally {
            lock.unlock();
        }
    }

    private void run() {
        long wait = BUSY_PERIOD_NANOS;
        lock.lock();
        try {
            while (!stopped) {
                long drained = paused ? 0 : drainAllLocked(false);
                wait = drained > 0 ? BUSY_PERIOD_NANOS : Math.min(wait * 2, IDLE_PERIOD_NANOS);
                try {
                    long unused = wakeUp.awaitNanos(wait);
                } catch (InterruptedException e) {
                    // Not ours to end: the session stops this thread through close. Drain on.
                }
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * Every frame published so far, counted, and every tracker moved to the session's current
     * buffer ({@code wait}: for the session lock if busy; see {@link #drainLocked}); the caller
     * holds the lock.
     */
    long drainAllLocked(boolean wait) {
        long n = 0;
        for (int i = 0; i < drains.size(); i++) {
            n += drainLocked(drains.get(i), wait);
        }
        reportDropsLocked();
        return n;
    }

    /**
     * {@code d}'s published frames counted, then the tracker moved to the session's current buffer
     * even when none of its frames comes again ({@link TrackerDrain#catchUp}): waiting for the
     * session lock if {@code wait}, else only if it is free (the drain thread tries again at its
     * next pass). Returns how many frames it counted.
     */
    long drainLocked(TrackerDrain d, boolean wait) {
        long n = 0;
        try {
            n = d.ring.drain(d);
            d.countDrops();
        } catch (RuntimeException e) {
            // The rules of one tracker failed on a frame (or the session closed under it): the
            // frame is lost, the other trackers' frames are not.
            LOG.warn("{}: a frame could not be counted: {}", name, e.toString());
            n = 0;
        }
        try {
            d.catchUp(wait);
        } catch (RuntimeException e) {
            LOG.warn("{}: counts could not be moved into the current buffer: {}", name, e.toString());
        }
        return n;
    }

    private void reportDropsLocked() {
        long now = System.nanoTime();
        if (lastDropLog != Long.MIN_VALUE && now - lastDropLog < DROP_LOG_NANOS) {
            return;
        }
        long added = 0;
        for (TrackerDrain d : drains) {
            long dropped = d.ring.dropped();
            added += dropped - d.droppedLogged;
            d.droppedLogged = dropped;
        }
        if (added > 0) {
            lastDropLog = now;
            LOG.warn("{}: {} frames dropped because a window's frame ring was full (the drain thread did not run); "
                    + "{} in total, see StatsSession.droppedFrames()", name, added, droppedLocked());
        }
    }

    /** Counts every frame published so far, on the calling thread, into the session's current buffer. */
    void flush() {
        lock.lock();
        try {
            drainAllLocked(true);
        } finally {
            lock.unlock();
        }
    }

    /** Drains {@code d}, stops draining it and makes its producer's next frame throw. */
    void remove(TrackerDrain d, String reason) {
        lock.lock();
        try {
            d.ring.close(reason);
            drainLocked(d, false);
            if (drains.remove(d)) {
                droppedClosed += d.ring.dropped();
            }
        } finally {
            lock.unlock();
        }
    }

    long dropped() {
        lock.lock();
        try {
            return droppedLocked();
        } finally {
            lock.unlock();
        }
    }

    private long droppedLocked() {
        long n = droppedClosed;
        for (TrackerDrain d : drains) {
            n += d.ring.dropped();
        }
        return n;
    }

    /** Test hook: while paused the drain thread counts nothing (flushes still do). */
    void pause(boolean pause) {
        lock.lock();
        try {
            paused = pause;
            wakeUp.signal();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Benchmark hook: the drain thread's next pass starts now rather than at its period's end
     * (after the pass under way, if one is).
     */
    void wake() {
        lock.lock();
        try {
            wakeUp.signal();
        } finally {
            lock.unlock();
        }
    }

    /**
     * The session's close: every ring closed (further frames throw), drained, and the thread
     * stopped. Idempotent.
     */
    void close() {
        stopAndDrain();
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException e) {
            // Shutting down: the hook runs (after this close, it finds nothing left) or has run.
        }
    }

    private void stopAndDrain() {
        lock.lock();
        try {
            if (stopped) {
                return;
            }
            stopped = true;
            wakeUp.signal();
            for (TrackerDrain d : drains) {
                d.ring.close("session closed");
            }
            drainAllLocked(true);
            long dropped = droppedLocked();
            if (dropped > 0) {
                LOG.warn("{}: {} frames were dropped in this session because a frame ring was full", name, dropped);
            }
        } finally {
            lock.unlock();
        }
    }
}
