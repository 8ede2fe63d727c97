package io.gfxstats.framestats;

import io.gfxstats.frame.FrameInfo;
import io.gfxstats.matrix.FrameMetric;
import io.gfxstats.matrix.MatrixDevice;
import io.gfxstats.matrix.MatrixFormat;
import io.gfxstats.matrix.MatrixLevels;
import io.gfxstats.matrix.MatrixReport;
import io.gfxstats.matrix.MatrixRule;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gfxstats.framestats.FramestatsBlock;
import io.gfxstats.framestats.FramestatsReader;
import java.io.StringReader;
import java.util.List;
import java.util.function.IntToLongFunction;
import org.junit.jupiter.api.Test;

/** Matrix reports of 16-column (Android 8/9) framestats: the pre-Android 12 durations, no GPU key. */
class FramestatsMatrixTest {
    private static final String ANDROID9_HEADER = "Flags,IntendedVsync,Vsync,OldestInputEvent,NewestInputEvent,"
            + "HandleInputStart,AnimationStart,PerformTraversalsStart,DrawStart,SyncQueued,SyncStart,"
            + "IssueDrawCommandsStart,SwapBuffers,FrameCompleted,DequeueBufferDuration,QueueBufferDuration,";
    private static final long MS = 1_000_000L;

    private static FramestatsBlock block(int frames) throws Exception {
        // One NORMAL frame first: round((80 - 16.67) / 16.67) = 4.
        return block(frames, 16_666_667L, i -> i == 0 ? 80 * MS : 10 * MS);
    }

    /** Frames {@code spacing} apart, frame i taking {@code total(i)} from IntendedVsync to FrameCompleted. */
    private static FramestatsBlock block(int frames, long spacing, IntToLongFunction totals) throws Exception {
        StringBuilder sb = new StringBuilder("---PROFILEDATA---\n").append(ANDROID9_HEADER).append('\n');
        long t = 1_000 * MS;
        for (int i = 0; i < frames; i++, t += spacing) {
            long total = totals.applyAsLong(i);
            // Issue and swap late in long frames, so that Matrix 2.0's span (to IssueDrawCommandsStart) is long too.
            long issue = total > 1_000 * MS ? total - 2 * MS : 7 * MS;
            sb.append(0).append(',').append(t).append(',').append(t).append(",0,0,")
                    .append(t + MS).append(',').append(t + 2 * MS).append(',').append(t + 3 * MS).append(',')
                    .append(t + 4 * MS).append(',').append(t + 5 * MS).append(',').append(t + 6 * MS).append(',')
                    .append(t + issue).append(',').append(t + issue + MS).append(',').append(t + total).append(",0,0,\n");
        }
        sb.append("---PROFILEDATA---\n");
        List<FramestatsBlock> blocks = FramestatsReader.read(new StringReader(sb.toString()), "nine.txt");
        return blocks.get(0);
    }

    @Test
    void shouldReportAndroid9FramesWithThePreAndroid12SwapDurationAndNoGpu() throws Exception {
        FramestatsMatrix matrix = new FramestatsMatrix(MatrixFormat.V2_1, MatrixLevels.DEFAULT, MatrixDevice.UNKNOWN,
                16_666_667L);
        MatrixReport r = matrix.report(block(30), 7).report().orElseThrow();
        assertEquals(30, r.frames());
        assertEquals(1, r.dropLevel(MatrixRule.NORMAL));
        assertEquals(4, r.dropSum(MatrixRule.NORMAL));
        // SWAP_BUFFERS = FrameCompleted - SwapBuffers: (80 - 8) ms once, (10 - 8) ms 29 times.
        assertEquals((72 * MS + 29 * 2 * MS) / 30, r.avgDurations()[FrameMetric.SWAP_BUFFERS]);
        assertEquals(60, r.refreshRate());
        String json = MatrixFormat.V2_1.json(r);
        assertFalse(json.contains("GPU_DURATION"), json);
        assertTrue(json.contains("\"SWAP_BUFFERS_DURATION\":"), json);
        assertTrue(json.contains("\"scene\":\"nine.txt\""), json);
    }

    @Test
    void shouldNotReportABlockOfTwentyFrames() throws Exception {
        FramestatsMatrix matrix = new FramestatsMatrix(MatrixFormat.V2_1, MatrixLevels.DEFAULT, MatrixDevice.UNKNOWN,
                16_666_667L);
        FramestatsMatrix.BlockResult result = matrix.report(block(20), 7);
        assertTrue(result.report().isEmpty());
        assertEquals(20, result.frames());
        assertTrue(matrix.report(block(21), 7).report().isPresent());
    }

