package io.gfxstats.client;

import io.gfxstats.buffer.BufferWriter;
import io.gfxstats.buffer.SceneGroup;
import io.gfxstats.buffer.StripeWriter;
import io.gfxstats.frame.FrameTracker;
import io.gfxstats.stats.Counters;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Where a session's counts are and how they move: the stripes of its trackers, of closed
 * trackers (parked) and its own home stripe, in process memory or in the current buffer; the
 * {@link Epoch} trackers compare on every frame; the handover of everything counted so far into
 * a newly installed buffer.
 *
 * <p>One lock guards all of it. Rendering threads take it only with {@code tryLock} (a tracker
 * that finds it busy keeps counting where it counted and moves at a later frame); the session
 * thread takes it to install a buffer and for the heartbeat; application threads to create and
 * close trackers and name scenes.
 */
final class SessionCounts {
    private static final Logger LOG = LoggerFactory.getLogger(StatsSession.class);

    private final SessionOptions options;
    private final long sessionStartMillis;

    /** Read on every frame by every tracker. */
    volatile Epoch epoch = new Epoch(null, false);

    private final ReentrantLock lock = new ReentrantLock();
    // Guarded by lock:
    private final List<TrackerState> trackers = new ArrayList<>();
    /** Stripes of closed trackers, still owned by the session, in the current buffer or memory. */
    private final List<StripeWriter> parked = new ArrayList<>();
    /** The session's own stripe in the current buffer: counts moved in from older places. */
    private StripeWriter home;
    private BufferWriter buffer;
    private final Handover handover = new Handover();
    private boolean closed;
    /** Scene names by slot (slot 0 "(other)"); the same slots in memory and in every buffer. */
    private final SceneTable scenes;

    SessionCounts(SessionOptions options) {
        this.options = options;
        this.sessionStartMillis = options.clock().millis();
        this.scenes = new SceneTable(options.scenes().maxScenes());
    }

    // ---------------------------------------------------------------- trackers (application threads)

    /** The state of a new tracker, counting where the session counts now. */
    TrackerState addTracker(FrameTracker rules) {
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
            TrackerState state = new TrackerState(rules, stripe, current);
            trackers.add(state);
            return state;
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
            handover.move(state.stripe, state.moved, home);
            state.stripe.release();
        }
        state.stripe = null;
    }

    /**
     * The slot of a scene name, taken now if new (and named in the current buffer), or the
     * "(other)" slot beyond the session's limit. Not on the frame path.
     */
    int sceneSlot(String scene) {
        SceneGroup.requireName(scene);
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

    // ---------------------------------------------------------------- rendering threads

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
            moveLocked(state, current);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Moves a tracker that is behind the session's epoch, as its next frame would: called by
     * whoever drains its ring (its stripe's writer) after each pass. Frames counted while a buffer
     * was being installed, after the install had taken the stripe's baseline or while it still
     * held the lock, otherwise stayed in the old place until the tracker's next frame, and an idle
     * tracker has none.
     *
     * <p>With {@code wait} false it gives up when the lock is busy, as a frame does (the drain's next
     * pass tries again); a flush and the session's close wait for it. Nothing when the tracker or
     * the session has closed (their close moves or lets go of the stripe).
     */
    void catchUp(TrackerState state, boolean wait) {
        if (wait) {
            lock.lock();
        } else if (!lock.tryLock()) {
            return;
        }
        try {
            Epoch current = epoch;
            if (!state.closed && !current.closed && state.epoch != current) {
                moveLocked(state, current);
            }
        } finally {
            lock.unlock();
        }
    }

    private void moveLocked(TrackerState state, Epoch current) {
        if (state.stripe.buffer() != current.buffer) {
            StripeWriter next = takeStripe(current.buffer);
            handover.move(state.stripe, state.moved, next);
            state.stripe.release();
            state.stripe = next;
        }
        Arrays.fill(state.moved, 0);
        state.epoch = current;
    }

    // ---------------------------------------------------------------- session thread

    /** The buffer counted into, if any (also while detached: counting continues into it). */
    Optional<BufferRef> buffer() {
        lock.lock();
        try {
            return buffer == null ? Optional.empty()
                    : Optional.of(new BufferRef(buffer.path(), buffer.registrationId()));
        } finally {
            lock.unlock();
        }
    }

    boolean isClosed() {
        lock.lock();
        try {
            return closed;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Makes {@code next} the buffer counted into, unless the session has closed (then returns
     * false and {@code next} stays the caller's). Everything the session counted elsewhere is
     * added to its home stripe in {@code next}: its old home and parked stripes in full (no one
     * writes them), each live tracker's stripe up to what it holds now (recorded as the
     * tracker's baseline; the tracker moves the rest itself when it sees the new epoch).
     */
    boolean install(BufferWriter next) {
        lock.lock();
        try {
            if (closed) {
                return false;
            }
            installLocked(next);
            return true;
        } finally {
            lock.unlock();
        }
    }

    private void installLocked(BufferWriter next) {
        if (options.scenes().enabled()) {
            // Names before counts: the daemon never sees counts in a slot it cannot name.
            scenes.forEach(next::nameScene);
            int version = next.sceneGroupVersion();
            // A buffer of an earlier gfxstatsd: its scene group is read, never written, so without
            // this line the session's scenes would vanish silently. Installed once per buffer.
            if (version != 0 && version != SceneGroup.VERSION) {
                LOG.warn("scenes of {} are not counted in {}: its scene group is version {} (a gfxstatsd of an "
                        + "earlier release made it), this client writes version {}; update gfxstatsd",
                        options.packageName(), next.path(), version, SceneGroup.VERSION);
            }
        }
        StripeWriter newHome = next.claimStripe();
        long frames = handover.gather(home, parked, trackers, newHome);
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

    void heartbeat(long nowMillis) {
        lock.lock();
        try {
            if (!closed && buffer != null) {
                buffer.heartbeat(nowMillis);
            }
        } catch (RuntimeException e) {
            LOG.warn("{}: heartbeat failed: {}", options.packageName(), e.toString());
        } finally {
            lock.unlock();
        }
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

    // ---------------------------------------------------------------- close

    /**
     * Lets go of everything: trackers still open reject further frames, the session's stripes
     * and its reference to the buffer are released. Returns the frames counted in memory and
     * never stored when no buffer ever arrived, else 0; -1 when already closed.
     */
    long close() {
        long lost = 0;
        lock.lock();
        try {
            if (closed) {
                return -1;
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
                return 0;
            }
            return lost;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Test hook: runs {@code body} holding the session lock, as an install holds it, so that a
     * test can make a tracker miss its move (StatsSessionTest).
     */
    <T> T callLocked(Callable<T> body) throws Exception {
        lock.lock();
        try {
            return body.call();
        } finally {
            lock.unlock();
        }
    }
}
