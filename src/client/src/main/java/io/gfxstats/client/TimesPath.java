package io.gfxstats.client;

import io.gfxstats.buffer.StripeView;
import io.gfxstats.buffer.StripeWriter;
import io.gfxstats.frame.ModernJankTracker;
import io.gfxstats.scene.SceneFrameCounter;
import io.gfxstats.stats.FrameOutcome;

/**
 * The per-frame path of {@link WindowTracker#record(long, long, long, long, long)} under the
 * modern rules: the rules decide the frame ({@link ModernJankTracker#classify}), and this writes
 * what they decided and, for a frame within one interval, Matrix's values through its
 * {@link StripeView} of the stripe and scene. The view, and Matrix's values of an on-time frame,
 * are refreshed only when the stripe, the scene or the interval changes, so that a frame reads
 * one object's fields (docs/benchmarks.md, "Where the time goes": each dependent load and each
 * check on this path costs measurably). Anything else (a shared stripe, a frame the rules do not
 * count, a late frame's Matrix values) goes through the stripe's own methods, with this path's
 * scene selected in the stripe first. Confined to the tracker's thread.
 */
final class TimesPath extends StripeView {
    private final ModernJankTracker rules;
    /** Matrix values and scene sums; null when the session counts no scenes. */
    private final SceneFrameCounter scenes;
    /** The stripe and scene slot viewed. */
    private StripeWriter stripe;
    private int slot = Integer.MIN_VALUE;
    /** The interval the view's on-time Matrix values are for. */
    private long matrixInterval = Long.MIN_VALUE;

    TimesPath(ModernJankTracker rules, SceneFrameCounter scenes) {
        this.rules = rules;
        this.scenes = scenes;
    }

    /**
     * Counts one frame into {@code stripe}, in scene {@code slot} (-1: none), with its interval
     * already defaulted by the tracker.
     */
    void record(StripeWriter stripe, int slot, long intendedVsync, long vsync, long frameCompleted,
                long gpuCompleted, long interval) {
        if (stripe != this.stripe || slot != this.slot) {
            locate(stripe, slot);
        }
        int outcome = rules.classify(intendedVsync, vsync, frameCompleted, gpuCompleted, interval);
        if (interval != matrixInterval) {
            matrixChanged(interval);
        }
        long total = frameCompleted - intendedVsync;
        int counted = FrameOutcome.isCounted(outcome) ? countFramePlain(outcome, total) : NOT_VIEWED;
        if (counted == COUNTED) {
            return; // most frames
        }
        if (counted == NOT_VIEWED) {
            countThroughStripe(outcome, intendedVsync, frameCompleted, interval);
        } else {
            // A late frame: Matrix's 2.1 rule decides what it dropped (see SceneFrameCounter).
            stripe.selectScene(slot);
            scenes.countCounted(total, interval, stripe);
        }
    }

    private void countThroughStripe(int outcome, long intendedVsync, long frameCompleted, long interval) {
        stripe.selectScene(slot);
        stripe.countFrame(outcome);
        if (scenes != null) {
            scenes.count(intendedVsync, frameCompleted, interval, stripe);
        }
    }

    private void locate(StripeWriter stripe, int slot) {
        // A shared stripe is not viewed: the stripe's own methods count its frames.
        viewStripe(stripe, scenes != null ? slot : -1);
        this.stripe = stripe;
        this.slot = slot;
    }

    private void matrixChanged(long interval) {
        matrixInterval = interval;
        SceneFrameCounter sc = scenes;
        if (sc != null) {
            sc.useInterval(interval);
            onTimeMatrix(sc.onTimeMaxTotal(), sc.onTimeLevel(), sc.onTimeCostNanos(), sc.refreshMilliHz());
        }
    }
}
