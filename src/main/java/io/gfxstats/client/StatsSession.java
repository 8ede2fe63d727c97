package io.gfxstats.client;

import io.gfxstats.buffer.BufferWriter;
import io.gfxstats.buffer.CounterGroups;
import io.gfxstats.buffer.StripeWriter;
import io.gfxstats.frame.FrameTracker;
import io.gfxstats.frame.ModernJankTracker;
import io.gfxstats.frame.TrackerConfig;
import io.gfxstats.stats.Counters;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.lang.ref.Cleaner;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A process's frame statistics for one (package, version code): open one per process, create a
 * {@link WindowTracker} per window or surface, record frames, close at exit.
 *
 * <p>The session gets its buffer from a {@link BufferProvider} in the background and never
 * makes a rendering thread wait for it:
 * <ul>
 *   <li>before a buffer arrives, trackers count in process memory; when it arrives, every counter
 *       counted so far (slow buckets and legacy counters included) is added to it;</li>
 *   <li>when the provider goes away (daemon stopped), counting goes on into the mapped buffer and
 *       the session asks again with backoff, naming its buffer so the provider can adopt it;</li>
 *   <li>when the provider hands out a different buffer instead, the session moves everything it
 *       counted into the new one and marks the old one retired (successor id in its header).</li>
 * </ul>
 * None of these moves loses or doubles a frame, including frames recorded while they happen:
 * a tracker moves to a new buffer itself, on its own thread, at its next frame, and the
 * session accounts for idle trackers through per-tracker baselines.
 *
 * <p>A session thread ("gfxstats-session") does the attaching and a heartbeat a few times per
 * second. Closing the session: close every tracker on its recording thread (or stop recording),
 * then {@link #close()}; counts are in the buffer when close returns and the provider is told
 * the session is done.
 */
public final class StatsSession implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(StatsSession.class);
    private static final Cleaner CLEANER = Cleaner.create();

    private final SessionOptions options;
    private final BufferProvider provider;
    private final long sessionStartMillis;
    private final ScheduledThreadPoolExecutor executor;

    /** Read on every frame by every tracker. */
    volatile Epoch epoch = new Epoch(null, false);
    /** The scene of trackers that have not set their own; read on every frame by them. */
    volatile SceneSwitch defaultScene;

    final ReentrantLock lock = new ReentrantLock();
    // Guarded by lock:
    private final List<TrackerState> trackers = new ArrayList<>();
    /** Stripes of closed trackers, still owned by the session, in the current buffer or memory. */
    private final List<StripeWriter> parked = new ArrayList<>();
    /** The session's own stripe in the current buffer: counts moved in from older places. */
    private StripeWriter home;
    private BufferWriter buffer;
    private final long[] scratch = new long[CounterGroups.VECTOR_LENGTH];
    private boolean closed;
    /** Scene names by slot (slot 0 "(other)"); the same slots in memory and in every buffer. */
    private final SceneTable scenes;

    // Confined to the session thread (and close()):
    private Attachment attachment;
    private long attachGeneration;
    private long retryDelayMillis;
    private boolean failureLogged;

    private final Object attachMonitor = new Object();
    private volatile boolean attached;

    private StatsSession(SessionOptions options, BufferProvider provider) {
        this.options = options;
        this.provider = provider;
        this.sessionStartMillis = options.clock().millis();
        this.retryDelayMillis = options.retryMin().toMillis();
        this.scenes = new SceneTable(options.scenes().maxScenes());
        int slot = scenes.slot(options.scenes().defaultScene());
        this.defaultScene = new SceneSwitch(slot, Long.MIN_VALUE, slot);
        this.executor = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "gfxstats-session-" + options.packageName());
            t.setDaemon(true);
            return t;
        });
        executor.setRemoveOnCancelPolicy(true);
        executor.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
    }

    /**
     * Opens a session and starts asking {@code provider} for a buffer in the background;
     * returns at once. Frames can be recorded immediately.
     */
    public static StatsSession open(SessionOptions options, BufferProvider provider) {
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(provider, "provider");
        StatsSession session = new StatsSession(options, provider);
        session.executor.execute(session::attachAttempt);
        long beat = options.heartbeatInterval().toMillis();
        session.executor.scheduleWithFixedDelay(session::heartbeat, beat, beat, TimeUnit.MILLISECONDS);
        return session;
    }

    /** A tracker with the modern (Android 12+) jank rules for this session's display. */
    public WindowTracker newTracker() {
        return newTracker(options.trackerConfig());
    }

    /** A tracker with the modern jank rules and the given settings. */
    public WindowTracker newTracker(TrackerConfig config) {
        return newTracker(new ModernJankTracker(config, options.daveyListener()));
    }

    /** A tracker with any rules, e.g. {@link io.gfxstats.frame.Android9JankTracker}. One per window. */
    public WindowTracker newTracker(FrameTracker rules) {
        Objects.requireNonNull(rules, "rules");
        TrackerState state;
        lock.lock();
        try {
            if (closed) {
                throw new IllegalStateException("session closed");
            }
            Epoch current = epoch;
            StripeWriter stripe = current.buffer == null ? takeParked(null) : takeStripe(current.buffer);
            if (stripe == null) {
                stripe = StripeWriter.inMemory();
            }
            state = new TrackerState(rules, stripe, current);
            trackers.add(state);
        } finally {
            lock.unlock();
        }
        WindowTracker tracker = new WindowTracker(this, state, options.refreshIntervalNanos());
        tracker.cleanable = CLEANER.register(tracker, () -> closeTracker(state));
        return tracker;
    }

    /**
     * Sets the scene of frames of every tracker that has not set its own, from now on (frames
     * whose intended vsync is at or after {@code System.nanoTime()} now; see
     * {@link WindowTracker#setScene(String)}). Any thread.
     */
    public void setDefaultScene(String scene) {
        setDefaultScene(scene, System.nanoTime());
    }

    /** As {@link #setDefaultScene(String)}, in effect for frames intended at or after {@code sinceNanos}. */
    public void setDefaultScene(String scene, long sinceNanos) {
        int slot = sceneSlot(scene);
        lock.lock();
        try {
            defaultScene = new SceneSwitch(slot, sinceNanos, defaultScene.slotFor(sinceNanos - 1));
        } finally {
            lock.unlock();
        }
    }

    /**
     * The slot of a scene name, taken now if new (and named in the current buffer), or the
     * "(other)" slot beyond the session's limit. Not on the frame path.
     */
    int sceneSlot(String scene) {
        io.gfxstats.buffer.SceneGroup.requireName(scene);
        lock.lock();
        try {
            int slot = scenes.slot(scene);
            if (buffer != null && options.scenes().enabled()) {
                buffer.nameScene(slot, scenes.name(slot));
            }
            return slot;
        } finally {
            lock.unlock();
        }
    }

    SceneOptions sceneOptions() {
        return options.scenes();
    }

    /** True while a provider attachment is live (false before the first and between attachments). */
    public boolean isAttached() {
        return attached;
    }

    /** The buffer counted into, if any (also while detached: counting continues into it). */
    public Optional<BufferRef> buffer() {
        lock.lock();
        try {
            return buffer == null ? Optional.empty()
                    : Optional.of(new BufferRef(buffer.path(), buffer.registrationId()));
        } finally {
            lock.unlock();
        }
    }

    /** Waits until a provider attachment is live. */
    public boolean awaitAttached(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (attachMonitor) {
            while (!attached) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                TimeUnit.NANOSECONDS.timedWait(attachMonitor, left);
            }
            return true;
        }
    }

    // ---------------------------------------------------------------- tracker side

    /**
     * Called by a tracker's own thread when its epoch differs from the session's. Never blocks:
     * if the lock is busy the frame is counted where the tracker counted so far (still mapped,
     * and accounted for by the baselines) and the move happens on a later frame.
     */
    void onEpochChange(TrackerState state) {
        if (state.closed) {
            throw new IllegalStateException("tracker closed");
        }
        if (!lock.tryLock()) {
            return;
        }
        try {
            Epoch current = epoch;
            if (current.closed) {
                closeTrackerLocked(state);
                throw new IllegalStateException("session closed");
            }
            if (state.stripe.buffer() != current.buffer) {
                StripeWriter next = takeStripe(current.buffer);
                moveContribution(state.stripe, state.moved, next);
                state.stripe.release();
                state.stripe = next;
            }
            Arrays.fill(state.moved, 0);
            state.epoch = current;
        } finally {
            lock.unlock();
        }
    }

    /** Close of a tracker, by its owner or by the cleaner once it is unreachable. */
    void closeTracker(TrackerState state) {
        lock.lock();
        try {
            closeTrackerLocked(state);
        } finally {
            lock.unlock();
        }
    }

    private void closeTrackerLocked(TrackerState state) {
        if (state.closed) {
            return;
        }
        state.closed = true;
        state.epoch = Epoch.TRACKER_CLOSED;
        trackers.remove(state);
        if (closed) {
            // The session has let go of everything; counts in a buffer stay there.
            state.stripe.release();
            return;
        }
        if (state.stripe.buffer() == epoch.buffer) {
            // Same place the session counts: keep the stripe (and its counts) for reuse and for a
            // later handover. Nothing of it has been moved anywhere.
            parked.add(state.stripe);
        } else {
            moveContribution(state.stripe, state.moved, home);
            state.stripe.release();
        }
        state.stripe = null;
    }

    // ---------------------------------------------------------------- session thread

    private void attachAttempt() {
        if (isClosed()) {
            return;
        }
        BufferRef previous = buffer().orElse(null);
        long generation = ++attachGeneration;
        Attachment next;
        try {
            next = provider.attach(new AttachRequest(options.packageName(), options.versionCode(),
                    options.pipeline(), previous), reason -> onProviderEnded(generation, reason));
        } catch (IOException | RuntimeException e) {
            attachFailed(previous == null ? "no buffer yet" : "cannot re-register", e);
            return;
        }
        if (previous != null && previous.registrationId().equals(next.registrationId())) {
            replaceAttachment(next);
            LOG.info("re-registered {} {}: buffer {} adopted", options.packageName(), options.versionCode(),
                    next.bufferPath());
            return;
        }
        BufferWriter writer;
        try {
            writer = BufferWriter.open(next.bufferPath());
            if (!writer.packageName().equals(options.packageName())
                    || writer.versionCode() != options.versionCode()) {
                String got = writer.packageName() + " " + writer.versionCode();
                writer.close();
                throw new IOException("provider handed out a buffer for " + got);
            }
        } catch (IOException | RuntimeException e) {
            next.close();
            attachFailed("unusable buffer " + next.bufferPath(), e);
            return;
        }
        lock.lock();
        try {
            if (closed) {
                writer.close();
                next.close();
                return;
            }
            install(writer, previous);
        } finally {
            lock.unlock();
        }
        replaceAttachment(next);
    }

    private void replaceAttachment(Attachment next) {
        Attachment old = attachment;
        attachment = next;
        if (old != null && old != next) {
            old.close();
        }
        retryDelayMillis = options.retryMin().toMillis();
        failureLogged = false;
        setAttached(true);
    }

    private void attachFailed(String what, Exception e) {
        if (!failureLogged) {
            LOG.warn("{} {}: {} ({}); counting goes on, retrying", options.packageName(), options.versionCode(),
                    what, e.toString());
            failureLogged = true;
        } else {
            LOG.debug("{} {}: {} ({})", options.packageName(), options.versionCode(), what, e.toString());
        }
        schedule(this::attachAttempt, retryDelayMillis);
        retryDelayMillis = Math.min(retryDelayMillis * 2, options.retryMax().toMillis());
    }

    private void onProviderEnded(long generation, String reason) {
        try {
            executor.execute(() -> {
                if (generation != attachGeneration || isClosed()) {
                    return;
                }
                setAttached(false);
                LOG.info("{} {}: attachment ended ({}); counting goes on into {}, re-registering",
                        options.packageName(), options.versionCode(), reason,
                        buffer().map(BufferRef::path).orElse(null));
                schedule(this::attachAttempt, options.retryMin().toMillis());
            });
        } catch (RejectedExecutionException closing) {
            // The session is closing; nothing to re-register.
        }
    }

    /**
     * Makes {@code next} the buffer counted into. Everything the session counted elsewhere is
     * added to its home stripe in {@code next}: its old home and parked stripes in full (no one
     * writes them), each live tracker's stripe up to what it holds now (recorded as the
     * tracker's baseline; the tracker moves the rest itself when it sees the new epoch).
     */
    private void install(BufferWriter next, BufferRef previous) {
        if (options.scenes().enabled()) {
            // Names before counts: the daemon never sees counts in a slot it cannot name.
            scenes.forEach(next::nameScene);
        }
        StripeWriter newHome = next.claimStripe();
        long frames = 0;
        long[] all = new long[CounterGroups.VECTOR_LENGTH];
        if (home != null) {
            frames += moveContribution(home, all, newHome);
            home.release();
        }
        for (StripeWriter p : parked) {
            Arrays.fill(all, 0);
            frames += moveContribution(p, all, newHome);
            p.release();
        }
        parked.clear();
        for (TrackerState t : trackers) {
            frames += moveContribution(t.stripe, t.moved, newHome);
        }
        BufferWriter old = buffer;
        if (old != null) {
            next.lowerStatsStart(old.statsStartMillis());
            old.retire(next.registrationId());
            old.close();
            LOG.info("{} {}: handed over to {} ({} frames moved); {} retired", options.packageName(),
                    options.versionCode(), next.path(), frames, old.path());
            if (!next.predecessorId().equals(old.registrationId())) {
                LOG.warn("{}: the provider did not name {} as predecessor; a daemon may count frames it already "
                        + "saved from it twice", next.path(), old.registrationId());
            }
        } else {
            if (frames > 0) {
                next.lowerStatsStart(sessionStartMillis);
            }
            LOG.info("{} {}: counting into {} ({} frames recorded before it arrived)", options.packageName(),
                    options.versionCode(), next.path(), frames);
        }
        home = newHome;
        buffer = next;
        epoch = new Epoch(next, false);
    }

    /**
     * Adds {@code from}'s contribution beyond {@code baseline} to {@code to} and advances the
     * baseline, for the whole counter vector (Android counters and counter groups). Entries are
     * read from the last to the first and added from the first to the last, so a reader of
     * {@code to} never sees a frame's bucket before its total. A 32-bit counter's delta wraps
     * like the counter.
     *
     * @return frames moved
     */
    private long moveContribution(StripeWriter from, long[] baseline, StripeWriter to) {
        long[] delta = scratch;
        for (int c = CounterGroups.VECTOR_LENGTH - 1; c >= 0; c--) {
            long now = from.contributionOf(c);
            delta[c] = now - baseline[c];
            baseline[c] = now;
        }
        for (int c = 0; c < CounterGroups.VECTOR_LENGTH; c++) {
            to.addElement(c, delta[c]);
        }
        return Integer.toUnsignedLong((int) delta[Counters.TOTAL_FRAMES]);
    }

    private StripeWriter takeStripe(BufferWriter target) {
        StripeWriter reused = takeParked(target);
        return reused != null ? reused : target.claimStripe();
    }

    private StripeWriter takeParked(BufferWriter target) {
        for (int i = 0; i < parked.size(); i++) {
            if (parked.get(i).buffer() == target) {
                return parked.remove(i);
            }
        }
        return null;
    }

    private void heartbeat() {
        lock.lock();
        try {
            if (!closed && buffer != null) {
                buffer.heartbeat(options.clock().millis());
            }
        } catch (RuntimeException e) {
            LOG.warn("{}: heartbeat failed: {}", options.packageName(), e.toString());
        } finally {
            lock.unlock();
        }
    }

    private void schedule(Runnable task, long delayMillis) {
        try {
            executor.schedule(task, delayMillis, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException closing) {
            // Closing.
        }
    }

    private void setAttached(boolean value) {
        synchronized (attachMonitor) {
            attached = value;
            attachMonitor.notifyAll();
        }
    }

    private boolean isClosed() {
        lock.lock();
        try {
            return closed;
        } finally {
            lock.unlock();
        }
    }

    // ---------------------------------------------------------------- close

    /**
     * Closes the session: trackers still open reject further frames, the session's stripes and
     * its reference to the buffer are released (the mapping goes when the last tracker lets go),
     * the background thread stops and the provider is told the session is done. Frames counted
     * before any buffer arrived and never stored are reported in the log. Idempotent.
     */
    @Override
    public void close() {
        long lost = 0;
        lock.lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            epoch = new Epoch(null, true);
            if (home != null) {
                home.release();
                home = null;
            }
            for (StripeWriter p : parked) {
                if (p.isInMemory()) {
                    lost += Integer.toUnsignedLong(p.contribution(Counters.TOTAL_FRAMES));
                }
                p.release();
            }
            parked.clear();
            for (TrackerState t : trackers) {
                if (t.stripe.isInMemory()) {
                    lost += Integer.toUnsignedLong(t.stripe.contribution(Counters.TOTAL_FRAMES))
                            - t.moved[Counters.TOTAL_FRAMES];
                }
            }
            if (buffer != null) {
                buffer.close();
            }
        } finally {
            lock.unlock();
        }
        executor.shutdownNow();
        try {
            if (!executor.awaitTermination(5, TimeUnit.SECONDS)) {
                LOG.warn("{}: session thread did not stop within 5 s", options.packageName());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (attachment != null) {
            attachment.close();
        }
        setAttached(false);
        if (lost > 0 && buffer == null) {
            LOG.warn("{} {}: closed before any buffer was attached; {} frames counted in memory were not stored",
                    options.packageName(), options.versionCode(), lost);
        }
    }
}