    /**
     * Matrix 2.1 counts a total of 0 ns and one of two hours (it keeps {@code 0 <= T < 2^62 - 1})
     * and adds GPU durations of 0 and below unchecked, printing GPU_DURATION on Android 12+: the
     * replay does the same, although Android's own replay leaves those two rows out.
     */
    @Test
    void shouldCountFramesOfZeroNanosecondsAndOfHoursAndEveryGpuDurationAsMatrix21Does() throws Exception {
        ModernCapture capture = new ModernCapture().window(42, "app", "app/.Main");
        long t = 1_000 * MS;
        long totalSum = 0;
        long gpuSum = 0;
        int frames = 25;
        for (int i = 0; i < frames; i++, t += 16_666_667L) {
            long total = i == 3 ? 0 : i == 5 ? 7_200_000 * MS : 10 * MS;
            long gpu = i % 3 == 0 ? -5 * MS : i % 3 == 1 ? 0 : 3 * MS;
            FrameInfo f = new FrameInfo();
            for (int field = FrameInfo.INTENDED_VSYNC; field < FrameInfo.FIELD_COUNT; field++) {
                f.set(field, t);
            }
            f.set(FrameInfo.FRAME_TIMELINE_VSYNC_ID, i + 1);
            f.set(FrameInfo.INPUT_EVENT_ID, 0);
            f.set(FrameInfo.FRAME_INTERVAL, 16_666_667L);
            f.set(FrameInfo.FRAME_DEADLINE, t + 16_666_667L);
            f.set(FrameInfo.DEQUEUE_BUFFER_DURATION, 0);
            f.set(FrameInfo.QUEUE_BUFFER_DURATION, 0);
            f.set(FrameInfo.DISPLAY_PRESENT_TIME, -1);
            for (int field : new int[] {FrameInfo.FRAME_COMPLETED, FrameInfo.SWAP_BUFFERS_COMPLETED,
                    FrameInfo.COMMAND_SUBMISSION_COMPLETED}) {
                f.set(field, t + total);
            }
            f.set(FrameInfo.GPU_COMPLETED, t + total + gpu);
            capture.row(f);
            totalSum += total;
            gpuSum += gpu;
        }
        FramestatsBlock block = FramestatsReader.read(new StringReader(capture.end().toString()), "c.txt").get(0);
        assertEquals(frames - 2, block.frameCount()); // Android's replay: neither 0 ns nor two hours
        assertEquals(frames, block.matrixFrameCount());
        MatrixReport r = matrix(MatrixFormat.V2_1, FramestatsMatrix.Slicing.WINDOW).report(block, 7).report()
                .orElseThrow();
        assertEquals(frames, r.frames());
        assertEquals(totalSum / frames, r.avgDurations()[FrameMetric.TOTAL]);
        assertEquals(gpuSum / frames, r.avgDurations()[FrameMetric.GPU]);
        assertTrue(r.avgDurations()[FrameMetric.GPU] < 0);
        assertEquals(1, r.dropLevel(MatrixRule.FROZEN));
        String json = MatrixFormat.V2_1.json(r);
        assertTrue(json.contains("\"GPU_DURATION\":" + gpuSum / frames), json);
    }

    /** Two windows of one process, frames alternating 200 ms apart over 12 s, 30 each, 10 ms long. */
    private static List<FramestatsBlock> twoWindowsOfOneProcess() throws Exception {
        ModernCapture capture = new ModernCapture();
        for (int w = 0; w < 2; w++) {
            capture.window(42, "app", w == 0 ? "app/.A" : "app/.B");
            for (int i = 0; i < 30; i++) {
                long t = 1_000 * MS + (2 * i + w) * 200 * MS;
                FrameInfo f = new FrameInfo();
                for (int field = FrameInfo.INTENDED_VSYNC; field < FrameInfo.FIELD_COUNT; field++) {
                    f.set(field, t);
                }
                f.set(FrameInfo.INPUT_EVENT_ID, 0);
                f.set(FrameInfo.FRAME_INTERVAL, 16_666_667L);
                f.set(FrameInfo.DEQUEUE_BUFFER_DURATION, 0);
                f.set(FrameInfo.QUEUE_BUFFER_DURATION, 0);
                for (int field : new int[] {FrameInfo.FRAME_COMPLETED, FrameInfo.SWAP_BUFFERS_COMPLETED,
                        FrameInfo.COMMAND_SUBMISSION_COMPLETED, FrameInfo.GPU_COMPLETED}) {
                    f.set(field, t + 10 * MS);
                }
                capture.row(f);
            }
            capture.end();
        }
        return FramestatsReader.read(new StringReader(capture.toString()), "two.txt");
    }

