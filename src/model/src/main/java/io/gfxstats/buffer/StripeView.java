package io.gfxstats.buffer;

import java.util.Objects;

/**
 * The per-frame path's view of one exclusive (or in-memory) stripe and one scene slot in it. A
 * tracker views a stripe and slot once, when either changes, and then counts each frame with one
 * call; the addresses stay inside this class and were checked against the stripe's memory when
 * it was viewed, so a frame costs no check and no raw address leaves the buffer package. Scene
 * selection is explicit: the view's slot is the one it was given, whatever other code selects in
 * the stripe since.
 *
 * <p>Method names say how memory is written, as Agrona's do: {@code Plain} is a plain load and
 * store per counter, for the one writer of an exclusive stripe (a shared stripe needs atomic
 * adds and is never viewed); {@link #countFramePlain} puts one release fence after the frame's
 * total, so a reader that sees a total sees no counter of a later frame before it.
 *
 * <p>A superclass rather than an object the tracker holds, like {@link SceneStripe}: the path
 * then reads the addresses from its own object, without a dependent load per frame. Confined to
 * the tracker's thread.
 */
public abstract class StripeView {
    /** What {@link #countFramePlain} did. Nothing: no stripe is viewed (a shared one); count through the stripe. */
    protected static final int NOT_VIEWED = 0;
    /** The frame is counted whole: its counters, and in a viewed scene its Matrix values. */
    protected static final int COUNTED = 1;
    /** The counters are counted, in the scene too, but not the Matrix values of a frame longer than on time. */
    protected static final int MATRIX_LEFT = 2;

    private long counters;
    private long sceneCounters;
    private long sceneSums;
    /** Matrix's values of a frame that drops nothing, and the longest such frame (see {@link #onTimeMatrix}). */
    private long onTimeMaxTotal = -1;
    private int onTimeLevel;
    private long onTimeCostNanos;
    private long refreshMilliHz;

    protected StripeView() {
    }

    /**
     * Views {@code stripe}'s counters and scene {@code slot} (-1: none; also none when the stripe
     * has no scene group).
     *
     * @return false for a shared stripe, whose counts must go through {@link StripeWriter}'s own
     *         methods; the view is then empty
     * @throws IllegalStateException if the stripe was released
     * @throws IndexOutOfBoundsException if the slot is not -1..{@link SceneGroup#SLOTS}-1
     */
    protected final boolean viewStripe(StripeWriter stripe, int slot) {
        if (slot != -1) {
            Objects.checkIndex(slot, SceneGroup.SLOTS);
        }
        counters = 0;
        sceneCounters = 0;
        sceneSums = 0;
        if (stripe.isShared()) {
            return false;
        }
        long c = stripe.countersForView();
        long u = stripe.sceneCountersOf(slot);
        long w = stripe.sceneSumsOf(slot);
        counters = c;
        sceneCounters = u;
        sceneSums = w;
        return true;
    }

    /** Whether the view counts in a scene slot. */
    protected final boolean viewsScene() {
        return sceneCounters != 0;
    }

    /**
     * Sets what a frame of total time at most {@code maxTotalNanos} adds to the scene's Matrix
     * values (for the 2.1 rule: a frame within one interval drops nothing): its level, cost and
     * refresh rate. Longer frames are left to the caller ({@link #MATRIX_LEFT}); a negative
     * maximum leaves every frame's Matrix values to it.
     */
    protected final void onTimeMatrix(long maxTotalNanos, int level, long costNanos, long refreshMilliHz) {
        Objects.checkIndex(level, SceneGroup.LEVELS);
        this.onTimeMaxTotal = maxTotalNanos;
        this.onTimeLevel = level;
        this.onTimeCostNanos = costNanos;
        this.refreshMilliHz = refreshMilliHz;
    }

    /**
     * Counts a counted frame's {@link io.gfxstats.stats.FrameOutcome} (see
     * {@link StripeWriter#countFrame}) in the viewed stripe and scene, and in the scene the Matrix
     * values of an on-time frame of {@code totalNanos}.
     *
     * @return {@link #NOT_VIEWED}, {@link #COUNTED} or {@link #MATRIX_LEFT}: one answer, so that the
     *         per-frame path tests once what it would otherwise ask again
     */
    protected final int countFramePlain(int outcome, long totalNanos) {
        long c = counters;
        if (c == 0) {
            return NOT_VIEWED;
        }
        long u = sceneCounters;
        StripeWriter.countCounted(c, u, outcome);
        if (u == 0) {
            return COUNTED;
        }
        if (totalNanos > onTimeMaxTotal) {
            return MATRIX_LEFT;
        }
        SceneStripe.addMatrixFrame(u, sceneSums, onTimeLevel, 0, onTimeCostNanos, 0, refreshMilliHz, totalNanos);
        return COUNTED;
    }
}
