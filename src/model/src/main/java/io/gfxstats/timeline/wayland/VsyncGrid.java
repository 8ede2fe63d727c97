package io.gfxstats.timeline.wayland;

import io.gfxstats.timeline.TimelineFrame;

/**
 * Predictions for a Linux client's frames from its presentation feedback (spec 6.2): the vsync
 * grid is the last presented time plus multiples of the refresh period; a frame starting at
 * {@code start} targets the first vsync it can reach with the app's and the compositor's budgets
 * (present >= start + app budget + compositor budget), its deadline is that vsync minus the
 * compositor budget, and its expected start the deadline minus the app budget. The budgets
 * default to SurfaceFlinger's: compositor = refresh - 1 ms, app = refresh. Single-threaded,
 * allocation-free.
 */
public final class VsyncGrid {
    private static final long ONE_MS = 1_000_000L;

    private final long appBudgetNanos;
    private final long compositorBudgetNanos;
    private long lastPresent = Long.MIN_VALUE;
    private long refresh;

    /** Budgets in ns; 0 or negative: SurfaceFlinger's default for that budget. */
    public VsyncGrid(long appBudgetNanos, long compositorBudgetNanos) {
        this.appBudgetNanos = appBudgetNanos;
        this.compositorBudgetNanos = compositorBudgetNanos;
    }

    /** A grid with SurfaceFlinger's default budgets. */
    public VsyncGrid() {
        this(0, 0);
    }

    /** Feeds one presentation: its time and the refresh period (0 keeps the last known period). */
    public void presented(long presentedNanos, long refreshNanos) {
        lastPresent = presentedNanos;
        if (refreshNanos > 0) {
            refresh = refreshNanos;
        }
    }

    /** Whether a presentation with a refresh period was seen, so predictions can be made. */
    public boolean isReady() {
        return lastPresent != Long.MIN_VALUE && refresh > 0;
    }

    public long refreshNanos() {
        return refresh;
    }

    public long appBudgetNanos() {
        return appBudgetNanos > 0 ? appBudgetNanos : refresh;
    }

    public long compositorBudgetNanos() {
        return compositorBudgetNanos > 0 ? compositorBudgetNanos : Math.max(refresh - ONE_MS, 0);
    }

    /** The first vsync of the grid at or after {@code t}. */
    public long vsyncAtOrAfter(long t) {
        if (t <= lastPresent) {
            return lastPresent;
        }
        long steps = (t - lastPresent + refresh - 1) / refresh;
        return lastPresent + steps * refresh;
    }

    /**
     * Sets the predicted start, end and present of {@code frame} for work starting at
     * {@code start}; returns false (frame untouched) until {@link #isReady()}.
     */
    public boolean predict(long start, TimelineFrame frame) {
        if (!isReady()) {
            return false;
        }
        long app = appBudgetNanos();
        long compositor = compositorBudgetNanos();
        long present = vsyncAtOrAfter(start + app + compositor);
        long end = present - compositor;
        frame.predicted(end - app, end, present);
        return true;
    }
}
