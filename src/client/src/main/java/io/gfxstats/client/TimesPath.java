package io.gfxstats.client;

import io.gfxstats.buffer.SceneStripe;
import io.gfxstats.buffer.StripeWriter;
import io.gfxstats.frame.ModernJankTracker;
import io.gfxstats.scene.SceneFrameCounter;
import io.gfxstats.stats.FrameOutcome;

/**
 * The per-frame path of {@link WindowTracker#record(long, long, long, long, long)} under the
 * modern rules: the rules decide the frame ({@link ModernJankTracker#classify}), and this writes
 * what they decided and, for a frame within one interval, Matrix's values straight into the
 * stripe's and the scene's memory. The addresses, and Matrix's values of an on-time frame, are
 * kept here and refreshed only when the stripe, the scene or the interval changes, so that a
 * frame reads one object's fields (docs/benchmarks.md, "Where the time goes": each dependent
 * load and each check on this path costs measurably). Anything else (a shared stripe, a frame
 * the rules do not count, a late frame's Matrix values) goes through the stripe's own methods.
 * Confined to the tracker's thread.
 */
final class TimesPath {
    private final ModernJankTracker rules;
    /** Matrix values and scene sums; null when the session counts no scenes. */
    private final SceneFrameCounter scenes;
    /** The stripe and scene slot the addresses below belong to. */
    private StripeWriter stripe;
    private int slot = Integer.MIN_VALUE;
    /** The stripe's counters, 0 for a shared stripe (every count then goes through the stripe). */
    private long counters;
    /** The selected scene's counters and sums; 0: no scene to count in. */
    private long sceneCounters;
    private long sceneSums;
    /** Matrix's values of a frame within one interval, at {@link #matrixInterval}. */
    private long matrixInterval = Long.MIN_VALUE;
    private long onTimeMaxTotal;
    private int onTimeLevel;
    private long onTimeCostNanos;
    private long refreshMilliHz;

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
        long c = counters;
        if (c == 0 || !FrameOutcome.isCounted(outcome)) {
            countThroughStripe(outcome, intendedVsync, frameCompleted, interval);
            return;
        }
        long u = sceneCounters;
        StripeWriter.countCounted(c, u, outcome);
        if (u == 0) {
            return;
        }
        if (interval != matrixInterval) {
            matrixChanged(interval);
        }
        long total = frameCompleted - intendedVsync;
        if (total <= onTimeMaxTotal) {
            // Most frames: within one interval the 2.1 rule drops nothing (see SceneFrameCounter).
            SceneStripe.addMatrixFrame(u, sceneSums, onTimeLevel, 0, onTimeCostNanos, 0, refreshMilliHz, total);
        } else {
            scenes.countCounted(total, interval, stripe);
        }
    }

    /** Another path selected a scene in the stripe: select ours again before the next frame. */
    void forgetScene() {
        slot = Integer.MIN_VALUE;
    }

    private void countThroughStripe(int outcome, long intendedVsync, long frameCompleted, long interval) {
        stripe.countFrame(outcome);
        if (scenes != null) {
            scenes.count(intendedVsync, frameCompleted, interval, stripe);
        }
    }

    private void locate(StripeWriter stripe, int slot) {
        stripe.selectScene(slot);
        this.stripe = stripe;
        this.slot = slot;
        counters = stripe.exclusiveCounters();
        // 0 for a shared stripe as for no scene: the stripe's own methods count those.
        sceneCounters = scenes != null ? stripe.selectedSceneCounters() : 0;
        sceneSums = scenes != null ? stripe.selectedSceneSums() : 0;
    }

    private void matrixChanged(long interval) {
        SceneFrameCounter sc = scenes;
        sc.useInterval(interval);
        matrixInterval = interval;
        onTimeMaxTotal = sc.onTimeMaxTotal();
        onTimeLevel = sc.onTimeLevel();
        onTimeCostNanos = sc.onTimeCostNanos();
        refreshMilliHz = sc.refreshMilliHz();
    }
}
