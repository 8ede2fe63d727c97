package io.gfxstats.timeline.perfetto;

import static io.gfxstats.timeline.perfetto.PerfettoGoldenTest.JANK_APP;
import static io.gfxstats.timeline.perfetto.PerfettoGoldenTest.JANK_NONE;
import static io.gfxstats.timeline.perfetto.PerfettoGoldenTest.LATE;
import static io.gfxstats.timeline.perfetto.PerfettoGoldenTest.ON_TIME;
import static io.gfxstats.timeline.perfetto.PerfettoGoldenTest.VALID;
import static io.gfxstats.timeline.perfetto.TraceBuilder.NO_SEVERITY;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.ByteArrayInputStream;
import org.junit.jupiter.api.Test;

/**
 * The metric's top-level {@code jank_types}: per jank type, distinct tokens over all processes.
 * Two apps drawing for the same vsync share its token, so the top level is not the processes' sum.
 */
class JankTypesAcrossProcessesTest {
    private static final int APP_A = 1001;
    private static final int APP_B = 1002;

    private static PerfettoReport report() throws Exception {
        TraceBuilder t = new TraceBuilder().process(APP_A, 1, "com.example.a").process(APP_B, 1, "com.example.b");
        long cookie = 1;
        // A: tokens 12, 10, 11 (out of order); B: 10 and 13. Both miss token 10; A misses 12 too.
        Object[][] frames = {{APP_A, 12L, JANK_APP, LATE}, {APP_A, 10L, JANK_APP, LATE}, {APP_A, 11L, JANK_NONE, ON_TIME},
            {APP_B, 10L, JANK_APP, LATE}, {APP_B, 13L, JANK_NONE, ON_TIME}};
        for (Object[] f : frames) {
            long c = cookie++;
            t.actualSurfaceStart(c * 100, c, (Long) f[1], 50, (Integer) f[0], "layer", (Integer) f[3],
                    (Integer) f[2] == JANK_NONE, false, (Integer) f[2], VALID, NO_SEVERITY).frameEnd(c * 100 + 10, c);
        }
        PerfettoReport report = new PerfettoReport();
        FrameTimelineReader.Result result = FrameTimelineReader.read(new ByteArrayInputStream(t.bytes()), report,
                64 << 20, 1 << 16, -1);
        report.finish(result);
        return report;
    }

    @Test
    void shouldCountEachTokenOnceAcrossProcesses() throws Exception {
        PerfettoReport report = report();
        assertEquals(2, report.processes().get(APP_A).jankTypeCount("App Deadline Missed", -1));
        assertEquals(1, report.processes().get(APP_B).jankTypeCount("App Deadline Missed", -1));
        int[] app = report.jankTypesAcrossProcesses().get("App Deadline Missed");
        assertEquals(2, app[0], "tokens 10 and 12: 10 once although both apps missed it");
        assertEquals(2, app[LATE + 1]);
        assertEquals(2, report.jankTypesAcrossProcesses().get("None")[0], "tokens 11 and 13");
        String text = report.text();
        assertTrue(text.contains("All processes: total_frames = 5, missed_app_frames = 3, dropped_frames = 0\n"
                + "  jank_type \"App Deadline Missed\" = 2 (on_time 0, late 2, early 0, dropped 0, unknown 0,"
                + " unspecified 0)\n  jank_type \"None\" = 2 (on_time 2,"), text);
        JsonObject root = JsonParser.parseString(PerfettoJson.write(report)).getAsJsonObject();
        JsonObject first = root.getAsJsonArray("jankTypes").get(0).getAsJsonObject();
        assertEquals("App Deadline Missed", first.get("jankType").getAsString());
        assertEquals(2, first.get("frames").getAsInt());
        assertEquals(2, first.get("late").getAsInt());
    }
}
