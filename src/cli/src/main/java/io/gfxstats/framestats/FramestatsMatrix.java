package io.gfxstats.framestats;

import io.gfxstats.frame.FrameInfo;
import io.gfxstats.matrix.FrameMetric;
import io.gfxstats.matrix.Matrix20Slice;
import io.gfxstats.matrix.Matrix21Slice;
import io.gfxstats.matrix.MatrixDevice;
import io.gfxstats.matrix.MatrixFormat;
import io.gfxstats.matrix.MatrixLevels;
import io.gfxstats.matrix.MatrixReport;
import io.gfxstats.matrix.MatrixRule;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Matrix reports from a framestats capture ({@code gfxstats framestats --matrix}), per window
 * block over the rows Matrix would have counted ({@link FramestatsBlock#matrixFrameCount()}:
 * totals of 0 ns and of an hour or more included) in row order, scene = the window name,
 * process = the block's process. Each frame's refresh rate is {@code 1e9 / FrameInterval} of its row in float (the
 * fallback interval for rows without one), as if Matrix's {@code Display.getRefreshRate()} had
 * said so.
 *
 * <p>How a window's frames are cut into reports is {@link Slicing}: by default the cut of the
 * Matrix version replayed, so that the reports are the ones that version would have printed;
 * {@link Slicing#WINDOW} gives one report per window instead.
 *
 * <p>{@link MatrixFormat#V2_1} replays Matrix 2.1.0's arithmetic ({@link Matrix21Slice});
 * {@link MatrixFormat#V2_0} replays 2.0.x's ({@link Matrix20Slice}: the legacy dropped frames
 * from IntendedVsync to IssueDrawCommandsStart, fps capped at the slice's first refresh rate as
 * an int, as 2.0.5+ caps it).
 */
public final class FramestatsMatrix {
    /** Matrix 2.1's report interval: 10 s of wall time ({@code AllSceneFrameListener}). */
    public static final long MATRIX21_INTERVAL_MILLIS = 10_000L;
    /** Matrix 2.0's time slice: 10,000 ms of summed frame cost (the default config). */
    public static final long MATRIX20_COST_MILLIS = 10_000L;

    /** How frames are cut into reports. */
    public enum Slicing {
        /**
         * As the replayed Matrix version cuts them. 2.1: a slice opens at its first frame and
         * closes with the first frame that completes 10 s (whole milliseconds of FrameCompleted,
         * Matrix's {@code uptimeMillis}) or more after the slice's first one; the window's end
         * closes the last one (Matrix flushes when the Activity pauses); only slices of more
         * than 20 frames are reported. 2.0: a report each time the summed frame cost reaches
         * 10,000 ms, no frame gate; the frames after the last report are never reported.
         */
        MATRIX,
        /** One slice per window over all its rows, reported with more than 20 frames. */
        WINDOW,
        /**
         * Matrix 2.1's one slice for all windows of a process (its single report listener): the
         * process's frames in FrameCompleted order, cut as {@link #MATRIX} cuts, each report named
         * after its last frame's window ({@link #reportProcess}). 2.1 only.
         */
        PROCESS;

        /** Parses {@code matrix}, {@code window} or {@code process}. */
        public static Slicing parse(String name) {
            for (Slicing s : values()) {
                if (s.name().toLowerCase(Locale.ROOT).equals(name)) {
                    return s;
                }
            }
            throw new IllegalArgumentException("unknown slicing '" + name + "' (matrix, window or process)");
        }
    }

    private final MatrixFormat format;
    private final MatrixLevels levels;
    private final MatrixDevice device;
    private final long fallbackIntervalNanos;
    private final Slicing slicing;

    /** One report per window ({@link Slicing#WINDOW}). */
    public FramestatsMatrix(MatrixFormat format, MatrixLevels levels, MatrixDevice device, long fallbackIntervalNanos) {
        this(format, levels, device, fallbackIntervalNanos, Slicing.WINDOW);
    }

    public FramestatsMatrix(MatrixFormat format, MatrixLevels levels, MatrixDevice device, long fallbackIntervalNanos,
            Slicing slicing) {
        if (fallbackIntervalNanos <= 0) {
            throw new IllegalArgumentException("fallback interval must be positive: " + fallbackIntervalNanos);
        }
        this.format = format;
        this.levels = levels;
        this.device = device;
        if (slicing == Slicing.PROCESS && format != MatrixFormat.V2_1) {
            throw new IllegalArgumentException("--slices process applies to --format matrix-2.1 only"
                    + " (Matrix 2.0 keeps a slice per scene)");
        }
        this.fallbackIntervalNanos = fallbackIntervalNanos;
        this.slicing = slicing;
    }

    /**
     * What one block gave: the reports Matrix would emit, in order, how many frames counted, how
     * many the outlier filter refused and how many counted in slices that were not reported.
     */
    public record BlockResult(FramestatsBlock block, List<MatrixReport> reports, int frames, int refused,
            int unreported) {
        public BlockResult {
            reports = List.copyOf(reports);
        }

        /** The first report, the only one with {@link Slicing#WINDOW}. */
        public Optional<MatrixReport> report() {
            return reports.isEmpty() ? Optional.empty() : Optional.of(reports.get(0));
        }
    }

    /** How this replay cuts frames into reports. */
    public Slicing slicing() {
        return slicing;
    }

    /** Why frames went unreported, for the stderr line naming them. */
    public String unreportedReason() {
        if (slicing == Slicing.MATRIX && format == MatrixFormat.V2_0) {
            return "after the last 10,000 ms of summed frame cost (Matrix 2.0 never reports them)";
        }
        return "in slices of 20 frames or fewer (Matrix reports only more than 20)";
    }

    public BlockResult report(FramestatsBlock block, long timeMillis) {
        return format == MatrixFormat.V2_1 ? report21(block, timeMillis) : report20(block, timeMillis);
    }

    private BlockResult report21(FramestatsBlock block, long timeMillis) {
        int[][] rows = new int[block.matrixFrameCount()][];
        for (int i = 0; i < rows.length; i++) {
            rows[i] = new int[] {0, i};
        }
        Sliced sliced = slice21(List.of(block), rows, block.process().orElse(block.name()), timeMillis);
        return new BlockResult(block, sliced.reports, sliced.frames, sliced.refused, sliced.unreported);
    }

    /** What one process gave with {@link Slicing#PROCESS}: its reports and frame counts. */
    public record ProcessResult(String process, List<FramestatsBlock> blocks, List<MatrixReport> reports, int frames,
            int refused, int unreported) {
        public ProcessResult {
            blocks = List.copyOf(blocks);
            reports = List.copyOf(reports);
        }
    }

    /**
     * Matrix 2.1's one slice for all windows of a process ({@link Slicing#PROCESS}): the Matrix
     * rows of {@code blocks} (the windows of one process) merged in FrameCompleted order (stable:
     * row order within a window, window order between equal times), cut as {@link Slicing#MATRIX}
     * cuts, each report named after the window of its slice's last frame.
     */
    public ProcessResult reportProcess(String process, List<FramestatsBlock> blocks, long timeMillis) {
        if (format != MatrixFormat.V2_1 || slicing != Slicing.PROCESS) {
            throw new IllegalStateException("one slice per process is Matrix 2.1's: --format matrix-2.1 --slices process");
        }
        List<int[]> rows = new ArrayList<>();
        for (int b = 0; b < blocks.size(); b++) {
            for (int i = 0; i < blocks.get(b).matrixFrameCount(); i++) {
                rows.add(new int[] {b, i});
            }
        }
        FrameInfo frame = new FrameInfo();
        long[] completed = new long[rows.size()];
        for (int k = 0; k < completed.length; k++) {
            int[] r = rows.get(k);
            completed[k] = blocks.get(r[0]).loadMatrixFrame(r[1], frame).get(FrameInfo.FRAME_COMPLETED);
        }
        Integer[] order = new Integer[rows.size()];
        for (int k = 0; k < order.length; k++) {
            order[k] = k;
        }
        Arrays.sort(order, Comparator.comparingLong(k -> completed[k])); // stable
        int[][] sorted = new int[order.length][];
        for (int k = 0; k < order.length; k++) {
            sorted[k] = rows.get(order[k]);
        }
        Sliced sliced = slice21(blocks, sorted, process, timeMillis);
        return new ProcessResult(process, blocks, sliced.reports, sliced.frames, sliced.refused, sliced.unreported);
    }

    /** Reports and frame counts of one run of Matrix 2.1 slices. */
    private record Sliced(List<MatrixReport> reports, int frames, int refused, int unreported) {
    }

    /**
     * Feeds the rows ({block index, Matrix row index}) in the order given to Matrix 2.1 slices,
     * cut as {@link #slicing} says; a report is named after the window of its last frame, as
     * Matrix names a slice after its last frame's scene.
     */
    private Sliced slice21(List<FramestatsBlock> blocks, int[][] rows, String process, long timeMillis) {
        boolean modern = blocks.stream().allMatch(b -> b.columnSet() == ColumnSet.MODERN);
        FrameInfo frame = new FrameInfo();
        List<MatrixReport> reports = new ArrayList<>();
        Matrix21Slice slice = new Matrix21Slice(levels);
        // Matrix 2.1 prints GPU_DURATION on Android 12+ (the modern columns), whatever the values.
        boolean gpu = modern;
        boolean tenSeconds = slicing == Slicing.MATRIX || slicing == Slicing.PROCESS;
        long beginMillis = 0;
        String scene = null;
        int frames = 0;
        int refused = 0;
        int unreported = 0;
        for (int[] row : rows) {
            FramestatsBlock block = blocks.get(row[0]);
            block.loadMatrixFrame(row[1], frame);
            // Matrix stamps a slice with the time its first frame is handled, after the frame completed.
            long nowMillis = Math.floorDiv(frame.get(FrameInfo.FRAME_COMPLETED), 1_000_000L);
            boolean first = slice.count() == 0;
            if (!slice.append(frame, MatrixRule.refreshHz(interval(frame), 0f), modern)) {
                refused++;
                continue;
            }
            frames++;
            scene = block.name();
            if (first) {
                beginMillis = nowMillis;
            }
            if (tenSeconds && nowMillis - beginMillis >= MATRIX21_INTERVAL_MILLIS) {
                unreported += close21(slice, scene, process, timeMillis, gpu, reports);
                slice = new Matrix21Slice(levels);
            }
        }
        if (slice.count() > 0) {
            unreported += close21(slice, scene, process, timeMillis, gpu, reports);
        }
        return new Sliced(reports, frames, refused, unreported);
    }

    /** Reports the slice if Matrix would; returns the frames left unreported. */
    private int close21(Matrix21Slice slice, String scene, String process, long timeMillis, boolean gpu,
            List<MatrixReport> into) {
        if (!slice.reportable()) {
            return slice.count();
        }
        into.add(slice.report(device, scene, process, timeMillis, gpu));
        return 0;
    }

    private BlockResult report20(FramestatsBlock block, long timeMillis) {
        String process = block.process().orElse(block.name());
        FrameInfo frame = new FrameInfo();
        List<MatrixReport> reports = new ArrayList<>();
        Matrix20Slice slice = new Matrix20Slice(levels);
        int frames = 0;
        int refused = 0;
        float firstRefresh = 0f;
        for (int i = 0; i < block.matrixFrameCount(); i++) {
            block.loadMatrixFrame(i, frame);
            if (!MatrixRule.isValidDuration(FrameMetric.total(frame))) {
                refused++;
                continue;
            }
            long interval = interval(frame);
            if (slice.count() == 0) {
                firstRefresh = MatrixRule.refreshHz(interval, 0f);
            }
            long issue = frame.get(FrameInfo.ISSUE_DRAW_COMMANDS_START);
            long span = issue > 0 ? issue - frame.get(FrameInfo.INTENDED_VSYNC) : FrameMetric.total(frame);
            slice.append(span, interval);
            frames++;
            // 2.0 reports when the summed cost reaches its time slice, however few frames that took.
            if (slicing == Slicing.MATRIX && slice.costMillis() >= MATRIX20_COST_MILLIS) {
                reports.add(slice.report(device, block.name(), process, timeMillis, (int) firstRefresh));
                slice = new Matrix20Slice(levels);
            }
        }
        int unreported = slice.count();
        if (slicing == Slicing.WINDOW && slice.count() > Matrix21Slice.MIN_FRAMES_EXCLUSIVE) {
            reports.add(slice.report(device, block.name(), process, timeMillis, (int) firstRefresh));
            unreported = 0;
        }
        return new BlockResult(block, reports, frames, refused, unreported);
    }

    private long interval(FrameInfo frame) {
        long interval = frame.get(FrameInfo.FRAME_INTERVAL);
        return interval > 0 ? interval : fallbackIntervalNanos;
    }
}
