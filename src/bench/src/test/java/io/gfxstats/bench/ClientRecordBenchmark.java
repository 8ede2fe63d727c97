package io.gfxstats.bench;

import io.gfxstats.buffer.FrameStream;
import io.gfxstats.client.BenchHooks;
import io.gfxstats.client.SceneOptions;
import io.gfxstats.client.StatsSession;
import io.gfxstats.client.WindowTracker;
import org.HdrHistogram.AtomicHistogram;
import org.HdrHistogram.Histogram;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;

import java.io.IOException;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * Cost of recording one frame through the client API on the recording thread (the append to the
 * tracker's frame ring; the session's drain thread counts it: jank rules, scenes, Matrix levels,
 * the writes into the mapped buffer), against HdrHistogram recording the same durations. Every
 * benchmark walks the same precomputed stream: 90 % of frames 4-16 ms, 8 % 17-50 ms, 2 % 50-800 ms.
 *
 * <p>Each invocation records a batch of {@value #BATCH} frames. A recording thread can append
 * far faster than the drain counts, and a real one appends one frame per vsync; so before each
 * batch (in a per-invocation setup, outside the measured time) the thread waits, spinning, until
 * the drain thread has left at most one batch in the ring: the measured appends never meet a
 * full ring, the drain thread counts every frame concurrently, and the session's tear-down fails
 * the run if a frame was dropped. When the ring holds more than a batch, the wait first wakes the
 * session's drain thread (a benchmark hook) rather than leaving it to its 4 ms period: the loop
 * runs back to back as the peers' do. On its period alone ({@code gfxstatsTimerDrain1t}) the
 * recording thread spins about 4 ms after every 1,024 frames, which on this project's virtual
 * machines made its batches about twice as slow, where the same pause did not change
 * AtomicHistogram's (docs/benchmarks.md, "Session 18"). The primary (wall-clock) score is the
 * recording thread's cost per frame; the process CPU time per frame ({@link CpuTimeProfiler}) also holds
 * the drain thread's counting and the waits. The ring's lines the recording thread writes were
 * last read by the drain thread, on another core when the scheduler put it there;
 * {@code gfxstatsSameCore1t} is the same append with the batch counted by the recording thread
 * itself (the C benchmark's same-core method; {@code scripts/bench methods} runs both methods, the
 * drain pinned, for Java and C alike).
 *
 * <p>Two threads: each thread has its own tracker in one shared session (one process, two
 * windows); the AtomicHistogram is shared (that is what it is for), the Histogram is per thread
 * (it is not thread-safe). With both CPUs spinning or recording there is none for a woken drain
 * thread to run on but by preempting a recording thread, so there the drain keeps its period.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class ClientRecordBenchmark {
    static final int STREAM_LENGTH = 1 << 12;
    static final long GPU_NANOS = 2_000_000L;
    static final long HIGHEST_NANOS = TimeUnit.SECONDS.toNanos(10);
    /** Frames per invocation: half the ring, so a batch always fits behind what the drain left. */
    static final int BATCH = 512;

    /** The duration stream, shared read-only. */
    @State(Scope.Benchmark)
    public static class Durations {
        final long[] nanos = new long[STREAM_LENGTH];

        @Setup
        public void setUp() {
            SplittableRandom random = new SplittableRandom(42);
            for (int i = 0; i < nanos.length; i++) {
                nanos[i] = FrameStream.drawDuration(random);
            }
        }
    }

    /** One session attached to a real buffer file, with the default session's features. */
    @State(Scope.Benchmark)
    public static class Session {
        BenchSession bench;
        StatsSession session;

        @Setup(Level.Trial)
        public void setUp() throws Exception {
            bench = new BenchSession(SceneOptions.DEFAULT);
            session = bench.session;
        }

        @TearDown(Level.Trial)
        public void tearDown() throws IOException {
            long dropped = session.droppedFrames();
            bench.close();
            if (dropped > 0) {
                throw new IllegalStateException(dropped + " frames dropped: the figures would not be the append's");
            }
        }
    }

    /** A tracker and where its thread is in the stream. */
    abstract static class Recording {
        WindowTracker tracker;
        long intendedVsync = 1_000_000_000L;
        int next;
    }

    /** A window of the session, recorded by one thread. */
    @State(Scope.Thread)
    public static class Window extends Recording {
        StatsSession session;

        @Setup(Level.Trial)
        public void setUp(Session session) {
            this.session = session.session;
            tracker = session.session.newTracker();
        }

        /** Whether the wait for room wakes the drain thread. */
        boolean wakesDrain() {
            return true;
        }

        /**
         * Not measured: until the drain thread has left at most one batch in the ring, woken if
         * there is more ({@link #wakesDrain}). Spinning, not parking: a parked thread comes back to
         * caches that other work (or another CPU) had meanwhile, which put a cold start of varying
         * size into every measured batch (the peers never wait); the drain thread has the other CPU
         * meanwhile.
         */
        @Setup(Level.Invocation)
        public void roomForABatch() {
            if (wakesDrain() && tracker.pendingFrames() > BATCH) {
                BenchHooks.wakeDrain(session);
            }
            while (tracker.pendingFrames() > BATCH) {
                Thread.onSpinWait();
            }
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            tracker.close();
        }
    }

    /** {@link Window} with the drain thread on its own period only (the single-threaded figure before session 18). */
    @State(Scope.Thread)
    public static class TimerWindow extends Window {
        @Override
        boolean wakesDrain() {
            return false;
        }
    }

    /**
     * The same-core method (the C benchmark's, and {@code scripts/bench methods}' "same"): a session
     * of its own whose drain thread is paused, and before each batch (outside the measured time)
     * the recording thread counts what the last batch left, itself. So the ring's lines stay in the
     * recording core's cache, where {@link Window}'s are read by the drain thread on another core
     * between the batches.
     */
    @State(Scope.Thread)
    public static class SameCoreWindow extends Recording {
        BenchSession bench;
        StatsSession session;

        @Setup(Level.Trial)
        public void setUp() throws Exception {
            bench = new BenchSession(SceneOptions.DEFAULT);
            session = bench.session;
            BenchHooks.pauseDrain(session, true);
            tracker = session.newTracker();
        }

        /** Not measured: the last batch counted on this thread. */
        @Setup(Level.Invocation)
        public void drainHere() {
            session.flush();
        }

        @TearDown(Level.Trial)
        public void tearDown() throws IOException {
            tracker.close();
            long dropped = session.droppedFrames();
            bench.close();
            if (dropped > 0) {
                throw new IllegalStateException(dropped + " frames dropped: the figures would not be the append's");
            }
        }
    }

    @State(Scope.Benchmark)
    public static class SharedAtomicHistogram {
        final AtomicHistogram histogram = new AtomicHistogram(HIGHEST_NANOS, 2);
    }

    @State(Scope.Thread)
    public static class ThreadHistogram {
        final Histogram histogram = new Histogram(HIGHEST_NANOS, 2);
    }

    @State(Scope.Thread)
    public static class Cursor {
        int next;
    }

    /*
     * Both loops keep the stream's cursor (and gfxstats its vsync) in locals for the batch and store
     * them back once: what is measured is the record call, not the harness's own field traffic
     * (a field loaded and stored on every frame is a chain through memory, about as long as the
     * whole record call).
     */
    private static void recordBatch(Durations d, Recording w) {
        long[] nanos = d.nanos;
        WindowTracker tracker = w.tracker;
        int next = w.next;
        long intended = w.intendedVsync;
        for (int i = 0; i < BATCH; i++) {
            long completed = intended + nanos[next++ & (STREAM_LENGTH - 1)];
            tracker.record(intended, intended, completed, completed + GPU_NANOS, FrameStream.INTERVAL);
            intended += FrameStream.INTERVAL;
        }
        w.next = next;
        w.intendedVsync = intended;
    }

    private static void recordBatch(Durations d, org.HdrHistogram.AbstractHistogram h, Cursor c) {
        long[] nanos = d.nanos;
        int next = c.next;
        for (int i = 0; i < BATCH; i++) {
            h.recordValue(nanos[next++ & (STREAM_LENGTH - 1)]);
        }
        c.next = next;
    }

    @Benchmark
    @Threads(1)
    @OperationsPerInvocation(BATCH)
    public void gfxstatsRecord1t(Durations d, Window w) {
        recordBatch(d, w);
    }

    @Benchmark
    @Threads(1)
    @OperationsPerInvocation(BATCH)
    public void gfxstatsTimerDrain1t(Durations d, TimerWindow w) {
        recordBatch(d, w);
    }

    @Benchmark
    @Threads(1)
    @OperationsPerInvocation(BATCH)
    public void gfxstatsSameCore1t(Durations d, SameCoreWindow w) {
        recordBatch(d, w);
    }

    @Benchmark
    @Threads(2)
    @OperationsPerInvocation(BATCH)
    public void gfxstatsRecord2t(Durations d, TimerWindow w) {
        recordBatch(d, w);
    }

    @Benchmark
    @Threads(1)
    @OperationsPerInvocation(BATCH)
    public void hdrAtomicRecord1t(Durations d, SharedAtomicHistogram h, Cursor c) {
        recordBatch(d, h.histogram, c);
    }

    @Benchmark
    @Threads(2)
    @OperationsPerInvocation(BATCH)
    public void hdrAtomicRecord2t(Durations d, SharedAtomicHistogram h, Cursor c) {
        recordBatch(d, h.histogram, c);
    }

    @Benchmark
    @Threads(1)
    @OperationsPerInvocation(BATCH)
    public void hdrRecord1t(Durations d, ThreadHistogram h, Cursor c) {
        recordBatch(d, h.histogram, c);
    }

    @Benchmark
    @Threads(2)
    @OperationsPerInvocation(BATCH)
    public void hdrRecord2t(Durations d, ThreadHistogram h, Cursor c) {
        recordBatch(d, h.histogram, c);
    }
}
