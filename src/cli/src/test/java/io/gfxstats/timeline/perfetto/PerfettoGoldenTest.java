package io.gfxstats.timeline.perfetto;

import static io.gfxstats.timeline.perfetto.TraceBuilder.NO_SEVERITY;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gfxstats.timeline.TimelineCounter;
import io.gfxstats.timeline.TimelineCounters;
import java.io.ByteArrayInputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/**
 * The facts of Perfetto's own diff tests (spec 5.2), rebuilt in code: the synthetic trace of
 * {@code parser/graphics/frame_timeline_events.py} with the rows trace_processor expects in
 * {@code expected_frame_timeline_slice} and {@code actual_frame_timeline_slice}, and the trace of
 * {@code metrics/frame_timeline/frame_timeline_metric.py} with its {@code .out} values.
 */
class PerfettoGoldenTest {
    // Proto enums (FrameTimelineEvent).
    static final int JANK_NONE = 1;
    static final int JANK_SF_SCHEDULING = 2;
    static final int JANK_SF_CPU = 16;
    static final int JANK_SF_GPU = 32;
    static final int JANK_APP = 64;
    static final int JANK_BUFFER_STUFFING = 128;
    static final int JANK_UNKNOWN = 256;
    static final int JANK_SF_STUFFING = 512;
    static final int JANK_DROPPED = 1024;
    static final int ON_TIME = 1;
    static final int LATE = 2;
    static final int EARLY = 3;
    static final int DROPPED = 4;
    static final int UNKNOWN_PRESENT = 5;
    static final int VALID = 1;
    static final int EXPIRED = 2;
    static final int UNSPECIFIED = 0;
    static final int PARTIAL = 2;
    static final int FULL = 3;

