package io.gfxstats.buffer;

import java.util.Objects;

/**
 * The per-frame path's view of one exclusive (or in-memory) stripe and one scene slot in it. A
 * tracker views a stripe and slot once, when either changes, and then counts each frame with
 * the two methods below; the addresses stay inside this class and were checked against the
 * stripe's memory when it was viewed, so a frame costs no check and no raw address leaves the
 * buffer package. Scene selection is explicit: the view's slot is the one it was given, whatever
 * other code selects in the stripe since.
 *
 * <p>Method names say how memory is written, as Agrona's do: {@code Plain} is a plain load and
 * store per counter, for the one writer of an exclusive stripe (a shared stripe needs atomic
 * adds and is never viewed); {@link #countFramePlain} puts one release fence after the frame's
 * total, so a reader that sees a total sees no counter of a later frame before it.
 *
 * <p>A superclass rather than an object the tracker holds, like {@link SceneStripe}: the path
 * then reads the addresses from its own object, without a dependent load per frame.
 * Confined to the tracker's thread.
 */
public abstract class StripeView {
    private long counters;
    private long sceneCounters;
    private long sceneSums;

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

    /** What {@link #countFramePlain} did: nothing (no stripe viewed), the stripe only, or the stripe and the scene. */
    protected static final int NOT_VIEWED = 0;
    protected static final int COUNTED = 1;
    protected static final int COUNTED_IN_SCENE = 2;

    /** Whether the view counts in a scene slot. */
    protected final boolean viewsScene() {
        return sceneCounters != 0;
    }

    /**
     * Counts a counted frame's {@link io.gfxstats.stats.FrameOutcome} (see
     * {@link StripeWriter#countFrame}) in the viewed stripe and scene.
     *
     * @return {@link #NOT_VIEWED} (nothing counted: a shared stripe's counts go through the
     *         stripe), {@link #COUNTED} or {@link #COUNTED_IN_SCENE}; one answer, so that the
     *         per-frame path tests once what it would otherwise ask twice
     */
    protected final int countFramePlain(int outcome) {
        long c = counters;
        if (c == 0) {
            return NOT_VIEWED;
        }
        long u = sceneCounters;
        StripeWriter.countCounted(c, u, outcome);
        return u == 0 ? COUNTED : COUNTED_IN_SCENE;
    }

    /**
     * Counts Matrix's values of a frame that dropped nothing (a frame within one interval) in the
     * viewed scene: what {@link SceneStripe#countMatrix} counts with zero drops.
     */
    protected final void addOnTimeMatrixFramePlain(int level, long costNanos, long refreshMilliHz, long totalNanos) {
        long u = sceneCounters;
        if (u != 0) {
            SceneStripe.addMatrixFrame(u, sceneSums, level, 0, costNanos, 0, refreshMilliHz, totalNanos);
        }
    }
}
