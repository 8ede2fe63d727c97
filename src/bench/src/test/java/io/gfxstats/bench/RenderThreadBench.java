package io.gfxstats.bench;

import io.gfxstats.client.BenchHooks;
import io.gfxstats.client.SceneOptions;
import io.gfxstats.client.StatsSession;
import io.gfxstats.client.WindowTracker;
import org.HdrHistogram.AtomicHistogram;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * The render thread's cost of {@link WindowTracker#record} against AtomicHistogram, measured by the
 * same method as the C client's ({@code src/native/tests/bench.c}, {@code BENCH_METHOD}): the same
 * frames, the same chunks, the same medians, so that the Java and the C figures mean the same.
 *
 * <p>Each round walks FRAMES frames in chunks of CHUNK; per chunk, both paths run on it one after
 * the other, each timed alone (after the chunk's frames were read once, untimed, so that both find
 * them in L1). The medians are over all chunks of all rounds but the first (a warm-up: the JIT, and
 * in C the first touch of the ring), so that a chunk in which the thread lost its CPU does not
 * move them. After each chunk of {@code record} the ring is drained, untimed; where is the method:
 * <ul>
 * <li>{@code same}: on the recording thread itself ({@link StatsSession#flush()}), so the ring's
 *     lines stay in the recording core's cache (the C benchmark's method until session 11);
 * <li>{@code cross}: on another thread (a flush there; the session's own drain thread is paused, so
 *     that it is the only one), while the recording thread spins until it is done: the recording
 *     thread then writes lines that the other core read last, as with the session's drain thread
 *     in an app (the JMH benchmark's method);
 * <li>{@code paced}: as {@code cross}, and every frame is followed by WORK rounds of an unrelated
 *     computation (a chain of dependent multiply-adds), as a render thread draws between frames;
 *     a third chunk runs the work alone, and the figure per frame is each path's chunk minus that
 *     chunk (paired, per chunk), so the line transfers may overlap with work instead of stalling
 *     back-to-back appends.
 * </ul>
 * Prints one line, {@code lang=java method=M record_ns=R peer_ns=P ratio=R/P work_ns=W ...
 * transfer_before_ns=B transfer_after_ns=A} ({@code scripts/bench methods} collects them), B and A
 * a cache line's time between the two CPUs before and after the rounds ({@link LineTransfer}),
 * which the other-core figures follow. A dropped frame fails the run.
 *
 * <p>Usage: {@code RenderThreadBench same|cross|paced [FRAMES [ROUNDS [CHUNK [WORK]]]]} (defaults
 * 1000000, 5, 256, 0; ROUNDS counts the measured rounds).
 */
public final class RenderThreadBench {
    static final long INTERVAL = 16_666_667L;
    static final long HIGHEST_NANOS = TimeUnit.SECONDS.toNanos(10);
    /** The JVM flag that paced needs (scripts/bench methods gives it). */
    static final String DONT_INLINE = "-XX:CompileCommand=dontinline,io.gfxstats.bench.RenderThreadBench::spin";
    /** Keeps the work's and the warming's results alive. */
    static long sink;

    enum Method { SAME, CROSS, PACED }

    private RenderThreadBench() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 1) {
            System.err.println("usage: RenderThreadBench same|cross|paced [FRAMES [ROUNDS [CHUNK [WORK]]]]");
            System.exit(2);
        }
        Method method = Method.valueOf(args[0].toUpperCase(Locale.ROOT));
        int n = args.length > 1 ? Integer.parseInt(args[1]) : 1_000_000;
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 5;
        int chunk = args.length > 3 ? Integer.parseInt(args[3]) : 256;
        int work = args.length > 4 ? Integer.parseInt(args[4]) : 0;
        if (n < 1 || rounds < 1 || chunk < 1 || chunk > 256 || work < 0 || (method == Method.PACED) != (work > 0)) {
            System.err.println("RenderThreadBench: FRAMES >= 1, ROUNDS >= 1, CHUNK 1..256, and WORK > 0 with paced only");
            System.exit(2);
        }
        if (method == Method.PACED
                && !java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments().contains(DONT_INLINE)) {
            System.err.println("RenderThreadBench: paced needs the JVM flag " + DONT_INLINE + " (scripts/bench methods gives it)");
            System.exit(2);
        }
        long[] f = frames(n);
        int perRound = (n + chunk - 1) / chunk;
        double[] rec = new double[perRound * rounds];
        double[] peer = new double[rec.length];
        double[] alone = new double[method == Method.PACED ? rec.length : 0];
        AtomicHistogram histogram = new AtomicHistogram(HIGHEST_NANOS, 2);
        long dropped;
        double transferBefore;
        double transferAfter;
        try (BenchSession bench = new BenchSession(SceneOptions.DEFAULT)) {
            StatsSession session = bench.session;
            // The session's drain thread counts nothing meanwhile: the method says who drains.
            BenchHooks.pauseDrain(session, true);
            WindowTracker tracker = session.newTracker();
            int[] cpus = firstTwoCpus();
            pin(cpus[0]);
            Drainer drainer = method == Method.SAME ? null : new Drainer(session, cpus[1]);
            try (LineTransfer probe = new LineTransfer()) {
                // The cross-core figures mean little without the line's time between the CPUs at that moment.
                transferBefore = probe.oneWayNanos();
                int k = 0;
                for (int r = 0; r <= rounds; r++) {
                    for (int c = 0; c < n; c += chunk) {
                        int end = Math.min(c + chunk, n);
                        warm(f, c, end);
                        long t0 = System.nanoTime();
                        recordChunk(tracker, f, c, end, work);
                        long t1 = System.nanoTime();
                        if (drainer == null) {
                            session.flush();
                        } else {
                            drainer.drain();
                        }
                        long t2 = System.nanoTime();
                        peerChunk(histogram, f, c, end, work);
                        long t3 = System.nanoTime();
                        long t4 = t3;
                        if (method == Method.PACED) {
                            workChunk(c, end, work);
                            t4 = System.nanoTime();
                        }
                        if (r > 0) { // round 0 warms up
                            double frames = end - c;
                            rec[k] = (t1 - t0) / frames;
                            peer[k] = (t3 - t2) / frames;
                            if (method == Method.PACED) {
                                alone[k] = (t4 - t3) / frames;
                                rec[k] -= alone[k];
                                peer[k] -= alone[k];
                            }
                            k++;
                        }
                    }
                }
                transferAfter = probe.oneWayNanos();
            } finally {
                if (drainer != null) {
                    drainer.close();
                }
            }
            tracker.close();
            dropped = session.droppedFrames();
        }
        if (dropped != 0) { // after the close, which deletes the session's directory
            System.err.println("RenderThreadBench: " + dropped + " frames dropped: the figures would not be the append's");
            System.exit(1);
        }
        Arrays.sort(rec);
        Arrays.sort(peer);
        Arrays.sort(alone);
        double r = rec[rec.length / 2];
        double p = peer[peer.length / 2];
        System.out.println(String.format(Locale.ROOT,
                "lang=java method=%s record_ns=%.2f peer_ns=%.2f ratio=%.2f work_ns=%.1f frames=%d rounds=%d chunk=%d "
                        + "work=%d record_min=%.2f peer_min=%.2f transfer_before_ns=%.1f transfer_after_ns=%.1f",
                method.name().toLowerCase(Locale.ROOT), r, p, r / p, alone.length == 0 ? 0 : alone[alone.length / 2],
                n, rounds, chunk, work, rec[0], peer[0], transferBefore, transferAfter));
    }

    /**
     * The first two CPUs this process may run on (/proc/self/status), the recording thread's and the
     * drain thread's; -1 where there is none.
     */
    static int[] firstTwoCpus() throws IOException {
        int[] cpus = {-1, -1};
        int k = 0;
        for (String line : Files.readAllLines(Path.of("/proc/self/status"), StandardCharsets.UTF_8)) {
            if (!line.startsWith("Cpus_allowed_list:")) {
                continue;
            }
            for (String range : line.substring(line.indexOf(':') + 1).trim().split(",")) {
                String[] ends = range.split("-");
                int from = Integer.parseInt(ends[0]);
                int to = ends.length > 1 ? Integer.parseInt(ends[1]) : from;
                for (int c = from; c <= to && k < 2; c++) {
                    cpus[k++] = c;
                }
            }
        }
        return cpus;
    }

    /**
     * Pins the calling thread to {@code cpu} (taskset on its thread id): the drain then runs on the
     * other core whatever else the machine runs; otherwise the scheduler may wake it on the
     * recording thread's CPU, and the other-core case is not what is measured.
     */
    static void pin(int cpu) {
        if (cpu < 0) {
            return;
        }
        try {
            String tid = Files.readSymbolicLink(Path.of("/proc/thread-self")).getFileName().toString();
            Process p = new ProcessBuilder("taskset", "-pc", Integer.toString(cpu), tid)
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            if (p.waitFor() != 0) {
                System.err.println("RenderThreadBench: could not pin a thread to CPU " + cpu);
            }
        } catch (IOException e) {
            System.err.println("RenderThreadBench: could not pin a thread to CPU " + cpu + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** bench.c's frames: a 60 Hz renderer, 2-15 ms of work, every 40th 20-60 ms, GPU 0-4 ms after. */
    static long[] frames(int n) {
        long[] f = new long[3 * n];
        long x = 88172645463325252L;
        long t = 1_000_000_000L;
        for (int i = 0; i < n; i++) {
            x ^= x << 13;
            x ^= x >>> 7;
            x ^= x << 17;
            long work = i % 40 == 39 ? 20_000_000 + Long.remainderUnsigned(x, 40_000_000)
                    : 2_000_000 + Long.remainderUnsigned(x, 13_000_000);
            f[3 * i] = t;
            f[3 * i + 1] = t + work;
            f[3 * i + 2] = t + work + Long.remainderUnsigned(x >>> 20, 4_000_000);
            t += INTERVAL;
        }
        return f;
    }

    /** Reads frames [from, to) once, untimed, so that both paths find them in L1. */
    static void warm(long[] f, int from, int to) {
        long warm = 0;
        for (int i = 3 * from; i < 3 * to; i++) {
            warm ^= f[i];
        }
        sink += warm;
    }

    /**
     * Rounds of the unrelated work: one multiply-add each, each dependent on the one before. Must not
     * be inlined ({@link #DONT_INLINE}): the three loops that call it then run the same compiled code
     * for it, so that subtracting the work's chunk leaves the path alone (inlined, C2 unrolls and
     * schedules each copy differently: 3 % of 1 us is more than the path costs).
     */
    static long spin(long x, int rounds) {
        for (int i = 0; i < rounds; i++) {
            x = x * 0x5851F42D4C957F2DL + i;
        }
        return x;
    }

    /**
     * A chunk of frames through the client. Without work (same, cross) the loop is the frames
     * alone, back to back, as bench.c's: a call of {@link #spin} per frame, even of no rounds,
     * would put a call that C2 must keep the loop's values across into both loops.
     */
    static void recordChunk(WindowTracker tracker, long[] f, int from, int to, int work) {
        if (work == 0) {
            for (int i = from; i < to; i++) {
                tracker.record(f[3 * i], f[3 * i], f[3 * i + 1], f[3 * i + 2], INTERVAL);
            }
            return;
        }
        long x = sink;
        for (int i = from; i < to; i++) {
            tracker.record(f[3 * i], f[3 * i], f[3 * i + 1], f[3 * i + 2], INTERVAL);
            x = spin(x, work);
        }
        sink = x;
    }

    /** A chunk of frames through the peer, as {@link #recordChunk}. */
    static void peerChunk(AtomicHistogram histogram, long[] f, int from, int to, int work) {
        if (work == 0) {
            for (int i = from; i < to; i++) {
                histogram.recordValue(f[3 * i + 1] - f[3 * i]);
            }
            return;
        }
        long x = sink;
        for (int i = from; i < to; i++) {
            histogram.recordValue(f[3 * i + 1] - f[3 * i]);
            x = spin(x, work);
        }
        sink = x;
    }

    static void workChunk(int from, int to, int work) {
        long x = sink;
        for (int i = from; i < to; i++) {
            x = spin(x, work);
        }
        sink = x;
    }

    /**
     * A thread that drains the session when asked (a flush), while the asking thread spins until
     * it is done. It parks between requests, so that it does not take a CPU from the other work on
     * a shared machine; its wake-up is outside the measured time.
     */
    static final class Drainer {
        private final AtomicLong asked = new AtomicLong();
        private final AtomicLong done = new AtomicLong();
        private final Thread thread;
        private volatile boolean stop;

        Drainer(StatsSession session, int cpu) {
            thread = new Thread(() -> {
                pin(cpu);
                long seen = 0;
                while (!stop) {
                    long a = asked.get();
                    if (a == seen) {
                        LockSupport.park(this);
                        continue;
                    }
                    session.flush();
                    seen = a;
                    done.set(a);
                }
            }, "bench-drain");
            thread.setDaemon(true);
            thread.start();
        }

        /** Asks for a drain and spins until it has run. */
        void drain() {
            long a = asked.incrementAndGet();
            LockSupport.unpark(thread);
            while (done.get() < a) {
                Thread.onSpinWait();
            }
        }

        /** Ends the thread. */
        void close() throws InterruptedException {
            stop = true;
            LockSupport.unpark(thread);
            thread.join();
        }
    }
}