    static TraceBuilder frameTimelineEvents() {
        TraceBuilder t = new TraceBuilder();
        // DisplayFrame without a SurfaceFrame
        t.expectedDisplayStart(20, 1, 2, 666).frameEnd(26, 1);
        t.actualDisplayStart(20, 2, 2, 666, ON_TIME, true, false, JANK_NONE, VALID, NO_SEVERITY).frameEnd(26, 2);
        // DisplayFrame with a SurfaceFrame
        t.expectedDisplayStart(40, 3, 4, 666).frameEnd(46, 3);
        t.actualDisplayStart(42, 4, 4, 666, ON_TIME, true, false, JANK_NONE, VALID, NO_SEVERITY).frameEnd(47, 4);
        t.expectedSurfaceStart(21, 5, 1, 4, 1000, "Layer1").frameEnd(36, 5);
        t.actualSurfaceStart(21, 6, 1, 4, 1000, "Layer1", ON_TIME, true, false, JANK_NONE, VALID, NO_SEVERITY)
                .frameEnd(37, 6);
        // DisplayFrame with a janky SurfaceFrame
        t.expectedDisplayStart(80, 7, 6, 666).frameEnd(86, 7);
        t.actualDisplayStart(81, 8, 6, 666, ON_TIME, true, false, JANK_NONE, VALID, NO_SEVERITY).frameEnd(88, 8);
        t.expectedSurfaceStart(41, 9, 5, 6, 1000, "Layer1").frameEnd(56, 9);
        t.actualSurfaceStart(41, 10, 5, 6, 1000, "Layer1", LATE, false, false, JANK_APP, VALID, FULL).frameEnd(74, 10);
        // Janky DisplayFrame with a SurfaceFrame
        t.expectedDisplayStart(120, 11, 8, 666).frameEnd(126, 11);
        t.actualDisplayStart(108, 12, 8, 666, EARLY, true, false, JANK_SF_SCHEDULING, VALID, NO_SEVERITY)
                .frameEnd(112, 12);
        t.expectedSurfaceStart(90, 13, 7, 8, 1000, "Layer1").frameEnd(106, 13);
        t.actualSurfaceStart(90, 14, 7, 8, 1000, "Layer1", EARLY, true, false, JANK_SF_SCHEDULING, VALID, NO_SEVERITY)
                .frameEnd(106, 14);
        // DisplayFrame with multiple jank reasons
        t.expectedDisplayStart(140, 15, 12, 666).frameEnd(146, 15);
        t.actualDisplayStart(148, 16, 12, 666, LATE, false, false, JANK_SF_CPU | JANK_SF_SCHEDULING, VALID, NO_SEVERITY)
                .frameEnd(156, 16);
        // Two SurfaceFrames with the same token
        t.expectedDisplayStart(170, 17, 15, 666).frameEnd(176, 17);
        t.actualDisplayStart(170, 18, 15, 666, ON_TIME, true, false, JANK_NONE, VALID, NO_SEVERITY).frameEnd(176, 18);
        t.expectedSurfaceStart(150, 19, 14, 15, 1000, "Layer1").frameEnd(170, 19);
        t.actualSurfaceStart(150, 20, 14, 15, 1000, "Layer1", ON_TIME, true, false, JANK_NONE, VALID, NO_SEVERITY)
                .frameEnd(167, 20);
        t.expectedSurfaceStart(150, 21, 14, 15, 1000, "Layer2").frameEnd(170, 21);
        t.actualSurfaceStart(150, 22, 14, 15, 1000, "Layer2", ON_TIME, true, false, JANK_NONE, VALID, NO_SEVERITY)
                .frameEnd(167, 22);
        // SurfaceFrame with prediction expired (no expected timeline packet)
        t.expectedDisplayStart(200, 23, 17, 666).frameEnd(206, 23);
        t.actualDisplayStart(200, 24, 17, 666, ON_TIME, true, false, JANK_NONE, VALID, NO_SEVERITY).frameEnd(206, 24);
        t.actualSurfaceStart(80, 25, 16, 17, 1000, "Layer1", UNKNOWN_PRESENT, false, false, JANK_UNKNOWN, EXPIRED, PARTIAL)
                .frameEnd(190, 25);
        // DisplayFrame with SF Stuffing jank
        t.expectedDisplayStart(220, 26, 18, 666).frameEnd(230, 26);
        t.actualDisplayStart(245, 27, 18, 666, LATE, false, false, JANK_SF_STUFFING, VALID, NO_SEVERITY).frameEnd(260, 27);
        // DisplayFrame with dropped frame jank (same cookies: the first slices stay open)
        t.expectedDisplayStart(220, 26, 18, 666).frameEnd(230, 26);
        t.actualDisplayStart(245, 27, 18, 666, DROPPED, false, false, JANK_DROPPED, UNSPECIFIED, NO_SEVERITY)
                .frameEnd(260, 27);
        return t;
    }

    private static FrameTimelineTrace read(byte[] bytes) throws Exception {
        return FrameTimelineTrace.read(new ByteArrayInputStream(bytes));
    }

    private static String nullable(String s) {
        return s == null ? "[NULL]" : "\"" + s + "\"";
    }

    /** Rows as trace_processor prints test_actual_frame_timeline_events. */
    static List<String> actualRows(FrameTimelineTrace trace) {
        List<String> rows = new ArrayList<>();
        for (FrameSlice s : trace.slices()) {
            if (s.kind() != FrameSlice.Kind.ACTUAL_DISPLAY && s.kind() != FrameSlice.Kind.ACTUAL_SURFACE) {
                continue;
            }
            rows.add(String.format(Locale.ROOT, "%d,%d,%d,%d,%s,%s,\"%s\",%d,%d,\"%s\",\"%s\",\"%s\",\"%s\"",
                    s.ts(), s.dur(), s.pid(), s.displayFrameToken(), s.isSurface() ? Long.toString(s.token()) : "\"[NULL]\"",
                    s.isSurface() ? nullable(s.layerName()) : "\"[NULL]\"", PerfettoNames.presentType(s.presentType()),
                    s.onTimeFinish() ? 1 : 0, s.gpuComposition() ? 1 : 0, PerfettoNames.jankType(s.jankType()),
                    PerfettoNames.predictionType(s.predictionType()), PerfettoNames.jankTag(s), PerfettoNames.severity(s)));
        }
        return rows;
    }

