package io.gfxstats.framestats;

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
import org.junit.jupiter.api.Test;

/** Matrix reports of 16-column (Android 8/9) framestats: the pre-Android 12 durations, no GPU key. */
class FramestatsMatrixTest {
    private static final String ANDROID9_HEADER = "Flags,IntendedVsync,Vsync,OldestInputEvent,NewestInputEvent,"
            + "HandleInputStart,AnimationStart,PerformTraversalsStart,DrawStart,SyncQueued,SyncStart,"
            + "IssueDrawCommandsStart,SwapBuffers,FrameCompleted,DequeueBufferDuration,QueueBufferDuration,";
    private static final long MS = 1_000_000L;

    private static FramestatsBlock block(int frames) throws Exception {
        StringBuilder sb = new StringBuilder("---PROFILEDATA---\n").append(ANDROID9_HEADER).append('\n');
        long t = 1_000 * MS;
        for (int i = 0; i < frames; i++, t += 16_666_667L) {
            long total = i == 0 ? 80 * MS : 10 * MS; // one NORMAL frame: round((80 - 16.67) / 16.67) = 4
            sb.append(0).append(',').append(t).append(',').append(t).append(",0,0,")
                    .append(t + MS).append(',').append(t + 2 * MS).append(',').append(t + 3 * MS).append(',')
                    .append(t + 4 * MS).append(',').append(t + 5 * MS).append(',').append(t + 6 * MS).append(',')
                    .append(t + 7 * MS).append(',').append(t + 8 * MS).append(',').append(t + total).append(",0,0,\n");
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
}
