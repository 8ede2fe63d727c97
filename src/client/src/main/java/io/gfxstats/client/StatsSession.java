package io.gfxstats.client;

import io.gfxstats.frame.FrameTracker;
import io.gfxstats.frame.ModernJankTracker;
import io.gfxstats.frame.TrackerConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.lang.ref.Cleaner;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

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
 * a tracker's counts move to a new buffer at its next counted frame, and the session accounts
 * for idle trackers through per-tracker baselines.
 *
 * <p>The work is split by thread: {@link WindowTracker} is the rendering threads' side, which
 * only appends raw frames to a ring per tracker; {@link SessionDrain} is the drain thread
 * ("gfxstats-drain") that counts them (jank rules, scenes, Matrix levels) within about 50 ms;
 * {@link SessionCounts} holds the counts and moves them (handover), {@link SessionAttacher} is
 * the session thread ("gfxstats-session") that attaches, re-registers and beats a heartbeat a
 * few times per second. This class wires them together. The rings are drained before a scene
 * change, a tracker's close, the session's close and at JVM exit (a shutdown hook), so a normal
 * exit loses no recorded frame; a SIGKILL loses what the rings held (at most about 50 ms of
 * frames). Closing the session: close every
 * tracker on its recording thread (or stop recording), then {@link #close()}; counts are in the
 * buffer when close returns and the provider is told the session is done.
 */
public final class StatsSession implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(StatsSession.class);
    private static final Cleaner CLEANER = Cleaner.create();

    private final SessionOptions options;
    final SessionCounts counts;
    private final SessionAttacher attacher;
    /** Counts the trackers' frames off their recording threads. */
    final SessionDrain drain;

    /** The scene of trackers that have not set their own; read for every frame by the drain. */
    volatile SceneSwitch defaultScene;
    private final Object sceneMonitor = new Object();
    /** Frames a new tracker's ring holds; changed only by benchmarks ({@link #ringCapacity(int)}). */
    private volatile int ringCapacity = FrameRing.DEFAULT_CAPACITY;

    private StatsSession(SessionOptions options, BufferProvider provider) {
        this.options = options;
        this.counts = new SessionCounts(options);
        int slot = counts.sceneSlot(options.scenes().defaultScene());
        this.defaultScene = new SceneSwitch(slot, Long.MIN_VALUE, slot);
        this.attacher = new SessionAttacher(options, provider, counts);
        this.drain = new SessionDrain(options.packageName());
    }

    /**
     * Opens a session and starts asking {@code provider} for a buffer in the background;
     * returns at once. Frames can be recorded immediately.
     */
    public static StatsSession open(SessionOptions options, BufferProvider provider) {
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(provider, "provider");
        StatsSession session = new StatsSession(options, provider);
        session.drain.start();
        session.attacher.start();
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
        TrackerState state = counts.addTracker(rules);
        TrackerDrain d = new TrackerDrain(this, state, options.refreshIntervalNanos(), ringCapacity);
        WindowTracker tracker = new WindowTracker(this, d);
        tracker.cleanable = CLEANER.register(tracker, tracker.cleanup());
        drain.add(d);
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
        // Frames recorded before this call are counted under the default they were recorded
        // under: the rings are drained before the default changes, under the same lock.
        drain.lock.lock();
        try {
            drain.drainAllLocked(false);
            synchronized (sceneMonitor) {
                defaultScene = new SceneSwitch(slot, sinceNanos, defaultScene.slotFor(sinceNanos - 1));
            }
        } finally {
            drain.lock.unlock();
        }
    }

    /**
     * Counts now, on the calling thread, every frame recorded before this call (by the calling
     * thread, or by threads whose recording happened before it) that the drain thread has not
     * counted yet. Frames are otherwise counted by the session's drain thread within about 50 ms;
     * call this before reading the session's buffer when that must include the latest frames.
     * Takes the drain lock; not for the per-frame path.
     */
    public void flush() {
        drain.flush();
    }

    /**
     * Frames dropped so far because a tracker's ring was full: its recording thread ran a whole
     * ring ahead of the drain thread (which then did not run for a long time, e.g. stopped in a
     * debugger or starved of CPU). Each drop is also reported in the log (at most a line a minute).
     */
    public long droppedFrames() {
        return drain.dropped();
    }

    /**
     * Benchmark hook: the ring size (a power of two) of trackers created from now on, so that an
     * instruction count can record many frames between two waits for the drain.
     */
    void ringCapacity(int frames) {
        ringCapacity = frames;
    }

    /** Test hook: while paused, the drain thread counts nothing (flush, scenes and close still do). */
    void pauseDrain(boolean pause) {
        drain.pause(pause);
    }

    /** Benchmark hook: the drain thread's next pass now, not at its period's end. */
    void wakeDrain() {
        drain.wake();
    }

    /**
     * The slot of a scene name, taken now if new (and named in the current buffer), or the
     * "(other)" slot beyond the session's limit. Not on the frame path.
     */
    int sceneSlot(String scene) {
        return counts.sceneSlot(scene);
    }

    SessionOptions options() {
        return options;
    }

    SceneOptions sceneOptions() {
        return options.scenes();
    }

    /** True while a provider attachment is live (false before the first and between attachments). */
    public boolean isAttached() {
        return attacher.isAttached();
    }

    /** The buffer counted into, if any (also while detached: counting continues into it). */
    public Optional<BufferRef> buffer() {
        return counts.buffer();
    }

    /**
     * Why the provider refused this session for good (e.g. the daemon answered INVALID_ARGUMENT
     * or PERMISSION_DENIED), or empty. A refused session asks no more; it still counts, and
     * frames it counted only in memory are lost at {@link #close()} (which says how many).
     */
    public Optional<String> refusal() {
        return attacher.refusal();
    }

    /** Waits until a provider attachment is live; false at the timeout or as soon as the provider refused the session. */
    public boolean awaitAttached(Duration timeout) throws InterruptedException {
        return attacher.awaitAttached(timeout);
    }

    /**
     * Closes the session: trackers still open reject further frames, the session's stripes and
     * its reference to the buffer are released (the mapping goes when the last tracker lets go),
     * the background thread stops and the provider is told the session is done. Frames counted
     * before any buffer arrived and never stored are reported in the log. Idempotent.
     */
    @Override
    public void close() {
        // Frames still in the rings are counted before the counts let go of the buffer.
        drain.close();
        long lost = counts.close();
        if (lost < 0) {
            return;
        }
        attacher.close();
        if (lost > 0) {
            LOG.warn("{} {}: closed before any buffer was attached; {} frames counted in memory were not stored",
                    options.packageName(), options.versionCode(), lost);
        }
    }
}