    /**
     * Matrix 2.1 has one slice for all windows of a process: the two windows' 60 frames make one
     * 10 s slice of 51 frames (from 1.0 s to the frame completing at 11.01 s, window A's), named
     * after its last frame's window, and 9 frames left over; per window each has a slice of 26.
     */
    @Test
    void shouldShareOneSliceAmongTheWindowsOfAProcessAsMatrix21sSingleListener() throws Exception {
        List<FramestatsBlock> blocks = twoWindowsOfOneProcess();
        FramestatsMatrix.ProcessResult shared = matrix(MatrixFormat.V2_1, FramestatsMatrix.Slicing.PROCESS)
                .reportProcess("app", blocks, 7);
        assertEquals(1, shared.reports().size());
        MatrixReport r = shared.reports().get(0);
        assertEquals(51, r.frames());
        assertEquals("app/.A", r.scene());
        assertEquals(60, shared.frames());
        assertEquals(9, shared.unreported());
        FramestatsMatrix perWindow = matrix(MatrixFormat.V2_1, FramestatsMatrix.Slicing.MATRIX);
        for (FramestatsBlock block : blocks) {
            FramestatsMatrix.BlockResult own = perWindow.report(block, 7);
            assertEquals(1, own.reports().size());
            assertEquals(26, own.reports().get(0).frames());
        }
    }

    private static FramestatsMatrix matrix(MatrixFormat format, FramestatsMatrix.Slicing slicing) {
        return new FramestatsMatrix(format, MatrixLevels.DEFAULT, MatrixDevice.UNKNOWN, 16_666_667L, slicing);
    }

    @Test
    void shouldCutAMatrix21SliceWithTheFrameThatCompletesTenSecondsAfterItsFirst() throws Exception {
        // Frames 500 ms apart: frame 20 completes exactly 10,000 ms after frame 0 and closes the slice.
        FramestatsMatrix.BlockResult result = matrix(MatrixFormat.V2_1, FramestatsMatrix.Slicing.MATRIX)
                .report(block(42, 500 * MS, i -> 10 * MS), 7);
        assertEquals(List.of(21, 21), result.reports().stream().map(MatrixReport::frames).toList());
        assertEquals(0, result.unreported());
        // One frame fewer leaves a second slice of 20 frames, which Matrix drops.
        FramestatsMatrix.BlockResult short41 = matrix(MatrixFormat.V2_1, FramestatsMatrix.Slicing.MATRIX)
                .report(block(41, 500 * MS, i -> 10 * MS), 7);
        assertEquals(List.of(21), short41.reports().stream().map(MatrixReport::frames).toList());
        assertEquals(20, short41.unreported());
        // A window's frames 1 ns short of 10 s apart stay in one slice.
        FramestatsMatrix.BlockResult whole = matrix(MatrixFormat.V2_1, FramestatsMatrix.Slicing.MATRIX)
                .report(block(21, 500 * MS - 1, i -> 10 * MS), 7);
        assertEquals(List.of(21), whole.reports().stream().map(MatrixReport::frames).toList());
    }

    @Test
    void shouldReportMatrix20WhenTheSummedCostReachesTenSecondsWithoutAFrameGate() throws Exception {
        // IssueDrawCommandsStart 3,018 ms after IntendedVsync at 60 Hz: 181 dropped, 182 x 16.666667 ms = 3033 ms
        // a frame (truncated every frame: 3033, 6066, 9099, 12132), so the fourth frame brings the cost past
        // 10,000 ms and is reported with 4 frames.
        FramestatsMatrix.BlockResult result = matrix(MatrixFormat.V2_0, FramestatsMatrix.Slicing.MATRIX)
                .report(block(6, 4_000 * MS, i -> 3_000 * MS + 20 * MS), 7);
        assertEquals(1, result.reports().size());
        MatrixReport r = result.reports().get(0);
        assertEquals(4, r.frames());
        assertEquals(4, r.dropLevel(MatrixRule.FROZEN));
        assertEquals(4 * 181, r.dropSum(MatrixRule.FROZEN));
        assertEquals(1000f * 4 / 12_132, r.fps());
        // The two frames after it never reach 10,000 ms: never reported.
        assertEquals(2, result.unreported());
        // One report per window instead: all 6 frames, gated at more than 20 like 2.1.
        assertTrue(matrix(MatrixFormat.V2_0, FramestatsMatrix.Slicing.WINDOW)
                .report(block(6, 4_000 * MS, i -> 3_020 * MS), 7).reports().isEmpty());
    }
}
