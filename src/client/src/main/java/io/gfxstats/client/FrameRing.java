package io.gfxstats.client;

import io.gfxstats.frame.FrameInfo;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The raw frames of one tracker on their way from its recording thread (the one producer) to
 * the session's drain (the one consumer at a time, under the drain lock): a ring of entries of
 * four ints packed into two longs (the first int in the low half), 16 bytes a frame, four frames to
 * a cache line. Two long stores cost less than four int stores (docs/benchmarks.md, "Session 14").
 *
 * <p>Encoding of a frame given as the five times of
 * {@link WindowTracker#record(long, long, long, long, long)}: the intended vsync as its
 * difference from the <em>base</em>; vsync, frame completed and GPU completed each as the
 * difference from the time before it; each difference in [0, 2^31), so that one test of the
 * or of all four covers them (a time before the one before it is rare: it escapes); the interval
 * not at all, it is the base's. A frame that does not fit (a difference out of range, or an
 * interval other than the base's) is an <em>escape</em>: its first int is {@link #ESCAPE} (no
 * difference is negative), its second {@link #KIND_TIMES}, its five values in full are in a side
 * array at the same position, and its intended vsync and interval become the base. On a steady
 * 60 Hz stream that is about one frame in 129 (the base is 2.1 s behind by then). A frame given as a
 * {@link FrameInfo} is an escape of kind {@link #KIND_INFO} with its fields in another side
 * array (allocated at the first such frame); it leaves the base as it was. Every value comes
 * back exact: the differences are taken and added back in 64-bit two's complement, which wraps
 * the same way both ways. Both sides start from a base of 0 with interval 0, and the producer
 * moves its base only with a frame it wrote, so a dropped frame moves none.
 *
 * <p>Why this shape: while the drain keeps up, most of the recording thread's time per frame in
 * a flat-out loop is its stores into ring lines that the drain read on the last lap (they have
 * to come back to its core); 16 bytes a frame instead of 64 took about a fifth off that time
 * (docs/benchmarks.md, "Frames off the render thread"). A base that moves only with escapes,
 * rather than the previous frame's vsync, saves a store on every frame. The recording thread's
 * whole cost is a check against {@link #limit}, the four differences and their range check,
 * two plain long stores and one release store of {@link #published}; no lock, no
 * compare-and-set, no allocation, no system call. The consumer's position {@link #head} is read
 * only when the producer reaches its limit (about once per capacity frames while the drain keeps
 * up), so the two threads do not share a written cache line on every frame; there the producer
 * also claims the lines up to its new limit in one burst ({@link #claimAhead}).
 *
 * <p>Closing goes through the same limit: {@link #close} sets it below any position, so the
 * producer's next frame takes the slow path, which throws. When the consumer lags by a whole
 * ring, frames are dropped and counted in {@link #dropped}, never silently.
 */
final class FrameRing {
    static final int DEFAULT_CAPACITY = 1024;
    /** Longs per entry: 2, so that an entry's index is a shift. */
    private static final int SHIFT = 1;
    /** Entries per 64-byte cache line. */
    private static final int PER_LINE = 4;
    /** The low int of an entry's long. */
    private static final long LOW = 0xFFFF_FFFFL;
    /** The first int of an escape entry; a difference is never negative. */
    static final int ESCAPE = -1;
    /** Second int of an escape: the four times and the interval in full, at {@code slot * TIMES} of {@link #escapes}. */
    static final int KIND_TIMES = 0;
    /** Second int of an escape: a FrameInfo frame, its fields in {@link #infos}. */
    static final int KIND_INFO = 1;
    /** Longs per escaped times frame: the four times and the interval. */
    private static final int TIMES = 5;

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
    /** Escaped times frames in full by position, {@link #TIMES} per entry. */
    private final long[] escapes;
    private final int mask;
    private final int capacity;
    /** FrameInfo fields by position, FrameInfo.FIELD_COUNT per entry; null until the first one. */
    private long[] infos;
    /** Counts the ring's frames on the producer's thread when it is full, or null to drop. */
    private final Runnable whenFull;
    /** Run on the producer's thread when a frame meets the closed ring, before it throws. */
    private final Runnable whenClosed;

    // The producer's bases (its thread only): the intended vsync and interval of the last escaped
    // times frame put; the consumer's (under the drain lock), the same of the last one taken.
    private long putBase;
    private long putInterval;
    private long takeBase;
    private long takeInterval;

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
        this.escapes = new long[capacity * TIMES];
        this.whenFull = whenFull;
        this.whenClosed = whenClosed;
    }

    // ---------------------------------------------------------------- producer (the recording thread)

    /**
     * Appends one frame's times, or counts it as dropped when the consumer lags by a whole ring.
     * Everything a healthy ring needs is written out here, with no call: the limit's move (once a
     * lap while the drain keeps up) with its claim of the lines ahead, and the escape (about one
     * frame in 129). The only call, {@link #putBlocked}, is for a closed or full ring. Calls on the
     * way, taken or not, made C2 keep the caller's loop values in stack slots and load and store
     * them on every frame; the limit's move as a method of its own stayed a call, since C2 inlines
     * no method over 35 bytecodes at a site it counts as rare (docs/benchmarks.md, "Session 35: no
     * call on the Java frame path"). Inlined into the caller's loop only while it stays within
     * C2's 325 bytecodes for a hot call: {@code FrameRingShapeTest} holds it there.
     */
    void put(long intendedVsync, long vsync, long frameCompleted, long gpuCompleted, long interval) {
        long t = (long) PUBLISHED.get(this);
        // Opaque: never hoisted out of the caller's loop, so a close from another thread is seen.
        if (t >= (long) LIMIT.getOpaque(this)) {
            long room = (long) HEAD.getAcquire(this) + capacity;
            LIMIT.setVolatile(this, room); // then the reason, as in roomAt
            if (t >= room || closedReason != null) {
                putBlocked(t, intendedVsync, vsync, frameCompleted, gpuCompleted, interval);
                return;
            }
            // claimAhead, written out (see above).
            long[] e = entries;
            for (long p = t + PER_LINE; p < room; p += PER_LINE) {
                e[((int) p & mask) << SHIFT] = 0;
            }
        }
        int i = ((int) t & mask) << SHIFT;
        long d0 = intendedVsync - putBase;
        long d1 = vsync - intendedVsync;
        long d2 = frameCompleted - vsync;
        long d3 = gpuCompleted - frameCompleted;
        long[] e = entries;
        // One test for all: a difference outside [0, 2^31) sets a bit from 31 up in their or, and
        // another interval than the base's leaves a bit in the xor.
        if ((((d0 | d1 | d2 | d3) >>> 31) | (interval ^ putInterval)) == 0) {
            e[i] = d0 | d1 << 32;
            e[i + 1] = d2 | d3 << 32;
        } else {
            // The escape: the frame in full in the side array, the entry marked, the new bases.
            long[] x = escapes;
            int base = (i >>> SHIFT) * TIMES;
            x[base] = intendedVsync;
            x[base + 1] = vsync;
            x[base + 2] = frameCompleted;
            x[base + 3] = gpuCompleted;
            x[base + 4] = interval;
            e[i] = ESCAPE & LOW | (long) KIND_TIMES << 32;
            putBase = intendedVsync;
            putInterval = interval;
        }
        PUBLISHED.setRelease(this, t + 1);
    }

    /**
     * Claims the lines of the entries after {@code t} up to {@code room}, the ones the limit just
     * freed, with one plain store into each; called when the limit moves. The drain read these lines
     * on the last lap, from its own core, and a frame's store into such a line waits until the other
     * core gave it up: frame by frame that is one wait per line, each after the other. Claimed in
     * one burst, the lines are asked for together and their waits overlap; the frames that follow
     * find them in this core's cache (docs/benchmarks.md, "Session 31: the lap ahead claimed in one
     * burst"). Every slot written here was taken by the drain before it moved its head, so the
     * drain reads none of them until the producer has written its entry there and published it.
     * {@link #put} has the same loop written out.
     */
    private void claimAhead(long t, long room) {
        long[] e = entries;
        for (long p = t + PER_LINE; p < room; p += PER_LINE) {
            e[((int) p & mask) << SHIFT] = 0;
        }
    }

    /**
     * A times frame at a closed or full ring: throws when closed; else appends the frame once
     * {@link #makeRoom} made room, or leaves it counted as dropped.
     */
    private void putBlocked(long t, long intendedVsync, long vsync, long frameCompleted, long gpuCompleted,
                            long interval) {
        if (makeRoom(t)) {
            put(intendedVsync, vsync, frameCompleted, gpuCompleted, interval);
        }
    }

    /**
     * At the limit: moves it up to what the consumer has freed; the rest (closed, full) in
     * {@link #makeRoom}. The limit's store is volatile and the reason is read after it: close
     * stores the reason and then the limit, both volatile, so either this sees the reason or the
     * next frame sees close's limit.
     */
    private boolean roomAt(long t) {
        long room = (long) HEAD.getAcquire(this) + capacity;
        LIMIT.setVolatile(this, room);
        if (t < room && closedReason == null) {
            claimAhead(t, room);
            return true;
        }
        return makeRoom(t);
    }

    /** Appends a copy of {@code frame}'s fields, or counts it as dropped. */
    void put(FrameInfo frame) {
        long t = (long) PUBLISHED.get(this);
        if (t >= (long) LIMIT.getOpaque(this) && !roomAt(t)) {
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
        entries[slot << SHIFT] = ESCAPE & LOW | (long) KIND_INFO << 32;
        PUBLISHED.setRelease(this, t + 1);
    }

    /**
     * The slow path at the limit when {@link #roomAt} found the ring closed or full: throws when
     * closed, else makes room through {@code whenFull} if there is one; false (and the frame
     * counted as dropped) when there is still no room.
     */
    private boolean makeRoom(long t) {
        throwIfClosed();
        long room = (long) HEAD.getAcquire(this) + capacity;
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
                long lo = e[i];
                int e0 = (int) lo;
                if (e0 >= 0) {
                    long hi = e[i + 1];
                    long intended = takeBase + e0;
                    long vsync = intended + (int) (lo >> 32);
                    long completed = vsync + (int) hi;
                    c.times(intended, vsync, completed, completed + (int) (hi >> 32), takeInterval);
                } else if ((int) (lo >> 32) == KIND_TIMES) {
                    long[] x = escapes;
                    int base = slot * TIMES;
                    // The bases move before the count, so that an entry whose counting throws moves them too.
                    takeBase = x[base];
                    takeInterval = x[base + 4];
                    c.times(x[base], x[base + 1], x[base + 2], x[base + 3], x[base + 4]);
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