    @Test
    void shouldReproduceTraceProcessorsActualFrameTimelineSlices() throws Exception {
        FrameTimelineTrace trace = read(frameTimelineEvents().bytes());
        assertEquals(List.of(
                "20,6,666,2,\"[NULL]\",\"[NULL]\",\"On-time Present\",1,0,\"None\",\"Valid Prediction\",\"No Jank\",\"None\"",
                "21,16,1000,4,1,\"Layer1\",\"On-time Present\",1,0,\"None\",\"Valid Prediction\",\"No Jank\",\"None\"",
                "41,33,1000,6,5,\"Layer1\",\"Late Present\",0,0,\"App Deadline Missed\",\"Valid Prediction\",\"Self Jank\",\"Full\"",
                "42,5,666,4,\"[NULL]\",\"[NULL]\",\"On-time Present\",1,0,\"None\",\"Valid Prediction\",\"No Jank\",\"None\"",
                "80,110,1000,17,16,\"Layer1\",\"Unknown Present\",0,0,\"Unknown Jank\",\"Expired Prediction\",\"Self Jank\",\"Partial\"",
                "81,7,666,6,\"[NULL]\",\"[NULL]\",\"On-time Present\",1,0,\"None\",\"Valid Prediction\",\"No Jank\",\"None\"",
                "90,16,1000,8,7,\"Layer1\",\"Early Present\",1,0,\"SurfaceFlinger Scheduling\",\"Valid Prediction\",\"Other Jank\",\"Unknown\"",
                "108,4,666,8,\"[NULL]\",\"[NULL]\",\"Early Present\",1,0,\"SurfaceFlinger Scheduling\",\"Valid Prediction\",\"Self Jank\",\"Unknown\"",
                "148,8,666,12,\"[NULL]\",\"[NULL]\",\"Late Present\",0,0,\"SurfaceFlinger Scheduling, SurfaceFlinger CPU Deadline Missed\",\"Valid Prediction\",\"Self Jank\",\"Unknown\"",
                "150,17,1000,15,14,\"Layer1\",\"On-time Present\",1,0,\"None\",\"Valid Prediction\",\"No Jank\",\"None\"",
                "150,17,1000,15,14,\"Layer2\",\"On-time Present\",1,0,\"None\",\"Valid Prediction\",\"No Jank\",\"None\"",
                "170,6,666,15,\"[NULL]\",\"[NULL]\",\"On-time Present\",1,0,\"None\",\"Valid Prediction\",\"No Jank\",\"None\"",
                "200,6,666,17,\"[NULL]\",\"[NULL]\",\"On-time Present\",1,0,\"None\",\"Valid Prediction\",\"No Jank\",\"None\"",
                "245,-1,666,18,\"[NULL]\",\"[NULL]\",\"Late Present\",0,0,\"SurfaceFlinger Stuffing\",\"Valid Prediction\",\"SurfaceFlinger Stuffing\",\"Unknown\"",
                "245,15,666,18,\"[NULL]\",\"[NULL]\",\"Dropped Frame\",0,0,\"Dropped Frame\",\"Unspecified Prediction\",\"Dropped Frame\",\"Unknown\""),
                actualRows(trace));
        // The second FrameEnd of each reused cookie finds no open slice.
        assertEquals(2, trace.unpairedEnds());
    }

