package io.gfxstats.client;

import io.gfxstats.frame.FrameInfo;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The raw frames of one tracker on their way from its recording thread (the one producer) to
 * the session's drain (the one consumer at a time, under the drain lock): a ring of entries of
 * eight longs, the five times of {@link WindowTracker#record(long, long, long, long, long)} and
 * the entry's kind. A frame given as a {@link FrameInfo} has its fields in a side array at the
 * same position, allocated at the first such frame.
 *
 * <p>Why this shape: the recording thread's whole cost is a check against {@link #limit}, six
 * plain stores and one release store of {@link #published}; no lock, no compare-and-set, no
 * allocation, no system call. The consumer's position {@link #head} is read only when the
 * producer reaches its limit (about once per capacity frames while the drain keeps up), so the
 * two threads do not share a written cache line on every frame.
 *
 * <p>Closing goes through the same limit: {@link #close} sets it below any position, so the
 * producer's next frame takes the slow path, which throws. When the consumer lags by a whole
 * ring, frames are dropped and counted in {@link #dropped}, never silently.
 */
final class FrameRing {
    static final int DEFAULT_CAPACITY = 1024;
    /** Longs per entry: 5 times, the kind, 2 unused so that an entry's index is a shift. */
    private static final int SHIFT = 3;
    static final long KIND_TIMES = 0;
    static final long KIND_INFO = 1;

    private static final VarHandle PUBLISHED;
    private static final VarHandle HEAD;
    private static final VarHandle LIMIT;
    private static final VarHandle DROPPED;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            PUBLISHED = l.findVarHandle(FrameRing.class, "published", long.class);
            HEAD = l.findVarHandle(FrameRing.class, "head", long.class);
            LIMIT = l.findVarHandle(FrameRing.class, "limit", long.class);
            DROPPED = l.findVarHandle(FrameRing.class, "dropped", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final long[] entries;
    private final int mask;
    private final int capacity;
    /** FrameInfo fields by position, FrameInfo.FIELD_COUNT per entry; null until the first one. */
    private long[] infos;
    /** Counts the ring's frames on the producer's thread when it is full, or null to drop. */
    private final Runnable whenFull;
    /** Run on the producer's thread when a frame meets the closed ring, before it throws. */
    private final Runnable whenClosed;

    /** Entries written so far: written by the producer only (release), read by the consumer (acquire). */
    @SuppressWarnings("unused") // through PUBLISHED
    private long published;
    /** Entries consumed so far: written by the consumer only (release), read by the producer at its limit. */
    @SuppressWarnings("unused") // through HEAD
    private long head;
    /** The producer may write below this position without looking at head; Long.MIN_VALUE once closed. */
    @SuppressWarnings("unused") // through LIMIT
    private long limit;
    /** Frames dropped because the ring was full: written by the producer only, read by anyone. */
    @SuppressWarnings("unused") // through DROPPED
    private long dropped;
    private volatile String closedReason;

    FrameRing(int capacity, Runnable whenFull, Runnable whenClosed) {
        if (capacity <= 0 || Integer.bitCount(capacity) != 1) {
            throw new IllegalArgumentException("ring capacity must be a power of two: " + capacity);
        }
        this.capacity = capacity;
        this.mask = capacity - 1;
        this.entries = new long[capacity << SHIFT];
        this.whenFull = whenFull;
        this.whenClosed = whenClosed;
    }

    // ---------------------------------------------------------------- producer (the recording thread)

    /** Appends one frame's times, or counts it as dropped when the consumer lags by a whole ring. */
    void put(long intendedVsync, long vsync, long frameCompleted, long gpuCompleted, long interval) {
        long t = (long) PUBLISHED.get(this);
        // Opaque: never hoisted out of the caller's loop, so a close from another thread is seen.
        if (t >= (long) LIMIT.getOpaque(this) && !makeRoom(t)) {
            return;
        }
        long[] e = entries;
        int i = ((int) t & mask) << SHIFT;
        e[i] = intendedVsync;
        e[i + 1] = vsync;
        e[i + 2] = frameCompleted;
        e[i + 3] = gpuCompleted;
        e[i + 4] = interval;
        e[i + 5] = KIND_TIMES;
        PUBLISHED.setRelease(this, t + 1);
    }

    /** Appends a copy of {@code frame}'s fields, or counts it as dropped. */
    void put(FrameInfo frame) {
        long t = (long) PUBLISHED.get(this);
        if (t >= (long) LIMIT.getOpaque(this) && !makeRoom(t)) {
            return;
        }
        long[] in = infos;
        if (in == null) {
            // Once per tracker that uses this path; published to the consumer by the release below.
            in = new long[capacity * FrameInfo.FIELD_COUNT];
            infos = in;
        }
        int slot = (int) t & mask;
        int base = slot * FrameInfo.FIELD_COUNT;
        for (int f = 0; f < FrameInfo.FIELD_COUNT; f++) {
            in[base + f] = frame.get(f);
        }
        entries[(slot << SHIFT) + 5] = KIND_INFO;
        PUBLISHED.setRelease(this, t + 1);
    }

    /**
     * The slow path at the limit: throws when closed, else moves the limit up to what the
     * consumer has freed; false (and the frame counted as dropped) when there is no room.
     */
    private boolean makeRoom(long t) {
        throwIfClosed();
        long room = (long) HEAD.getAcquire(this) + capacity;
        LIMIT.setVolatile(this, room);
        // A close between the check above and the store would be undone by the store: look again
        // (close sets the reason before the limit, both volatile, so one of the two sees it).
        throwIfClosed();
        if (t < room) {
            return true;
        }
        if (whenFull != null) {
            whenFull.run();
            room = (long) HEAD.getAcquire(this) + capacity;
            LIMIT.setVolatile(this, room);
            throwIfClosed();
            if (t < room) {
                return true;
            }
        }
        DROPPED.setOpaque(this, (long) DROPPED.getOpaque(this) + 1);
        return false;
    }

    private void throwIfClosed() {
        String reason = closedReason;
        if (reason != null) {
            whenClosed.run();
            throw new IllegalStateException(reason);
        }
    }

    // ---------------------------------------------------------------- any thread

    /** Makes the producer's next frame throw {@code IllegalStateException(reason)}. Idempotent. */
    void close(String reason) {
        if (closedReason == null) {
            closedReason = reason;
        }
        LIMIT.setVolatile(this, Long.MIN_VALUE);
    }

    long dropped() {
        return (long) DROPPED.getOpaque(this);
    }

    /** Frames published and not consumed yet (racy while the producer records). */
    long pending() {
        return (long) PUBLISHED.getAcquire(this) - (long) HEAD.getAcquire(this);
    }

    // ---------------------------------------------------------------- consumer (under the drain lock)

    /** The consumer's side of the entries; call under the session's drain lock only. */
    interface Consumer {
        void times(long intendedVsync, long vsync, long frameCompleted, long gpuCompleted, long interval);

        /** A FrameInfo frame: its fields at {@code infos[base .. base + FrameInfo.FIELD_COUNT)}. */
        void info(long[] infos, int base);
    }

    /** Hands every published entry to {@code c} and frees them; returns how many. */
    long drain(Consumer c) {
        long h = (long) HEAD.get(this);
        long end = (long) PUBLISHED.getAcquire(this);
        if (h == end) {
            return 0;
        }
        long[] e = entries;
        long p = h;
        try {
            for (; p < end; p++) {
                int slot = (int) p & mask;
                int i = slot << SHIFT;
                if (e[i + 5] == KIND_TIMES) {
                    c.times(e[i], e[i + 1], e[i + 2], e[i + 3], e[i + 4]);
                } else {
                    c.info(infos, slot * FrameInfo.FIELD_COUNT);
                }
            }
        } finally {
            // An entry whose counting threw is consumed too: retrying it would throw again.
            HEAD.setRelease(this, p < end ? p + 1 : end);
        }
        return end - h;
    }
}
