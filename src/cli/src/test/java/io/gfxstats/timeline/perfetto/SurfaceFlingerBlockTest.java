package io.gfxstats.timeline.perfetto;

import static io.gfxstats.timeline.perfetto.TraceBuilder.NO_SEVERITY;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gfxstats.timeline.TimelineCounter;
import io.gfxstats.timeline.TimelineCounters;
import java.io.ByteArrayInputStream;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Perfetto's frame-timeline metric reads every actual timeline slice, SurfaceFlinger's display
 * frames included, so SurfaceFlinger's process has a block of its own; and it counts a frame's
 * jank whatever its prediction type.
 */
class SurfaceFlingerBlockTest {
    private static final int SF = 666;
    private static final int APP = 1001;

    private static PerfettoReport report(TraceBuilder t) throws Exception {
        PerfettoReport report = new PerfettoReport();
        FrameTimelineReader.Result result = FrameTimelineReader.read(new ByteArrayInputStream(t.bytes()), report,
                64 << 20, 1 << 16, -1);
        report.finish(result);
        return report;
    }

    /** Five display frames: on time, CPU and GPU deadline missed, SurfaceFlinger stuffing, dropped. */
    private static TraceBuilder displayFrames() {
        TraceBuilder t = new TraceBuilder().process(SF, 1, "/system/bin/surfaceflinger");
        t.actualDisplayStart(100, 1, 10, SF, PerfettoGoldenTest.ON_TIME, true, false, PerfettoGoldenTest.JANK_NONE,
                PerfettoGoldenTest.VALID, NO_SEVERITY).frameEnd(110, 1);
        t.actualDisplayStart(200, 2, 11, SF, PerfettoGoldenTest.LATE, false, false, PerfettoGoldenTest.JANK_SF_CPU,
                PerfettoGoldenTest.VALID, NO_SEVERITY).frameEnd(230, 2);
        t.actualDisplayStart(300, 3, 12, SF, PerfettoGoldenTest.LATE, false, true, PerfettoGoldenTest.JANK_SF_GPU,
                PerfettoGoldenTest.VALID, NO_SEVERITY).frameEnd(340, 3);
        t.actualDisplayStart(400, 4, 13, SF, PerfettoGoldenTest.LATE, true, false, PerfettoGoldenTest.JANK_SF_STUFFING,
                PerfettoGoldenTest.VALID, NO_SEVERITY).frameEnd(420, 4);
        t.actualDisplayStart(500, 5, 14, SF, PerfettoGoldenTest.DROPPED, false, false, PerfettoGoldenTest.JANK_DROPPED,
                PerfettoGoldenTest.VALID, NO_SEVERITY).frameEnd(550, 5);
        return t;
    }

    @Test
    void shouldReportSurfaceFlingersDisplayFramesAsItsOwnProcessBlock() throws Exception {
        PerfettoReport report = report(displayFrames());
        ProcessMetric sf = report.processes().get(SF);
        assertEquals(5, sf.totalFrames());
        assertEquals(3, sf.missedFrames(), "CPU, GPU and dropped; SurfaceFlinger Stuffing is not a missed frame");
        assertEquals(2, sf.missedSfFrames());
        assertEquals(0, sf.missedAppFrames());
        assertEquals(1, sf.droppedFrames());
        assertEquals(List.of("Dropped Frame", "None", "SurfaceFlinger CPU Deadline Missed",
                "SurfaceFlinger GPU Deadline Missed", "SurfaceFlinger Stuffing"), new ArrayList<>(sf.jankTypeNames()));
        assertEquals(1, sf.jankTypeCount("SurfaceFlinger CPU Deadline Missed", PerfettoGoldenTest.LATE));
        assertEquals(1, sf.jankTypeCount("SurfaceFlinger GPU Deadline Missed", PerfettoGoldenTest.LATE));
        assertEquals(1, sf.jankTypeCount("SurfaceFlinger Stuffing", PerfettoGoldenTest.LATE));
        assertEquals(1, sf.jankTypeCount("Dropped Frame", PerfettoGoldenTest.DROPPED));
        // Durations of the four frames not dropped: 10, 30, 40, 20.
        assertEquals(40, sf.durMax());
        assertEquals(25, sf.durAvg());
        assertEquals(5, report.sumOver(ProcessMetric::totalFrames));
        assertEquals(1, report.sumOver(ProcessMetric::droppedFrames));

        String text = report.text();
        assertTrue(text.contains("All processes: total_frames = 5, missed_app_frames = 0, dropped_frames = 1\n"),
                text);
        assertTrue(text.contains("Process /system/bin/surfaceflinger (pid 666)\n  total_frames = 5\n"
                + "  missed_frames = 3\n  missed_app_frames = 0\n  missed_sf_frames = 2\n  dropped_frames = 1\n"), text);
        assertTrue(text.contains("  jank_type \"SurfaceFlinger Stuffing\" = 1 (on_time 0, late 1, early 0,"
                + " dropped 0, unknown 0, unspecified 0)\n"), text);
    }

    @Test
    void shouldCountFramesOfAnUnknownPredictionInTheLayerCountersAsPerfettoDoes() throws Exception {
        int predictionUnknown = 3;
        TraceBuilder t = new TraceBuilder().process(APP, 1, "com.example.app");
        t.expectedDisplayStart(100, 1, 10, SF).frameEnd(116, 1);
        t.actualDisplayStart(100, 2, 10, SF, PerfettoGoldenTest.ON_TIME, true, false, PerfettoGoldenTest.JANK_NONE,
                PerfettoGoldenTest.VALID, NO_SEVERITY).frameEnd(116, 2);
        t.actualSurfaceStart(80, 3, 5, 10, APP, "app", PerfettoGoldenTest.LATE, false, false,
                PerfettoGoldenTest.JANK_APP, predictionUnknown, NO_SEVERITY).frameEnd(95, 3);
        PerfettoReport report = report(t);
        ProcessMetric app = report.processes().get(APP);
        assertEquals(1, app.missedAppFrames(), "the metric counts it whatever the prediction");
        TimelineCounters c = report.layer(APP, "app");
        assertEquals(1, c.get(TimelineCounter.FRAMES));
        assertEquals(1, c.get(TimelineCounter.PREDICTION_NONE));
        assertEquals(1, c.get(TimelineCounter.JANKY_FRAMES));
        assertEquals(1, c.get(TimelineCounter.JANK_APP_DEADLINE_MISSED));
        assertEquals(1, c.get(TimelineCounter.PRESENT_LATE));
        assertEquals(1, c.get(TimelineCounter.TIMELINE_FRAMES), "counted in the total its jank is counted against");
    }
}
