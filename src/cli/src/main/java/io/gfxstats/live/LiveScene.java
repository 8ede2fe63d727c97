package io.gfxstats.live;

import io.gfxstats.matrix.FrameMetric;
import io.gfxstats.matrix.MatrixRule;
import java.util.Arrays;
import java.util.Objects;

/**
 * Cumulative counters of one (package, version, scene) at one moment, as a live feed (the
 * daemon's {@code Watch} stream) reports them; views and reports take differences of two.
 *
 * @param frames       frames counted (Android's total)
 * @param jankyFrames  Android's janky frames
 * @param matrixFrames frames the Matrix counters took (outliers left out)
 * @param levelCounts  Matrix frames per level, BEST .. FROZEN
 * @param levelSums    whole dropped frames per level, BEST .. FROZEN
 * @param costNanos    Σ max(TOTAL, I) over the Matrix frames, ns (Matrix 2.1's fps denominator)
 * @param droppedSum   Σ of the per-frame float dropped frames
 * @param refreshSum   Σ of the per-frame refresh rates, Hz
 * @param stageSums    Σ of each FrameMetrics duration (indexed by {@link FrameMetric}), ns, or
 *                     null when the frames carried only their main times
 */
public record LiveScene(String packageName, long versionCode, String scene, long frames, long jankyFrames,
                            long matrixFrames, long[] levelCounts, long[] levelSums, long costNanos,
                            double droppedSum, double refreshSum, long[] stageSums) {
    public LiveScene {
        Objects.requireNonNull(packageName, "packageName");
        Objects.requireNonNull(scene, "scene");
        if (levelCounts.length != MatrixRule.LEVEL_COUNT || levelSums.length != MatrixRule.LEVEL_COUNT) {
            throw new IllegalArgumentException("five levels expected");
        }
        if (stageSums != null && stageSums.length != FrameMetric.COUNT) {
            throw new IllegalArgumentException(FrameMetric.COUNT + " stage sums expected");
        }
        levelCounts = levelCounts.clone();
        levelSums = levelSums.clone();
        stageSums = stageSums == null ? null : stageSums.clone();
    }

    /** The (package, version, scene) this row counts. */
    public Key key() {
        return new Key(packageName, versionCode, scene);
    }

    public record Key(String packageName, long versionCode, String scene) implements Comparable<Key> {
        @Override
        public int compareTo(Key o) {
            int c = packageName.compareTo(o.packageName);
            if (c == 0) {
                c = Long.compare(versionCode, o.versionCode);
            }
            return c != 0 ? c : scene.compareTo(o.scene);
        }
    }

    public long levelCount(int level) {
        return levelCounts[level];
    }

    public long levelSum(int level) {
        return levelSums[level];
    }

    @Override
    public long[] levelCounts() {
        return levelCounts.clone();
    }

    @Override
    public long[] levelSums() {
        return levelSums.clone();
    }

    @Override
    public long[] stageSums() {
        return stageSums == null ? null : stageSums.clone();
    }

    /** All counters zero, for a key first seen. */
    public static LiveScene zero(Key key, boolean stages) {
        return new LiveScene(key.packageName(), key.versionCode(), key.scene(), 0, 0, 0,
                new long[MatrixRule.LEVEL_COUNT], new long[MatrixRule.LEVEL_COUNT], 0, 0, 0,
                stages ? new long[FrameMetric.COUNT] : null);
    }

    /** {@code this - earlier}, field by field; null if any counter went down (a reset). */
    public LiveScene minus(LiveScene earlier) {
        long[] lc = new long[MatrixRule.LEVEL_COUNT];
        long[] ls = new long[MatrixRule.LEVEL_COUNT];
        boolean down = frames < earlier.frames || jankyFrames < earlier.jankyFrames
                || matrixFrames < earlier.matrixFrames || costNanos < earlier.costNanos;
        for (int l = 0; l < lc.length; l++) {
            lc[l] = levelCounts[l] - earlier.levelCounts[l];
            ls[l] = levelSums[l] - earlier.levelSums[l];
            down |= lc[l] < 0 || ls[l] < 0;
        }
        long[] st = null;
        if (stageSums != null && earlier.stageSums != null) {
            st = new long[FrameMetric.COUNT];
            for (int m = 0; m < st.length; m++) {
                st[m] = stageSums[m] - earlier.stageSums[m];
            }
        }
        if (down) {
            return null;
        }
        return new LiveScene(packageName, versionCode, scene, frames - earlier.frames,
                jankyFrames - earlier.jankyFrames, matrixFrames - earlier.matrixFrames, lc, ls,
                costNanos - earlier.costNanos, droppedSum - earlier.droppedSum, refreshSum - earlier.refreshSum, st);
    }

    /** {@code this + other}, field by field, under this row's key; stage sums only if both have them. */
    public LiveScene plus(LiveScene other) {
        long[] lc = new long[MatrixRule.LEVEL_COUNT];
        long[] ls = new long[MatrixRule.LEVEL_COUNT];
        for (int l = 0; l < lc.length; l++) {
            lc[l] = levelCounts[l] + other.levelCounts[l];
            ls[l] = levelSums[l] + other.levelSums[l];
        }
        long[] st = null;
        if (stageSums != null && other.stageSums != null) {
            st = new long[FrameMetric.COUNT];
            for (int m = 0; m < st.length; m++) {
                st[m] = stageSums[m] + other.stageSums[m];
            }
        }
        return new LiveScene(packageName, versionCode, scene, frames + other.frames, jankyFrames + other.jankyFrames,
                matrixFrames + other.matrixFrames, lc, ls, costNanos + other.costNanos, droppedSum + other.droppedSum,
                refreshSum + other.refreshSum, st);
    }

    /** The same counters under another scene name (for package totals). */
    public LiveScene withScene(String newScene) {
        return new LiveScene(packageName, versionCode, newScene, frames, jankyFrames, matrixFrames, levelCounts,
                levelSums, costNanos, droppedSum, refreshSum, stageSums);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof LiveScene c && key().equals(c.key()) && frames == c.frames
                && jankyFrames == c.jankyFrames && matrixFrames == c.matrixFrames
                && Arrays.equals(levelCounts, c.levelCounts) && Arrays.equals(levelSums, c.levelSums)
                && costNanos == c.costNanos && Double.compare(droppedSum, c.droppedSum) == 0
                && Double.compare(refreshSum, c.refreshSum) == 0 && Arrays.equals(stageSums, c.stageSums);
    }

    @Override
    public int hashCode() {
        return Objects.hash(key(), frames, matrixFrames, costNanos);
    }
}