    @Test
    void shouldReproduceTraceProcessorsExpectedFrameTimelineSlices() throws Exception {
        FrameTimelineTrace trace = read(frameTimelineEvents().bytes());
        List<String> rows = new ArrayList<>();
        for (FrameSlice s : trace.slices()) {
            if (s.kind() == FrameSlice.Kind.EXPECTED_DISPLAY || s.kind() == FrameSlice.Kind.EXPECTED_SURFACE) {
                rows.add(s.ts() + "," + s.dur() + "," + s.pid() + "," + s.displayFrameToken() + ","
                        + (s.isSurface() ? s.token() + "," + nullable(s.layerName()) : "[NULL],[NULL]"));
            }
        }
        // Perfetto de-duplicates expected surface frames per (process, token): Layer2's is not a row.
        rows.remove("150,20,1000,15,14,\"Layer2\"");
        assertEquals(List.of("20,6,666,2,[NULL],[NULL]", "21,15,1000,4,1,\"Layer1\"", "40,6,666,4,[NULL],[NULL]",
                "41,15,1000,6,5,\"Layer1\"", "80,6,666,6,[NULL],[NULL]", "90,16,1000,8,7,\"Layer1\"",
                "120,6,666,8,[NULL],[NULL]", "140,6,666,12,[NULL],[NULL]", "150,20,1000,15,14,\"Layer1\"",
                "170,6,666,15,[NULL],[NULL]", "200,6,666,17,[NULL],[NULL]", "220,-1,666,18,[NULL],[NULL]",
                "220,10,666,18,[NULL],[NULL]"), rows);
    }

    @Test
    void shouldReadDeflateAndZstdCompressedPacketsAlike() throws Exception {
        TraceBuilder t = frameTimelineEvents();
        List<String> plain = actualRows(read(t.bytes()));
        assertEquals(plain, actualRows(read(t.deflated())));
        assertEquals(plain, actualRows(read(t.zstd())));
    }

    @Test
    void shouldRejectGarbageWithAClearError() {
        TraceFormatException e = assertThrows(TraceFormatException.class,
                () -> read(new byte[] {0x0a, 0x03, 1, 2, 3}));
        assertTrue(e.getMessage().startsWith("not a Perfetto trace, or corrupt: packet 1 at byte 0: "), e.getMessage());
        byte[] zstd = frameTimelineEvents().zstd();
        zstd[zstd.length - 3] ^= 0x55;
        zstd[zstd.length / 2] ^= 0x55;
        assertThrows(TraceFormatException.class, () -> read(zstd));
    }

    static TraceBuilder frameTimelineMetric() {
        TraceBuilder t = new TraceBuilder();
        t.emptyPacket(5000000);
        t.process(1001, 1, "process1").process(1002, 1, "process2").process(1003, 1, "process3")
                .process(1004, 1, "process4");
        t.actualSurfaceStart(21000000, 6, 100201, 100211, 1002, "Layer1", ON_TIME, true, false, JANK_NONE, VALID,
                NO_SEVERITY).frameEnd(37000000, 6);
        t.actualSurfaceStart(31000000, 7, 100202, 100212, 1002, "Layer1", ON_TIME, true, false, JANK_APP, VALID,
                NO_SEVERITY).frameEnd(47000000, 7);
        t.actualSurfaceStart(32000000, 8, 100202, 100212, 1002, "Layer1", ON_TIME, true, false, JANK_APP, VALID,
                NO_SEVERITY).frameEnd(40000000, 8);
        t.actualSurfaceStart(41000000, 10, 100101, 100111, 1001, "Layer1", LATE, false, false, JANK_APP, VALID,
                NO_SEVERITY).frameEnd(74000000, 10);
        t.actualSurfaceStart(41000000, 11, 100102, 100112, 1001, "Layer1", LATE, false, false,
                JANK_APP | JANK_BUFFER_STUFFING, VALID, NO_SEVERITY).frameEnd(75000000, 11);
        t.actualSurfaceStart(81000000, 15, 100301, 100311, 1003, "Layer1", LATE, false, false, JANK_SF_CPU, VALID,
                NO_SEVERITY).frameEnd(95000000, 15);
        t.actualSurfaceStart(90000000, 16, 100302, 100312, 1003, "Layer1", DROPPED, false, false, JANK_DROPPED, VALID,
                NO_SEVERITY).frameEnd(96000000, 16);
        t.actualSurfaceStart(10000000, 20, 100402, 100412, 1004, "Layer1", DROPPED, false, false, JANK_SF_STUFFING,
                VALID, NO_SEVERITY).frameEnd(12000000, 20);
        t.actualSurfaceStart(12500000, 25, 100502, 100512, 1004, "Layer1", DROPPED, false, false, JANK_SF_SCHEDULING,
                VALID, NO_SEVERITY).frameEnd(14000000, 25);
        t.actualSurfaceStart(14500000, 30, 100602, 100612, 1004, "Layer1", DROPPED, false, false, JANK_SF_CPU, VALID,
                NO_SEVERITY).frameEnd(15000000, 30);
        t.actualSurfaceStart(15500000, 35, 100702, 100712, 1004, "Layer1", DROPPED, false, false, JANK_SF_GPU, VALID,
                NO_SEVERITY).frameEnd(16000000, 35);
        t.actualSurfaceStart(16500000, 40, 100802, 100812, 1004, "Layer1", DROPPED, false, false,
                JANK_SF_SCHEDULING | JANK_SF_STUFFING, VALID, NO_SEVERITY).frameEnd(17000000, 40);
        return t;
    }

