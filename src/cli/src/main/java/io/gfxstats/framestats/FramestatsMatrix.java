package io.gfxstats.framestats;

import io.gfxstats.matrix.FrameMetric;
import io.gfxstats.matrix.Matrix20Slice;
import io.gfxstats.matrix.Matrix21Slice;
import io.gfxstats.matrix.MatrixDevice;
import io.gfxstats.matrix.MatrixFormat;
import io.gfxstats.matrix.MatrixLevels;
import io.gfxstats.matrix.MatrixReport;
import io.gfxstats.matrix.MatrixRule;

import io.gfxstats.frame.FrameInfo;
import io.gfxstats.framestats.ColumnSet;
import io.gfxstats.framestats.FramestatsBlock;
import java.util.Optional;

/**
 * Matrix reports from a framestats capture ({@code gfxstats framestats --matrix}): one report
 * per window block over all its replayable rows, in row order, scene = the window name, process =
 * the block's process. Each frame's refresh rate is {@code 1e9 / FrameInterval} of its row in
 * float (the fallback interval for rows without one), as if Matrix's
 * {@code Display.getRefreshRate()} had said so. A block is reported only with more than 20
 * frames left after Matrix 2.1's outlier filter, as Matrix emits slices.
 *
 * <p>{@link MatrixFormat#V2_1} replays Matrix 2.1.0's arithmetic ({@link Matrix21Slice});
 * {@link MatrixFormat#V2_0} replays 2.0.x's ({@link Matrix20Slice}: the legacy dropped frames
 * from IntendedVsync to IssueDrawCommandsStart, fps capped at the block's refresh rate as an int,
 * as 2.0.5+ caps it).
 */
public final class FramestatsMatrix {
    private final MatrixFormat format;
    private final MatrixLevels levels;
    private final MatrixDevice device;
    private final long fallbackIntervalNanos;

    public FramestatsMatrix(MatrixFormat format, MatrixLevels levels, MatrixDevice device, long fallbackIntervalNanos) {
        if (fallbackIntervalNanos <= 0) {
            throw new IllegalArgumentException("fallback interval must be positive: " + fallbackIntervalNanos);
        }
        this.format = format;
        this.levels = levels;
        this.device = device;
        this.fallbackIntervalNanos = fallbackIntervalNanos;
    }

    /** What one block gave: its report if Matrix would emit one, and how many frames counted. */
    public record BlockResult(FramestatsBlock block, Optional<MatrixReport> report, int frames, int refused) {
    }

    public BlockResult report(FramestatsBlock block, long timeMillis) {
        String process = block.process().orElse(block.name());
        boolean modern = block.columnSet() == ColumnSet.MODERN;
        FrameInfo frame = new FrameInfo();
        if (format == MatrixFormat.V2_1) {
            Matrix21Slice slice = new Matrix21Slice(levels);
            boolean gpu = false;
            for (int i = 0; i < block.frameCount(); i++) {
                load(block, i, frame);
                gpu |= modern && frame.get(FrameInfo.COMMAND_SUBMISSION_COMPLETED) > 0;
                slice.append(frame, MatrixRule.refreshHz(interval(frame), 0f), modern);
            }
            Optional<MatrixReport> report = slice.reportable()
                    ? Optional.of(slice.report(device, block.name(), process, timeMillis, gpu))
                    : Optional.empty();
            return new BlockResult(block, report, slice.count(), slice.refused());
        }
        Matrix20Slice slice = new Matrix20Slice(levels);
        int refused = 0;
        float firstRefresh = 0f;
        for (int i = 0; i < block.frameCount(); i++) {
            load(block, i, frame);
            if (!MatrixRule.isValidDuration(FrameMetric.total(frame))) {
                refused++;
                continue;
            }
            long interval = interval(frame);
            if (firstRefresh == 0f) {
                firstRefresh = MatrixRule.refreshHz(interval, 0f);
            }
            long issue = frame.get(FrameInfo.ISSUE_DRAW_COMMANDS_START);
            long span = issue > 0 ? issue - frame.get(FrameInfo.INTENDED_VSYNC) : FrameMetric.total(frame);
            slice.append(span, interval);
        }
        Optional<MatrixReport> report = slice.count() > Matrix21Slice.MIN_FRAMES_EXCLUSIVE
                ? Optional.of(slice.report(device, block.name(), process, timeMillis, (int) firstRefresh))
                : Optional.empty();
        return new BlockResult(block, report, slice.count(), refused);
    }

    private long interval(FrameInfo frame) {
        long interval = frame.get(FrameInfo.FRAME_INTERVAL);
        return interval > 0 ? interval : fallbackIntervalNanos;
    }

    private static void load(FramestatsBlock block, int index, FrameInfo into) {
        into.copyFrom(block.frame(index));
    }
}
