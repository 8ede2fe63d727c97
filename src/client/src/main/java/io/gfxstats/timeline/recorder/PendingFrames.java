package io.gfxstats.timeline.recorder;

import io.gfxstats.timeline.Prediction;
import io.gfxstats.timeline.PresentState;
import io.gfxstats.timeline.SurfaceFrame;
import io.gfxstats.timeline.TimelineFrame;

/**
 * The frames a {@link TimelineRecorder} holds until they are classified: committed ones awaiting
 * their presentation feedback, and (compositor mode) presented ones awaiting their compositor
 * frame. A ring of slots in commit order, kept as parallel arrays so that nothing is allocated
 * per frame; the slot at {@link #next} is the oldest and is reused by the next commit.
 * Confined to the recorder's thread.
 */
final class PendingFrames {
    final int capacity;
    /** Occupied: committed (and maybe presented, awaiting its compositor frame). */
    final boolean[] used;
    final long[] token;
    final long[] predictedStart;
    final long[] predictedEnd;
    final long[] predictedPresent;
    final long[] actualStart;
    final long[] actualEnd;
    final Prediction[] prediction;
    /** Presented, waiting for its compositor frame's outcome; the fields below are its feedback. */
    final boolean[] awaiting;
    final long[] presentedAt;
    final long[] refreshAt;
    final long[] outputAt;
    final long[] mscAt;
    final long[] latchAt;
    final int[] flagsAt;
    int awaitingCount;
    /** Next slot to fill: the oldest. */
    int next;

    PendingFrames(int capacity) {
        this.capacity = capacity;
        used = new boolean[capacity];
        token = new long[capacity];
        predictedStart = new long[capacity];
        predictedEnd = new long[capacity];
        predictedPresent = new long[capacity];
        actualStart = new long[capacity];
        actualEnd = new long[capacity];
        prediction = new Prediction[capacity];
        awaiting = new boolean[capacity];
        presentedAt = new long[capacity];
        refreshAt = new long[capacity];
        outputAt = new long[capacity];
        mscAt = new long[capacity];
        latchAt = new long[capacity];
        flagsAt = new int[capacity];
    }

    /** Copies {@code f} into the slot at {@link #next}, which the caller has settled, and advances. */
    void store(TimelineFrame f) {
        int slot = next;
        used[slot] = true;
        token[slot] = f.token();
        predictedStart[slot] = f.predictedStart();
        predictedEnd[slot] = f.predictedEnd();
        predictedPresent[slot] = f.predictedPresent();
        actualStart[slot] = f.actualStart();
        actualEnd[slot] = f.actualEnd();
        prediction[slot] = f.prediction();
        next = slot + 1 == capacity ? 0 : slot + 1;
    }

    /** Keeps a presentation's feedback with its frame. */
    void presented(int slot, long at, long refresh, int flags, long latch, long output, long msc) {
        presentedAt[slot] = at;
        refreshAt[slot] = refresh;
        flagsAt[slot] = flags;
        latchAt[slot] = latch;
        outputAt[slot] = output;
        mscAt[slot] = msc;
    }

    /** The presented frame in {@code slot} waits for its compositor frame. */
    void await(int slot) {
        awaiting[slot] = true;
        awaitingCount++;
    }

    /** Frees {@code slot}. */
    void release(int slot) {
        used[slot] = false;
        if (awaiting[slot]) {
            awaiting[slot] = false;
            awaitingCount--;
        }
    }

    /** The frame in {@code slot} as a SurfaceFrame to classify, in {@code into}. */
    SurfaceFrame fill(int slot, SurfaceFrame into, PresentState state, long lastLatch) {
        return into.set(token[slot], prediction[slot], predictedStart[slot], predictedEnd[slot], predictedPresent[slot],
                actualStart[slot], actualEnd[slot], state, lastLatch);
    }

    /** The slot of the committed frame {@code frameToken} still awaiting feedback, or -1. */
    int find(long frameToken) {
        // Newest first: feedback normally comes for recent frames.
        for (int i = 1; i <= capacity; i++) {
            int slot = next - i;
            if (slot < 0) {
                slot += capacity;
            }
            if (token[slot] == frameToken && used[slot] && !awaiting[slot]) {
                return slot;
            }
        }
        return -1;
    }

    /** Frames committed and not yet classified. */
    int pending() {
        int n = 0;
        for (boolean u : used) {
            if (u) {
                n++;
            }
        }
        return n;
    }
}
