package io.gfxstats.matrix;

import java.util.Arrays;
import java.util.Objects;

/**
 * One Matrix {@code Trace_FPS} report: a slice of one scene's frames. Immutable; the arrays are
 * copied in and out.
 *
 * @param device       the leading device keys
 * @param scene        the scene (Matrix: the Activity; framestats: the window name)
 * @param dropLevel    frames per level, indexed {@link MatrixRule#BEST} .. {@link MatrixRule#FROZEN}
 * @param dropSum      whole dropped frames per level, same index
 * @param fps          the slice's fps as Matrix computed it (a float)
 * @param avgDurations average FrameMetrics durations in ns, indexed by {@link FrameMetric}, or
 *                     null when the frames had no stage times (then 2.1 prints no stage keys)
 * @param gpu          whether {@code GPU_DURATION} is printed (Matrix: API 31+)
 * @param dropCount    {@code DROP_COUNT}: the rounded average dropped frames (2.1)
 * @param refreshRate  {@code REFRESH_RATE}: the truncated average refresh rate (2.1)
 * @param process      the process name
 * @param timeMillis   when the report was made, epoch milliseconds
 */
public record MatrixReport(MatrixDevice device, String scene, int[] dropLevel, int[] dropSum, float fps,
                           long[] avgDurations, boolean gpu, int dropCount, int refreshRate, String process,
                           long timeMillis) {
    public MatrixReport {
        Objects.requireNonNull(device, "device");
        Objects.requireNonNull(scene, "scene");
        Objects.requireNonNull(process, "process");
        if (dropLevel.length != MatrixRule.LEVEL_COUNT || dropSum.length != MatrixRule.LEVEL_COUNT) {
            throw new IllegalArgumentException("five levels expected");
        }
        if (avgDurations != null && avgDurations.length != FrameMetric.COUNT) {
            throw new IllegalArgumentException(FrameMetric.COUNT + " durations expected");
        }
        dropLevel = dropLevel.clone();
        dropSum = dropSum.clone();
        avgDurations = avgDurations == null ? null : avgDurations.clone();
    }

    @Override
    public int[] dropLevel() {
        return dropLevel.clone();
    }

    @Override
    public int[] dropSum() {
        return dropSum.clone();
    }

    @Override
    public long[] avgDurations() {
        return avgDurations == null ? null : avgDurations.clone();
    }

    public int dropLevel(int level) {
        return dropLevel[level];
    }

    public int dropSum(int level) {
        return dropSum[level];
    }

    /** Frames in the slice: the sum of {@link #dropLevel}. */
    public int frames() {
        return Arrays.stream(dropLevel).sum();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof MatrixReport r && device.equals(r.device) && scene.equals(r.scene)
                && Arrays.equals(dropLevel, r.dropLevel) && Arrays.equals(dropSum, r.dropSum)
                && Float.floatToIntBits(fps) == Float.floatToIntBits(r.fps)
                && Arrays.equals(avgDurations, r.avgDurations) && gpu == r.gpu && dropCount == r.dropCount
                && refreshRate == r.refreshRate && process.equals(r.process) && timeMillis == r.timeMillis;
    }

    @Override
    public int hashCode() {
        return Objects.hash(scene, process, timeMillis, Float.floatToIntBits(fps), Arrays.hashCode(dropLevel));
    }

    @Override
    public String toString() {
        return MatrixFormat.V2_1.json(this);
    }
}
