package io.gfxstats.timeline.perfetto;

import static io.gfxstats.timeline.perfetto.PerfettoGoldenTest.DROPPED;
import static io.gfxstats.timeline.perfetto.PerfettoGoldenTest.JANK_APP;
import static io.gfxstats.timeline.perfetto.PerfettoGoldenTest.JANK_DROPPED;
import static io.gfxstats.timeline.perfetto.PerfettoGoldenTest.JANK_NONE;
import static io.gfxstats.timeline.perfetto.PerfettoGoldenTest.JANK_SF_CPU;
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
 * Perfetto's newer per-process fields {@code weighted_missed_frames}, {@code weighted_missed_app_frames}
 * and {@code weighted_missed_sf_frames}: per distinct token, the frame's largest |jank severity score|
 * when any of its slices is missed (of that kind), summed.
 */
class WeightedMissedFramesTest {
    private static final int SF = 666;
    private static final int APP = 1001;

    private static PerfettoReport report(TraceBuilder t) throws Exception {
        PerfettoReport report = new PerfettoReport();
        FrameTimelineReader.Result result = FrameTimelineReader.read(new ByteArrayInputStream(t.bytes()), report,
                64 << 20, 1 << 16, -1);
        report.finish(result);
        return report;
    }

    private static void surface(TraceBuilder t, long cookie, long token, String layer, int present, int jank,
            float score) {
        t.score(score).actualSurfaceStart(cookie * 100, cookie, token, 50, APP, layer, present, jank != JANK_APP,
                false, jank, VALID, NO_SEVERITY).frameEnd(cookie * 100 + 10, cookie);
    }

    /**
     * Tokens out of order, and token 10's two layers apart, so the grouping by token is tested too:
     * 10 is an app jank weighted by its larger |score| 1.5 (the other layer's -1.5); 11 SurfaceFlinger
     * CPU 0.25; 12 on time (its 3 does not count); 13 dropped 2 (missed, neither app nor SF); 14 an app
     * jank without a score (0). SurfaceFlinger's display frame 20 is SF CPU with 0.75.
     */
    private static TraceBuilder trace() {
        TraceBuilder t = new TraceBuilder().process(APP, 1, "com.example.app").process(SF, 1, "/system/bin/surfaceflinger");
        surface(t, 1, 12, "a", ON_TIME, JANK_NONE, 3f);
        surface(t, 2, 10, "a", LATE, JANK_APP, 0.5f);
        surface(t, 3, 11, "a", LATE, JANK_SF_CPU, 0.25f);
        surface(t, 4, 10, "b", ON_TIME, JANK_NONE, -1.5f);
        surface(t, 5, 13, "a", DROPPED, JANK_DROPPED, 2f);
        surface(t, 6, 14, "a", LATE, JANK_APP, Float.NaN);
        t.score(0.75f).actualDisplayStart(700, 7, 20, SF, LATE, false, false, JANK_SF_CPU, VALID, NO_SEVERITY)
                .frameEnd(730, 7);
        return t;
    }

    @Test
    void shouldWeighEachMissedFrameByItsLargestJankSeverityScore() throws Exception {
        PerfettoReport report = report(trace());
        ProcessMetric app = report.processes().get(APP);
        assertEquals(3.75, app.weightedMissedFrames());
        assertEquals(1.5, app.weightedMissedAppFrames());
        assertEquals(0.25, app.weightedMissedSfFrames());
        ProcessMetric sf = report.processes().get(SF);
        assertEquals(0.75, sf.weightedMissedFrames());
        assertEquals(0.0, sf.weightedMissedAppFrames());
        assertEquals(0.75, sf.weightedMissedSfFrames());
        String text = report.text();
        assertTrue(text.contains("  dropped_frames = 1\n  weighted_missed_frames = 3.75, weighted_missed_app_frames = 1.5,"
                + " weighted_missed_sf_frames = 0.25\n"), text);
        assertTrue(text.contains("weighted_missed_frames = 0.75, weighted_missed_app_frames = 0,"
                + " weighted_missed_sf_frames = 0.75\n"), text);
    }

    @Test
    void shouldWriteTheWeightedCountsInJson() throws Exception {
        JsonObject root = JsonParser.parseString(PerfettoJson.write(report(trace()))).getAsJsonObject();
        JsonObject app = null;
        for (var p : root.getAsJsonArray("processes")) {
            if (p.getAsJsonObject().get("pid").getAsInt() == APP) {
                app = p.getAsJsonObject();
            }
        }
        assertEquals(3.75, app.get("weightedMissedFrames").getAsDouble());
        assertEquals(1.5, app.get("weightedMissedAppFrames").getAsDouble());
        assertEquals(0.25, app.get("weightedMissedSfFrames").getAsDouble());
    }
}
