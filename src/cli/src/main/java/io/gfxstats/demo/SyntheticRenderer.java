package io.gfxstats.demo;

import io.gfxstats.client.Attachment;
import io.gfxstats.client.BufferProvider;
import io.gfxstats.client.DaemonBufferProvider;
import io.gfxstats.client.SessionOptions;
import io.gfxstats.client.StatsSession;
import io.gfxstats.client.WindowTracker;
import io.gfxstats.frame.DaveyListener;
import io.gfxstats.frame.FrameInfo;
import io.gfxstats.frame.ModernJankTracker;
import io.gfxstats.frame.TrackerConfig;
import io.gfxstats.stats.JankType;
import io.gfxstats.stats.ProfileData;
import java.io.IOException;
import java.io.PrintStream;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A rendering process that exists to be measured: it registers with the daemon like any app
 * (a {@link StatsSession} with a {@link DaemonBufferProvider}), then records the frames of
 * {@link SyntheticFrames} in real time, each one when its last timestamp has passed, for the
 * configured duration. Prints {@code recorded N frames} about once a second and a summary at
 * the end.
 *
 * <p>The same frames also go through a private tracker, so the summary states what the daemon
 * must show for this process; {@link #simulate} computes the same without running anything.
 */
public final class SyntheticRenderer {
    /** Progress lines at most this often. */
    static final long PROGRESS_NANOS = 1_000_000_000L;
    /** Origin of simulated runs; any positive time gives the same counters. */
    private static final long SIMULATION_ORIGIN = 1_000_000_000L;

    private final SynthOptions options;
    private final Pacer pacer;
    private final PrintStream out;
    private final CountDownLatch finished = new CountDownLatch(1);
    private volatile boolean stopRequested;
    private volatile Thread renderThread;

    private final BufferProvider provider;

    /** A renderer that records with the daemon at {@code options.socket()}. */
    public SyntheticRenderer(SynthOptions options, Pacer pacer, PrintStream out) {
        this(options, new DaemonBufferProvider(options.socket()), pacer, out);
    }

    SyntheticRenderer(SynthOptions options, BufferProvider provider, Pacer pacer, PrintStream out) {
        this.options = options;
        this.provider = provider;
        this.pacer = pacer;
        this.out = out;
    }

    /** The daemon could not be reached within the attach timeout; nothing was recorded. */
    public static final class DaemonUnavailableException extends Exception {
        private static final long serialVersionUID = 1L;

        DaemonUnavailableException(String message) {
            super(message);
        }
    }

    /** What a run recorded, as counted by the process itself. */
    public record Result(ProfileData stats, boolean stopped) {
        public long frames() {
            return stats.totalFrames();
        }
    }

    /**
     * Counters that a run with these options produces, computed in memory with the same rules
     * the client library applies.
     */
    public static ProfileData simulate(SynthOptions options) {
        ProfileData stats = new ProfileData();
        ModernJankTracker tracker = new ModernJankTracker(TrackerConfig.live(options.intervalNanos()),
                DaveyListener.ignoring());
        SyntheticFrames frames = frames(options, SIMULATION_ORIGIN);
        FrameInfo frame = new FrameInfo();
        while (frames.next(frame)) {
            tracker.finishFrame(frame, stats);
        }
        return stats;
    }

    private static SyntheticFrames frames(SynthOptions options, long origin) {
        return new SyntheticFrames(options.profile(), options.intervalNanos(), options.seed(), origin,
                options.duration().toNanos());
    }

    /**
     * Registers, renders for the configured duration (or until {@link #stop()}), closes the
     * session so the daemon saves everything, and prints the summary.
     *
     * @throws DaemonUnavailableException if no daemon answered within the attach timeout
     */
    public Result run() throws DaemonUnavailableException, InterruptedException {
        renderThread = Thread.currentThread();
        try {
            return render();
        } finally {
            renderThread = null;
            finished.countDown();
        }
    }

    private Result render() throws DaemonUnavailableException, InterruptedException {
        long interval = options.intervalNanos();
        SessionOptions sessionOptions = SessionOptions.builder(options.packageName(), options.versionCode())
                .pipeline(options.pipeline())
                .refreshIntervalNanos(interval)
                // Its tests drive it by a pacer that does not wait: faster than real time.
                .countWhenRingFull(true)
                .build();
        AtomicReference<String> refusal = new AtomicReference<>();
        BufferProvider watched = (request, onEnded) -> {
            try {
                Attachment a = provider.attach(request, onEnded);
                refusal.set(null);
                return a;
            } catch (IOException | RuntimeException e) {
                refusal.set(e.getMessage());
                throw e;
            }
        };
        StatsSession session = StatsSession.open(sessionOptions, watched);
        ProfileData local = new ProfileData();
        boolean stopped;
        try {
            // Frames would be kept in memory until the daemon comes, but a renderer that nobody
            // can ever see is a mistake worth reporting before spending the time.
            boolean attached;
            try {
                attached = session.awaitAttached(options.attachTimeout());
            } catch (InterruptedException e) {
                if (!stopRequested) {
                    throw e;
                }
                attached = session.isAttached();
            }
            if (stopRequested) {
                Thread.interrupted();
                session.close();
                return finish(new Result(local, true));
            }
            if (!attached && refusal.get() != null && !refusal.get().contains("not running")) {
                // The daemon answered and refused (full, permission): that, not "is it running?".
                throw new DaemonUnavailableException(refusal.get());
            }
            if (!attached) {
                throw new DaemonUnavailableException("no gfxstats daemon answered at " + where()
                        + " within " + seconds(options.attachTimeout().toNanos()) + " (is gfxstatsd running?"
                        + " set --socket or GFXSTATS_SOCKET)");
            }
            out.printf(Locale.ROOT, "synth %s %d: %s profile, %d fps, %s, seed %d%n", options.packageName(),
                    options.versionCode(), options.profile(), options.fps(), seconds(options.duration().toNanos()),
                    options.seed());
            out.flush();
            stopped = renderInto(session, local, interval);
            // A stop() may have interrupted us; closing the session must not see that.
            Thread.interrupted();
        } finally {
            session.close();
        }
        return finish(new Result(local, stopped));
    }

    private String where() {
        return provider instanceof DaemonBufferProvider d ? d.socket().toString() : provider.toString();
    }

    private Result finish(Result result) {
        out.println(summary(result));
        out.flush();
        return result;
    }

    private boolean renderInto(StatsSession session, ProfileData local, long interval) {
        ModernJankTracker mirror = new ModernJankTracker(TrackerConfig.live(interval), DaveyListener.ignoring());
        FrameInfo frame = new FrameInfo();
        long origin = pacer.nanoTime();
        SyntheticFrames frames = frames(options, origin);
        long nextProgress = origin + PROGRESS_NANOS;
        long recorded = 0;
        try (WindowTracker tracker = session.newTracker()) {
            while (!stopRequested && frames.next(frame)) {
                pacer.sleepUntil(frames.readyAtNanos());
                if (stopRequested) {
                    break;
                }
                tracker.record(frame);
                mirror.finishFrame(frame, local);
                recorded++;
                long now = pacer.nanoTime();
                if (now >= nextProgress) {
                    out.println("recorded " + recorded + " frames");
                    out.flush();
                    // Stay on the one-second grid even after a long frame.
                    nextProgress += ((now - nextProgress) / PROGRESS_NANOS + 1) * PROGRESS_NANOS;
                }
            }
        }
        out.println("recorded " + recorded + " frames");
        return stopRequested;
    }

    /**
     * Asks a running {@link #run()} to finish early (e.g. on SIGTERM): the frame being waited
     * for is not recorded, everything recorded so far is kept. Safe from any thread.
     */
    public void stop() {
        stopRequested = true;
        Thread t = renderThread;
        if (t != null) {
            t.interrupt();
        }
    }

    /** Waits until {@link #run()} has returned (or never started and was not asked to). */
    public boolean awaitFinished(Duration timeout) throws InterruptedException {
        return finished.await(timeout.toNanos(), TimeUnit.NANOSECONDS);
    }

    static String summary(Result r) {
        ProfileData s = r.stats();
        long total = s.totalFrames();
        double percent = total == 0 ? 0 : 100.0 * s.jankyFrames() / total;
        return String.format(Locale.ROOT,
                "%s: %d frames, %d janky (%.2f%%); missed vsync %d, high input latency %d, slow UI thread %d,"
                        + " slow bitmap uploads %d, slow issue draw commands %d, frame deadline missed %d",
                r.stopped() ? "stopped" : "done", total, s.jankyFrames(), percent,
                s.jankCount(JankType.MISSED_VSYNC), s.jankCount(JankType.HIGH_INPUT_LATENCY),
                s.jankCount(JankType.SLOW_UI_THREAD), s.jankCount(JankType.SLOW_BITMAP_UPLOAD),
                s.jankCount(JankType.SLOW_DRAW), s.jankCount(JankType.MISSED_DEADLINE));
    }

    private static String seconds(long nanos) {
        return String.format(Locale.ROOT, "%s s", nanos % 1_000_000_000L == 0
                ? Long.toString(nanos / 1_000_000_000L) : String.format(Locale.ROOT, "%.3f", nanos / 1e9));
    }
}
