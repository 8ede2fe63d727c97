package io.gfxstats.framestats;

import io.gfxstats.frame.FrameInfo;
import io.gfxstats.frame.FrameTracker;
import io.gfxstats.stats.Pipeline;
import io.gfxstats.stats.StatsSink;
import java.util.Objects;
import java.util.Optional;

/**
 * One window's framestats: its finished frames in modern {@link FrameInfo} field order, the
 * statistics block the device printed for it (if any) and where it came from. Immutable.
 */
public final class FramestatsBlock {
    /** A row whose frame took an hour or more (or a negative time) is not a finished frame. */
    public static final long MAX_FRAME_SPAN_NANOS = 3_600_000_000_000L;

    private final String name;
    private final String process;
    private final ColumnSet columnSet;
    private final int headerLine;
    private final int rowCount;
    private final long[][] frames;
    private final long[][] matrixFrames;
    private final DeviceStats deviceStats;
    private final Pipeline pipeline;

    FramestatsBlock(String name, String process, ColumnSet columnSet, int headerLine, int rowCount, long[][] frames,
                    long[][] matrixFrames, DeviceStats deviceStats, Pipeline pipeline) {
        this.name = Objects.requireNonNull(name);
        this.process = process;
        this.columnSet = Objects.requireNonNull(columnSet);
        this.headerLine = headerLine;
        this.rowCount = rowCount;
        this.frames = frames;
        this.matrixFrames = matrixFrames;
        this.deviceStats = deviceStats;
        this.pipeline = Objects.requireNonNull(pipeline);
    }

    /**
     * The window name: the dump's "Window:" line, else the view root line above the data
     * (Android 9), else the process, else the name the input was read under.
     */
    public String name() {
        return name;
    }

    /** The process from the "** Graphics info for pid N [process] **" line, if any. */
    public Optional<String> process() {
        return Optional.ofNullable(process);
    }

    public ColumnSet columnSet() {
        return columnSet;
    }

    /** 1-based line of the block's framestats header. */
    public int headerLine() {
        return headerLine;
    }

    /** Data rows in the dump, including frames still in flight. */
    public int rowCount() {
        return rowCount;
    }

    /** Finished frames, the rows that are replayed. */
    public int frameCount() {
        return frames.length;
    }

    /**
     * Rows Matrix 2.1 would have counted on their total, the rows {@code framestats --matrix}
     * replays: the finished frames plus those of 0 ns and of an hour or more (Matrix accepts
     * {@code 0 <= T < 2^62 - 1}), in row order.
     */
    public int matrixFrameCount() {
        return matrixFrames.length;
    }

    /** Loads Matrix row {@code index} (see {@link #matrixFrameCount()}) into {@code into}. */
    public FrameInfo loadMatrixFrame(int index, FrameInfo into) {
        long[] fields = matrixFrames[index];
        for (int f = 0; f < FrameInfo.FIELD_COUNT; f++) {
            into.set(f, fields[f]);
        }
        return into;
    }

    /** Rows left out because their frame was still in flight when the dump was taken. */
    public int inFlightRows() {
        return rowCount - frames.length;
    }

    /** What the device printed for this window, when the dump has a statistics block for it. */
    public Optional<DeviceStats> deviceStats() {
        return Optional.ofNullable(deviceStats);
    }

    /**
     * Whether the replay can reproduce {@link #deviceStats()}: the device keeps only its last
     * 120 frames per window, so this holds only when it rendered no more frames than there are rows.
     */
    public boolean reproducesDeviceStats() {
        return deviceStats != null && deviceStats.totalFrames() <= rowCount;
    }

    /** The render pipeline of the window's process, from the dump's "Pipeline=" line. */
    public Pipeline pipeline() {
        return pipeline;
    }

    /** A copy of finished frame {@code index}. */
    public FrameInfo frame(int index) {
        return load(new FrameInfo(), index);
    }

    /** Feeds every finished frame, in order, to {@code tracker}, reusing one FrameInfo. */
    public void replay(FrameTracker tracker, StatsSink sink) {
        FrameInfo frame = new FrameInfo();
        for (int i = 0; i < frames.length; i++) {
            tracker.finishFrame(load(frame, i), sink);
        }
    }

    private FrameInfo load(FrameInfo into, int index) {
        long[] fields = frames[index];
        for (int f = 0; f < FrameInfo.FIELD_COUNT; f++) {
            into.set(f, fields[f]);
        }
        return into;
    }

    @Override
    public String toString() {
        return "FramestatsBlock{" + name + ", " + columnSet + ", rows=" + rowCount + ", frames=" + frames.length + "}";
    }
}
