package io.gfxstats.replay;

import io.gfxstats.client.BufferRef;
import io.gfxstats.client.SessionOptions;
import io.gfxstats.client.StatsSession;
import io.gfxstats.frame.DaveyListener;
import io.gfxstats.framestats.FramestatsFormatException;
import io.gfxstats.framestats.FramestatsReader;
import io.gfxstats.stats.Pipeline;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * One replay as a live client: opens a {@link StatsSession} with the given provider, records the
 * capture (counting in memory until the provider hands out a buffer, and on into the mapped
 * buffer while the provider is away), then waits until the session is attached before closing
 * it, so that the counts are in the hands of a daemon, which saves them when the session ends.
 *
 * <p>If no attachment comes within the timeout the session is closed anyway: counts that made
 * it into a buffer file stay there, and the next daemon's start-up recovery saves them (the
 * process that wrote them is gone by then); counts that never left memory are lost. The
 * outcome says which.
 */
public final class Replay {
    /** Re-registration after the daemon went away is attempted at least this often. */
    static final Duration RETRY_MIN = Duration.ofMillis(100);
    static final Duration RETRY_MAX = Duration.ofSeconds(1);
    /** A first registration normally completes within this; only a longer wait is worth a note. */
    static final Duration QUIET_WAIT = Duration.ofSeconds(1);
    private static final long POLL_MILLIS = 20;

    /**
     * @param frames    frames recorded
     * @param windows   window blocks replayed
     * @param delivered the session was attached to a daemon when it closed
     * @param buffer    the buffer file the session counted into, if it ever had one
     * @param problem   the last thing that went wrong with the daemon connection, if anything
     * @param refusal   why the daemon refused the session for good, if it did (then nothing more was tried)
     */
    public record Outcome(long frames, int windows, boolean delivered, Optional<BufferRef> buffer,
                          Optional<String> problem, Optional<String> refusal) {
    }

    private final ReplayOptions options;

    public Replay(ReplayOptions options) {
        this.options = Objects.requireNonNull(options, "options");
    }

    /**
     * Runs the replay; {@code notes} receives one line each time the caller should know of a
     * wait. Returns after the session is closed.
     */
    public Outcome run(CaptureReplay capture, ObservedProvider provider, ProgressReporter progress,
                       Consumer<String> notes) throws InterruptedException {
        StatsSession session = open(capture.pipeline(), provider);
        try {
            long frames = capture.record(session, options.pacer(), progress);
            boolean delivered = awaitDelivery(session, provider, notes, frames);
            return new Outcome(frames, capture.windowCount(), delivered, session.buffer(), provider.lastProblem(),
                    session.refusal());
        } finally {
            session.close();
        }
    }

    /**
     * Runs a replay of a capture being read from {@code in} (a pipe): every frame is recorded as
     * its line arrives. Returns once the input ended (or a line could not be read: the frames
     * before it are recorded and delivered, and the outcome says what was wrong); an outcome of
     * 0 frames and 0 windows means the input held no framestats and no session was opened.
     */
    public LiveOutcome runLive(InputStream in, String source, ObservedProvider provider, ProgressReporter progress,
                               Consumer<String> notes) throws InterruptedException, IOException {
        LiveCaptureReplay live = new LiveCaptureReplay(pipeline -> open(pipeline, provider),
                options.refreshIntervalNanos(), options.pacer(), progress);
        FramestatsFormatException malformed = null;
        try {
            FramestatsReader.stream(in, source, live);
        } catch (FramestatsFormatException e) {
            malformed = e;
        }
        live.finish();
        StatsSession session = live.session();
        if (session == null) {
            return new LiveOutcome(new Outcome(0, 0, false, Optional.empty(), Optional.empty(), Optional.empty()),
                    Optional.ofNullable(malformed));
        }
        try {
            boolean delivered = awaitDelivery(session, provider, notes, live.recorded());
            return new LiveOutcome(new Outcome(live.recorded(), live.windows(), delivered, session.buffer(),
                    provider.lastProblem(), session.refusal()), Optional.ofNullable(malformed));
        } finally {
            session.close();
        }
    }

    /** A live replay's outcome, and the line that stopped it early, if one did. */
    public record LiveOutcome(Outcome outcome, Optional<FramestatsFormatException> malformed) {
    }

    private StatsSession open(Pipeline captured, ObservedProvider provider) {
        SessionOptions sessionOptions = SessionOptions.builder(options.packageName(), options.versionCode())
                .pipeline(options.pipelineFor(captured))
                .refreshIntervalNanos(options.refreshIntervalNanos())
                .retry(RETRY_MIN, RETRY_MAX)
                .daveyListener(DaveyListener.ignoring())
                // A replay records faster than real time: a full ring is counted, not dropped.
                .countWhenRingFull(true)
                .build();
        return StatsSession.open(sessionOptions, provider);
    }

    /** Waits, up to the attach timeout, until the session is attached; says so if that takes a while. */
    private boolean awaitDelivery(StatsSession session, ObservedProvider provider, Consumer<String> notes,
                                  long frames) throws InterruptedException {
        Duration timeout = options.attachTimeout();
        Duration quiet = timeout.compareTo(QUIET_WAIT) < 0 ? timeout : QUIET_WAIT;
        if (awaitAttached(session, provider, quiet)) {
            return true;
        }
        Duration rest = timeout.minus(quiet);
        if (rest.isZero() || session.refusal().isPresent()) {
            return false;
        }
        notes.accept("all " + frames + " frames recorded; waiting up to " + ReplayOptions.secondsText(rest)
                + " more for the daemon to take them");
        return awaitAttached(session, provider, rest);
    }

    /**
     * The session's attached flag is cleared on its own thread a moment after the daemon went
     * away; the provider hears of it first. Both must agree before the counts are taken as
     * delivered, or a daemon killed just now would be trusted with them.
     */
    private static boolean awaitAttached(StatsSession session, ObservedProvider provider, Duration timeout)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            long left = Math.max(deadline - System.nanoTime(), 0);
            if (session.awaitAttached(Duration.ofNanos(left)) && !provider.isAway()) {
                return true;
            }
            if (left == 0 || session.refusal().isPresent()) {
                // Refused for good: the session asks no more, so waiting out the timeout changes nothing.
                return false;
            }
            Thread.sleep(POLL_MILLIS);
        }
    }
}
