package io.gfxstats.client;

import io.gfxstats.buffer.FrameStream;
import io.gfxstats.stats.ProfileData;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * Rendering threads for session tests: each owns one tracker and records {@link FrameStream}
 * frames (seed firstSeed + i) until stopped, pausing briefly now and then so that the session's
 * own thread gets the CPU on a small machine. Afterwards {@link #expected()} replays exactly the
 * frames each thread recorded.
 */
final class Recorders {
    private final long firstSeed;
    private final List<Thread> threads = new ArrayList<>();
    private final long[] recorded;
    private final AtomicLong total = new AtomicLong();
    private final List<Throwable> failures = new ArrayList<>();
    private final CountDownLatch started;
    private volatile boolean stop;

    private Recorders(StatsSession session, int count, long firstSeed) {
        this.firstSeed = firstSeed;
        this.recorded = new long[count];
        this.started = new CountDownLatch(count);
        for (int i = 0; i < count; i++) {
            int index = i;
            WindowTracker tracker = session.newTracker(FrameStream.tracker());
            threads.add(new Thread(() -> run(tracker, index), "recorder-" + i));
        }
    }

    static Recorders start(StatsSession session, int count, long firstSeed) throws InterruptedException {
        Recorders r = new Recorders(session, count, firstSeed);
        for (Thread t : r.threads) {
            t.start();
        }
        r.started.await(10, TimeUnit.SECONDS);
        return r;
    }

    private void run(WindowTracker tracker, int index) {
        FrameStream stream = new FrameStream(firstSeed + index);
        started.countDown();
        try {
            long n = 0;
            while (!stop) {
                tracker.record(stream.next());
                n++;
                total.incrementAndGet();
                if (n % 256 == 0) {
                    LockSupport.parkNanos(20_000);
                }
            }
            recorded[index] = n;
            tracker.close();
        } catch (Throwable t) {
            synchronized (failures) {
                failures.add(t);
            }
        }
    }

    /** Frames recorded so far by all threads. */
    long total() {
        return total.get();
    }

    /** Waits until at least {@code more} further frames have been recorded. */
    void awaitProgress(long more) throws InterruptedException {
        long target = total.get() + more;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (total.get() < target) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("recorders stalled at " + total.get());
            }
            Thread.sleep(1);
        }
    }

    /** Stops every thread (each closes its tracker) and rethrows any failure. */
    void stop() throws InterruptedException {
        stop = true;
        for (Thread t : threads) {
            t.join(20_000);
        }
        if (!failures.isEmpty()) {
            AssertionError e = new AssertionError("recorder failed");
            failures.forEach(e::addSuppressed);
            throw e;
        }
    }

    ProfileData expected() {
        ProfileData data = new ProfileData();
        for (int i = 0; i < recorded.length; i++) {
            data.merge(FrameStream.expected(firstSeed + i, (int) recorded[i]));
        }
        return data;
    }
}
