package io.gfxstats.bench;

import io.gfxstats.buffer.FrameStream;
import io.gfxstats.buffer.StripeWriter;
import io.gfxstats.client.SceneOptions;
import io.gfxstats.client.WindowTracker;
import io.gfxstats.frame.DaveyListener;
import io.gfxstats.frame.ModernJankTracker;
import io.gfxstats.frame.TrackerConfig;
import io.gfxstats.stats.StatsSink;
import org.HdrHistogram.AtomicHistogram;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;

import java.io.IOException;
import java.util.concurrent.TimeUnit;

/**
 * Where the time of {@link ClientRecordBenchmark#gfxstatsRecord1t} goes, in time rather than
 * instructions: the same frame stream through parts of the path, each next to the peer in the
 * same fork. {@code record} is the whole path with the session's scenes on or off
 * ({@code scenes} parameter), the append to the frame ring and the counting, both on the
 * benchmark thread (the session counts a full ring on the recording thread; the drain thread
 * takes a share now and then); {@code rulesDiscard} the jank rules into a sink that counts
 * nothing; {@code rulesStripe} the rules into an in-memory stripe (no session check, no scenes).
 * Run by {@code scripts/bench parts}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Threads(1)
public class ClientPartsBenchmark {

    @State(Scope.Thread)
    public static class Window {
        @Param({"on", "off"})
        String scenes;
        BenchSession session;
        WindowTracker tracker;
        long intendedVsync = 1_000_000_000L;
        int next;

        @Setup(Level.Trial)
        public void setUp() throws Exception {
            // Flat out, the recording thread counts its ring itself whenever it is full: the whole
            // path (append and counting) on one thread, as record ran before the frame ring.
            session = new BenchSession(scenes.equals("on") ? SceneOptions.DEFAULT : SceneOptions.DISABLED, true);
            tracker = session.session.newTracker();
        }

        @TearDown(Level.Trial)
        public void tearDown() throws IOException {
            tracker.close();
            session.close();
        }
    }

    @State(Scope.Thread)
    public static class Rules {
        final ModernJankTracker rules = new ModernJankTracker(TrackerConfig.live(FrameStream.INTERVAL),
                DaveyListener.ignoring());
        final StripeWriter stripe = StripeWriter.inMemory();
        final StatsSink discard = c -> { };
        long intendedVsync = 1_000_000_000L;
        int next;

        @TearDown(Level.Trial)
        public void tearDown() {
            stripe.release();
        }
    }

    @State(Scope.Thread)
    public static class Peer {
        final AtomicHistogram histogram = new AtomicHistogram(ClientRecordBenchmark.HIGHEST_NANOS, 2);
        int next;
    }

    @Benchmark
    public void record(ClientRecordBenchmark.Durations d, Window w) {
        long duration = d.nanos[w.next++ & (ClientRecordBenchmark.STREAM_LENGTH - 1)];
        long intended = w.intendedVsync;
        w.intendedVsync = intended + FrameStream.INTERVAL;
        long completed = intended + duration;
        w.tracker.record(intended, intended, completed, completed + ClientRecordBenchmark.GPU_NANOS,
                FrameStream.INTERVAL);
    }

    @Benchmark
    public void rulesStripe(ClientRecordBenchmark.Durations d, Rules r) {
        rules(d, r, r.stripe);
    }

    @Benchmark
    public void rulesDiscard(ClientRecordBenchmark.Durations d, Rules r) {
        rules(d, r, r.discard);
    }

    private static void rules(ClientRecordBenchmark.Durations d, Rules r, StatsSink sink) {
        long duration = d.nanos[r.next++ & (ClientRecordBenchmark.STREAM_LENGTH - 1)];
        long intended = r.intendedVsync;
        r.intendedVsync = intended + FrameStream.INTERVAL;
        long completed = intended + duration;
        r.rules.finishFrame(intended, intended, completed, completed + ClientRecordBenchmark.GPU_NANOS,
                FrameStream.INTERVAL, sink);
    }

    @Benchmark
    public void hdrAtomic(ClientRecordBenchmark.Durations d, Peer p) {
        p.histogram.recordValue(d.nanos[p.next++ & (ClientRecordBenchmark.STREAM_LENGTH - 1)]);
    }
}
