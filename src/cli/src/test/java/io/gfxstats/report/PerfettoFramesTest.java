package io.gfxstats.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gfxstats.timeline.perfetto.FrameTimelineReader;
import io.gfxstats.timeline.perfetto.GameFrameTimeline;
import io.gfxstats.timeline.perfetto.PerfettoJson;
import io.gfxstats.timeline.perfetto.PerfettoReport;
import java.io.ByteArrayInputStream;
import org.junit.jupiter.api.Test;

class PerfettoFramesTest {
    @Test
    void shouldKeepABoundedEvenSampleOfALongTraceAndSayHowManyItLeftOut() throws Exception {
        byte[] trace = GameFrameTimeline.write().bytes();
        PerfettoReport alone = new PerfettoReport();
        alone.finish(FrameTimelineReader.read(new ByteArrayInputStream(trace), alone));

        PerfettoReport report = new PerfettoReport();
        PerfettoFrames frames = new PerfettoFrames(report, 100);
        report.finish(FrameTimelineReader.read(new ByteArrayInputStream(trace), frames));
        FrameSeries series = frames.series();

        // 600 frames through a 100-point cap: the stride doubles to 8, every 8th frame is kept (75).
        assertEquals(75, series.samples().size());
        assertTrue(series.leftOut().startsWith("525 of the input's 600 closed actual SurfaceFrames (the chart keeps"
                + " at most 100 points: every 8th frame)"), series.leftOut());
        for (int i = 1; i < series.samples().size(); i++) {
            long gap = series.samples().get(i).completedNanos() - series.samples().get(i - 1).completedNanos();
            assertTrue(gap > 0 && gap < 20 * 16_666_667L, "evenly spread over the trace: " + gap);
        }
        // The report read through the chart's sink counts what `timeline perfetto` alone counts.
        assertEquals(PerfettoJson.write(alone), PerfettoJson.write(report));
        assertEquals("600", series.table().rows().get(1).get(2));
    }
}
