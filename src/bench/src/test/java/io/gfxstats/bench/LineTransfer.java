package io.gfxstats.bench;

import java.io.IOException;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * How long one cache line takes to go from one CPU to the other right now: two threads pinned to
 * the first two CPUs pass a counter back and forth in one line, and half a round trip is the
 * figure (median of {@value #BURSTS} bursts of {@value #ROUND_TRIPS} round trips).
 *
 * <p>Why it is measured with every cross-core figure: on this project's two-CPU virtual machines
 * the host moves the two virtual CPUs between physical cores every few seconds, and the time of a
 * line between them moves with it, from about 30-70 ns to 150-400 ns (docs/benchmarks.md,
 * "Session 27"). A render thread whose ring lines the drain read on the other CPU pays that time
 * for every line it writes again; a peer that never leaves its own core pays nothing. So a ratio
 * against such a peer means little without the transfer time of the same moment.
 *
 * <p>The two threads are made once and parked between probes; a probe takes a few milliseconds,
 * both CPUs busy. Not for use while the measured code runs.
 */
final class LineTransfer implements AutoCloseable {
    static final int ROUND_TRIPS = 2_000;
    static final int BURSTS = 5;
    static final int WARMUPS = 10;

    private final Side a;
    private final Side b;
    /** The ball: odd after a's throw, even after b's; nothing else is written while it flies. */
    private final AtomicLong ball = new AtomicLong();

    /** Both threads, pinned to the process's first two CPUs (none when it may run on fewer). */
    LineTransfer() throws IOException, InterruptedException {
        int[] cpus = RenderThreadBench.firstTwoCpus();
        a = new Side("line-transfer-a", cpus[0], true);
        b = new Side("line-transfer-b", cpus[1], false);
        // Compiled before the first figure: an interpreted burst takes several times as long.
        for (int i = 0; i < WARMUPS; i++) {
            oneWayNanos();
        }
    }

    /** Prints {@code line_transfer_ns=<one way>}, probed COUNT times (default 1), one line each. */
    public static void main(String[] args) throws Exception {
        int count = args.length > 0 ? Integer.parseInt(args[0]) : 1;
        try (LineTransfer probe = new LineTransfer()) {
            for (int i = 0; i < count; i++) {
                System.out.println(String.format(Locale.ROOT, "line_transfer_ns=%.1f", probe.oneWayNanos()));
            }
        }
    }

    /** Half a round trip in ns (median of the bursts); NaN when the process has fewer than two CPUs. */
    double oneWayNanos() throws InterruptedException {
        if (a.cpu < 0 || b.cpu < 0) {
            return Double.NaN;
        }
        double[] bursts = new double[BURSTS];
        for (int i = 0; i < BURSTS; i++) {
            ball.set(0);
            // The caller blocks meanwhile: spinning, it would take one of the two CPUs measured.
            CountDownLatch done = new CountDownLatch(2);
            b.play(done);
            a.play(done);
            done.await();
            bursts[i] = a.nanos / (2.0 * ROUND_TRIPS);
        }
        Arrays.sort(bursts);
        return bursts[BURSTS / 2];
    }

    /** Ends both threads (they are daemon threads: an interrupted close leaves them to the JVM's exit). */
    @Override
    public void close() {
        try {
            b.stop();
            a.stop();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** One end of the line: a thread pinned to its CPU that throws the ball back when it gets it. */
    private final class Side {
        final int cpu;
        final boolean first;
        final Thread thread;
        private final SynchronousQueue<CountDownLatch> bursts = new SynchronousQueue<>();
        /** The last burst's time on this side, read after its latch. */
        long nanos;

        Side(String name, int cpu, boolean first) {
            this.cpu = cpu;
            this.first = first;
            thread = new Thread(this::loop, name);
            thread.setDaemon(true);
            thread.start();
        }

        private void loop() {
            RenderThreadBench.pin(cpu);
            try {
                for (CountDownLatch done = bursts.take(); done != STOP; done = bursts.take()) {
                    long t0 = System.nanoTime();
                    burst();
                    nanos = System.nanoTime() - t0;
                    done.countDown();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        /** a throws first (odd numbers), b throws back (even); each waits for the other's throw. */
        private void burst() {
            long mine = first ? 1 : 2;
            for (int i = 0; i < ROUND_TRIPS; i++, mine += 2) {
                if (!first) {
                    while (ball.get() != mine - 1) {
                        Thread.onSpinWait();
                    }
                }
                ball.set(mine);
                if (first) {
                    while (ball.get() != mine + 1) {
                        Thread.onSpinWait();
                    }
                }
            }
        }

        void play(CountDownLatch done) throws InterruptedException {
            bursts.put(done);
        }

        void stop() throws InterruptedException {
            bursts.put(STOP);
            thread.join();
        }
    }

    private static final CountDownLatch STOP = new CountDownLatch(0);
}