    private static void assertProcess(ProcessMetric m, int total, int missed, int app, int sf,
            int dropped, long max, long avg, double p50, double p90, double p95, double p99) {
        assertEquals(total, m.totalFrames(), "total_frames");
        assertEquals(missed, m.missedFrames(), "missed_frames");
        assertEquals(app, m.missedAppFrames(), "missed_app_frames");
        assertEquals(sf, m.missedSfFrames(), "missed_sf_frames");
        assertEquals(dropped, m.droppedFrames(), "dropped_frames");
        assertEquals(max, m.durMax(), "frame_dur_max");
        assertEquals(avg, m.durAvg(), "frame_dur_avg");
        assertEquals(p50, m.durPercentile(50), 1e-6, "frame_dur_p50");
        assertEquals(p90, m.durPercentile(90), 1e-6, "frame_dur_p90");
        assertEquals(p95, m.durPercentile(95), 1e-6, "frame_dur_p95");
        assertEquals(p99, m.durPercentile(99), 1e-6, "frame_dur_p99");
    }

    @Test
    void shouldReproducePerfettosFrameTimelineMetric() throws Exception {
        PerfettoReport report = new PerfettoReport(read(frameTimelineMetric().bytes()));
        var p = report.processes();
        assertEquals(List.of(1001, 1002, 1003, 1004), new ArrayList<>(p.keySet()));
        assertEquals("process1", report.processName(1001));
        assertProcess(p.get(1001), 2, 2, 2, 0, 0, 34000000, 33500000, 33500000, 33900000, 33950000, 33990000);
        assertProcess(p.get(1002), 2, 1, 1, 0, 0, 16000000, 13333333, 16000000, 16000000, 16000000, 16000000);
        assertProcess(p.get(1003), 2, 2, 0, 1, 1, 14000000, 14000000, 14000000, 14000000, 14000000, 14000000);
        assertProcess(p.get(1004), 5, 4, 0, 4, 0, 2000000, 1000000, 500000, 1800000, 1900000, 1980000);
        assertEquals(11, p.values().stream().mapToInt(ProcessMetric::totalFrames).sum());
        assertEquals(3, p.values().stream().mapToInt(ProcessMetric::missedAppFrames).sum());
        assertEquals(1, p.values().stream().mapToInt(ProcessMetric::droppedFrames).sum());

        // jank_types: distinct tokens per type, and per present type (1 on time, 2 late, 4 dropped).
        assertEquals(List.of("App Deadline Missed", "Buffer Stuffing"), new ArrayList<>(p.get(1001).jankTypeNames()));
        assertEquals(2, p.get(1001).jankTypeCount("App Deadline Missed", 2));
        assertEquals(1, p.get(1001).jankTypeCount("Buffer Stuffing", 2));
        assertEquals(List.of("App Deadline Missed", "None"), new ArrayList<>(p.get(1002).jankTypeNames()));
        assertEquals(1, p.get(1002).jankTypeCount("App Deadline Missed", -1));
        assertEquals(1, p.get(1002).jankTypeCount("App Deadline Missed", 1));
        assertEquals(1, p.get(1003).jankTypeCount("Dropped Frame", 4));
        assertEquals(1, p.get(1003).jankTypeCount("SurfaceFlinger CPU Deadline Missed", 2));
        assertEquals(List.of("SurfaceFlinger CPU Deadline Missed", "SurfaceFlinger GPU Deadline Missed",
                "SurfaceFlinger Scheduling", "SurfaceFlinger Stuffing"), new ArrayList<>(p.get(1004).jankTypeNames()));
        assertEquals(2, p.get(1004).jankTypeCount("SurfaceFlinger Scheduling", 4));
        assertEquals(2, p.get(1004).jankTypeCount("SurfaceFlinger Stuffing", 4));
        assertEquals(1, p.get(1004).jankTypeCount("SurfaceFlinger GPU Deadline Missed", -1));
    }

