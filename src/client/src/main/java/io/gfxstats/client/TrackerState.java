package io.gfxstats.client;

import io.gfxstats.buffer.StripeWriter;
import io.gfxstats.frame.FrameTracker;
import io.gfxstats.buffer.CounterGroups;

/**
 * The part of a tracker its session manages. Kept apart from {@link WindowTracker} so that a
 * tracker dropped without close() can be cleaned up (its counts kept) once unreachable.
 *
 * <p>Field ownership: {@code stripe} and {@code epoch} are written by the tracker's own thread
 * (under the session lock) and read by it without the lock on every frame; {@code moved} is
 * written only under the session lock.
 */
final class TrackerState {
    final FrameTracker rules;
    /** Where frames are counted now. */
    StripeWriter stripe;
    /** The session epoch {@link #stripe} belongs to. */
    Epoch epoch;
    /**
     * How much of {@link #stripe}'s contribution the session has already copied into a newer
     * buffer, per entry of the counter vector ({@link CounterGroups}). Non-zero only while the
     * tracker has not yet moved to the session's current buffer.
     */
    final long[] moved = new long[CounterGroups.VECTOR_LENGTH];
    boolean closed;

    TrackerState(FrameTracker rules, StripeWriter stripe, Epoch epoch) {
        this.rules = rules;
        this.stripe = stripe;
        this.epoch = epoch;
    }
}
