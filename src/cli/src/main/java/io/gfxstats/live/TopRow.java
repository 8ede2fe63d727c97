package io.gfxstats.live;

import io.gfxstats.matrix.MatrixRule;

/**
 * One line of {@code gfxstats top}: a package's total or one of its scenes. The counts cover the
 * last interval, or since start in cumulative mode; {@code fps} is always the last interval's.
 *
 * @param scene       null for the package's total
 * @param live        whether the feed still has it (false: its processes ended; cumulative mode keeps it)
 * @param frames      frames counted
 * @param jankyFrames Android's janky frames among them
 * @param fps         throughput over the last interval: frames per wall-clock second; NaN before a
 *                    second snapshot
 * @param matrixFps   Matrix 2.1's fps of the counted frames, {@code 1e9 x n / Σ max(T, I)}; NaN
 *                    with 20 Matrix frames or fewer
 * @param jankPercent janky frames in percent of frames; NaN without frames
 * @param levels      Matrix frames per level, BEST .. FROZEN
 * @param dropped     whole dropped frames summed over the levels
 * @param worstLevel  the worst level with a frame, or -1 without Matrix frames
 * @param ringDropped a package total's frames lost to a full recording ring since each of its
 *                    processes began (or, once they ended, the last count seen); 0 for a scene
 */
public record TopRow(String packageName, long versionCode, String scene, boolean live, long frames,
                     long jankyFrames, double fps, double matrixFps, double jankPercent, long[] levels,
                     long dropped, int worstLevel, long ringDropped) {
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

    /**
     * The row of {@code counted} (the interval's or the cumulative counters) with the throughput
     * of {@code interval}'s frames over {@code intervalSeconds} (0: no interval yet).
     */
    static TopRow of(LiveScene counted, String scene, boolean live, LiveScene interval, double intervalSeconds) {
        long[] levels = counted.levelCounts();
        long dropped = 0;
        int worst = -1;
        for (int l = 0; l < MatrixRule.LEVEL_COUNT; l++) {
            dropped += counted.levelSum(l);
            if (levels[l] > 0) {
                worst = l;
            }
        }
        double fps = intervalSeconds > 0 ? interval.frames() / intervalSeconds : Double.NaN;
        double mfps = counted.matrixFrames() > MIN_MATRIX_FRAMES_EXCLUSIVE && counted.costNanos() > 0
                ? 1e9 * counted.matrixFrames() / counted.costNanos() : Double.NaN;
        double jank = counted.frames() > 0 ? 100.0 * counted.jankyFrames() / counted.frames() : Double.NaN;
        return new TopRow(counted.packageName(), counted.versionCode(), scene, live, counted.frames(),
                counted.jankyFrames(), fps, mfps, jank, levels, dropped, worst, 0);
    }

    /** This row with a package's ring drops. */
    TopRow withRingDropped(long lost) {
        return new TopRow(packageName, versionCode, scene, live, frames, jankyFrames, fps, matrixFps, jankPercent,
                levels, dropped, worstLevel, lost);
    }
}
