package io.gfxstats.live;

import io.gfxstats.frame.FrameInfo;
import io.gfxstats.matrix.FrameMetric;
import io.gfxstats.matrix.MatrixLevels;
import io.gfxstats.matrix.MatrixMode;
import io.gfxstats.matrix.MatrixRule;

/**
 * Cumulative scene counters from frames, by the same per-frame Matrix rule the client applies:
 * what a client's scene stripe would hold after recording the same frames. Used to replay
 * captures into a {@link SceneFeed}. Not thread-safe.
 */
public final class SceneAccumulator {
    private final LiveScene.Key key;
    private final MatrixLevels levels;
    private final boolean stages;
    private long frames;
    private long janky;
    private long matrixFrames;
    private final long[] levelCounts = new long[MatrixRule.LEVEL_COUNT];
    private final long[] levelSums = new long[MatrixRule.LEVEL_COUNT];
    private long cost;
    private double dropped;
    private double refresh;
    private final long[] stageSums = new long[FrameMetric.COUNT];

    public SceneAccumulator(LiveScene.Key key, MatrixLevels levels, boolean stages) {
        this.key = key;
        this.levels = levels;
        this.stages = stages;
    }

    /** One frame, with Android's verdict on it, at the refresh rate Matrix would see. */
    public void add(FrameInfo frame, boolean jankyFrame, float refreshHz) {
        frames++;
        if (jankyFrame) {
            janky++;
        }
        addMatrix(frame, refreshHz);
    }

    /**
     * A frame Matrix counts but Android's counters do not (a total of 0 ns, or of an hour or
     * more in a capture, whose Android replay takes those rows for frames still in flight).
     */
    public void addMatrixOnly(FrameInfo frame, float refreshHz) {
        addMatrix(frame, refreshHz);
    }

    private void addMatrix(FrameInfo frame, float refreshHz) {
        int d = MatrixRule.droppedFrames(MatrixMode.V2_1, frame, refreshHz, stages);
        if (d == MatrixRule.INVALID) {
            return;
        }
        long total = FrameMetric.total(frame);
        float interval = MatrixRule.intervalNanos(refreshHz);
        matrixFrames++;
        int level = levels.level(d);
        levelCounts[level]++;
        levelSums[level] += MatrixRule.sumContribution(d);
        cost += (long) MatrixRule.frameCostNanos(total, interval);
        dropped += MatrixRule.droppedFrames(total, interval);
        refresh += refreshHz;
        if (stages) {
            for (int m = 0; m < FrameMetric.COUNT; m++) {
                stageSums[m] += FrameMetric.value(frame, m);
            }
        }
    }

    public LiveScene counters() {
        return new LiveScene(key.packageName(), key.versionCode(), key.scene(), frames, janky, matrixFrames,
                levelCounts, levelSums, cost, dropped, refresh, stages ? stageSums : null);
    }
}