    @Test
    void shouldCountTheSameTraceWithTimeStatsRules() throws Exception {
        PerfettoReport report = new PerfettoReport(read(frameTimelineMetric().bytes()));
        TimelineCounters p4 = report.layer(1004, "Layer1");
        assertEquals(5, p4.get(TimelineCounter.TIMELINE_FRAMES));
        assertEquals(4, p4.get(TimelineCounter.JANKY_FRAMES), "SfScheduling, SfCpu, SfGpu janky; SfStuffing alone not");
        assertEquals(1, p4.get(TimelineCounter.JANK_SF_CPU_DEADLINE_MISSED));
        assertEquals(1, p4.get(TimelineCounter.JANK_SF_GPU_DEADLINE_MISSED));
        assertEquals(2, p4.get(TimelineCounter.JANK_SF_SCHEDULING));
        assertEquals(5, p4.get(TimelineCounter.PRESENT_DROPPED));
        TimelineCounters p1 = report.layer(1001, "Layer1");
        assertEquals(2, p1.get(TimelineCounter.JANKY_FRAMES));
        assertEquals(1, p1.get(TimelineCounter.JANK_BUFFER_STUFFING));
        assertEquals(2, p1.get(TimelineCounter.FINISH_LATE));
        TimelineCounters p2 = report.layer(1002, "Layer1");
        assertEquals(3, p2.get(TimelineCounter.TIMELINE_FRAMES), "TimeStats counts every frame, not tokens");
        assertEquals(2, p2.get(TimelineCounter.JANK_APP_DEADLINE_MISSED));
        String text = report.text();
        assertTrue(text.contains("Process process4 (pid 1004)\n  total_frames = 5\n  missed_frames = 4\n"), text);
        assertTrue(text.contains("    totalTimelineFrames = 5\n    jankyFrames = 4\n    sfLongCpuJankyFrames = 1\n"
                + "    sfLongGpuJankyFrames = 1\n    sfUnattributedJankyFrames = 0\n    appUnattributedJankyFrames = 0\n"
                + "    sfSchedulingJankyFrames = 2\n    sfPredictionErrorJankyFrames = 0\n"
                + "    appBufferStuffingJankyFrames = 0\n"), text);
    }

    @Test
    void shouldTakeThePresentDelayFromTheDisplayFrames() throws Exception {
        FrameTimelineTrace trace = read(frameTimelineEvents().bytes());
        PerfettoReport report = new PerfettoReport(trace);
        TimelineCounters layer1 = report.layer(1000, "Layer1");
        // Token 5 (display 6): actual display ends at 88, expected at 86: 2 ns late, bucket <=2 ms... all
        // delays here are a few ns, so every valid frame with a display frame lands in the <=0 or <=2 ms bucket.
        long histogram = 0;
        for (int i = 0; i < TimelineCounter.presentDelayBuckets(); i++) {
            histogram += layer1.presentDelay(i);
        }
        assertEquals(4, histogram, "valid presented frames of Layer1 with both display slices");
        assertEquals(1, layer1.get(TimelineCounter.PREDICTION_EXPIRED));
    }
}
