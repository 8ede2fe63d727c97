package io.gfxstats.live;

import io.gfxstats.matrix.MatrixRule;

/**
 * One line of {@code gfxstats top}: a package's total or one of its scenes, over the last
 * interval (or since start, in cumulative mode).
 *
 * @param scene       null for the package's total
 * @param frames      frames in the interval
 * @param fps         throughput: frames per wall-clock second
 * @param matrixFps   Matrix 2.1's fps, {@code 1e9 x n / Σ max(T, I)}; NaN with 20 Matrix frames or fewer
 * @param jankPercent Android's janky frames in percent of frames; NaN without frames
 * @param levels      Matrix frames per level, BEST .. FROZEN
 * @param dropped     whole dropped frames summed over the levels
 * @param worstLevel  the worst level with a frame, or -1 without Matrix frames
 */
public record TopRow(String packageName, long versionCode, String scene, long frames, double fps, double matrixFps,
                     double jankPercent, long[] levels, long dropped, int worstLevel) {
    /** Matrix's gate: fewer frames give no fps. */
    public static final int MIN_MATRIX_FRAMES_EXCLUSIVE = 20;

    public TopRow {
        levels = levels.clone();
    }

    @Override
    public long[] levels() {
        return levels.clone();
    }

    public long level(int level) {
        return levels[level];
    }

    /** The row of one interval's counters over {@code seconds} of wall time. */
    static TopRow of(LiveScene d, String scene, double seconds) {
        long[] levels = d.levelCounts();
        long dropped = 0;
        int worst = -1;
        for (int l = 0; l < MatrixRule.LEVEL_COUNT; l++) {
            dropped += d.levelSum(l);
            if (levels[l] > 0) {
                worst = l;
            }
        }
        double fps = seconds > 0 ? d.frames() / seconds : Double.NaN;
        double mfps = d.matrixFrames() > MIN_MATRIX_FRAMES_EXCLUSIVE && d.costNanos() > 0
                ? 1e9 * d.matrixFrames() / d.costNanos() : Double.NaN;
        double jank = d.frames() > 0 ? 100.0 * d.jankyFrames() / d.frames() : Double.NaN;
        return new TopRow(d.packageName(), d.versionCode(), scene, d.frames(), fps, mfps, jank, levels, dropped, worst);
    }
}
