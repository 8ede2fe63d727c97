package io.gfxstats.client;

import io.gfxstats.buffer.CounterGroups;
import io.gfxstats.buffer.StripeWriter;
import io.gfxstats.stats.Counters;

import java.util.List;

/**
 * Moves counts from one stripe to another without losing or doubling a frame: the part of a
 * stripe's contribution beyond a baseline is added to the target and the baseline advances.
 * Used when a session's counts change place (memory to buffer, buffer to successor, a closed
 * tracker's stripe to the session's home). Not thread-safe: its owner calls it under its lock.
 */
final class Handover {
    private final long[] scratch = new long[CounterGroups.VECTOR_LENGTH];

    /**
     * Adds {@code from}'s contribution beyond {@code baseline} to {@code to} and advances the
     * baseline, for the whole counter vector (Android counters and counter groups). Entries are
     * read from the last to the first and added from the first to the last, so a reader of
     * {@code to} never sees a frame's bucket before its total. A 32-bit counter's delta wraps
     * like the counter.
     *
     * @return frames moved
     */
    long move(StripeWriter from, long[] baseline, StripeWriter to) {
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

    /**
     * Moves everything a session counted elsewhere into {@code newHome}: its old home and parked
     * stripes in full (no one writes them; they are released and {@code parked} is emptied), each
     * live tracker's stripe up to what it holds now (recorded as the tracker's baseline; the
     * tracker moves the rest itself when it sees the new epoch).
     *
     * @return frames moved
     */
    long gather(StripeWriter oldHome, List<StripeWriter> parked, List<TrackerState> trackers, StripeWriter newHome) {
        long frames = 0;
        if (oldHome != null) {
            frames += moveAll(oldHome, newHome);
            oldHome.release();
        }
        for (StripeWriter p : parked) {
            frames += moveAll(p, newHome);
            p.release();
        }
        parked.clear();
        for (TrackerState t : trackers) {
            frames += move(t.stripe, t.moved, newHome);
        }
        return frames;
    }

    /** Moves all of {@code from} (no one writes it any more) to {@code to}. */
    long moveAll(StripeWriter from, StripeWriter to) {
        return move(from, new long[CounterGroups.VECTOR_LENGTH], to);
    }
}
