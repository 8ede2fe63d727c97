package io.gfxstats.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gfxstats.dayfile.StatsProtos;
import io.gfxstats.dump.FrameTimelineDumpWriter;
import io.gfxstats.proto.GraphicsStatsProto;
import io.gfxstats.stats.Counters;
import io.gfxstats.stats.ProfileData;
import io.gfxstats.store.Days;
import io.gfxstats.timeline.FinishMetadata;
import io.gfxstats.timeline.JankType;
import io.gfxstats.timeline.Prediction;
import io.gfxstats.timeline.PresentMetadata;
import io.gfxstats.timeline.PresentState;
import io.gfxstats.timeline.Severity;
import io.gfxstats.timeline.TimelineCounters;
import io.gfxstats.timeline.TimelineProtos;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The report's FrameTimeline part: read back from {@code dump --frametimeline} text, summed, shown. */
class FrameTimelineReportTest {
    private static final long DAY = Days.dayStart(1_700_000_000_000L);

    private static TimelineCounters counters(int onTime, int late) {
        TimelineCounters c = new TimelineCounters();
        for (int i = 0; i < onTime; i++) {
            c.add(Prediction.VALID, PresentState.PRESENTED, JankType.NONE, PresentMetadata.ON_TIME, FinishMetadata.ON_TIME,
                    Severity.NONE, 0, true, false);
        }
        for (int i = 0; i < late; i++) {
            c.add(Prediction.VALID, PresentState.PRESENTED, JankType.APP_DEADLINE_MISSED | JankType.BUFFER_STUFFING,
                    PresentMetadata.LATE, FinishMetadata.LATE, Severity.FULL, 17_000_000, true, false);
        }
        return c;
    }

    private static GraphicsStatsProto entry(String pkg, long day, TimelineCounters timeline) {
        ProfileData p = new ProfileData();
        p.add(Counters.TOTAL_FRAMES, 5);
        p.add(Counters.cpuBucket(3), 5);
        return StatsProtos.toProto(p, new StatsProtos.Source(pkg, 2, 1000, day + 1000, day + 2000)).toBuilder()
                .setGfxstatsFrameTimeline(TimelineProtos.toProto(timeline)).build();
    }

    private static String dump(GraphicsStatsProto... entries) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new FrameTimelineDumpWriter().write(List.of(entries), out);
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    void shouldReadBackEveryCounterTheDumpPrints() throws Exception {
        List<FrameTimelineText.Block> blocks = FrameTimelineText.parse(dump(entry("com.a", DAY, counters(10, 3)),
                entry("com.b", DAY, counters(4, 0))));
        assertEquals(2, blocks.size());
        FrameTimelineText.Block a = blocks.get(0);
        assertEquals("com.a", a.packageName());
        assertEquals(2, a.versionCode());
        assertEquals(DAY + 1000, a.statsStart());
        assertEquals(13, a.get("totalTimelineFrames"));
        assertEquals(3, a.get("jankyFrames"));
        assertEquals(3, a.get("jankType AppDeadlineMissed"));
        assertEquals(3, a.get("appBufferStuffingJankyFrames"));
        assertEquals(10, a.get("presentOnTimeFrames"));
        assertEquals(3, a.get("presentLateFrames"));
        assertEquals(4, blocks.get(1).get("totalTimelineFrames"));
    }

    @Test
    void shouldReadNoBlockFromADumpWithoutCountersAndRejectAForeignLine() throws Exception {
        assertEquals(List.of(), FrameTimelineText.parse(dump()));
        assertThrows(IllegalArgumentException.class,
                () -> FrameTimelineText.parse("FrameTimeline (gfxstats):\n\nPackage: x\nTotal frames rendered: 5\n"));
    }

    @Test
    void shouldSumTheKeptDaysPerPackageAndShowOnlyTheJankTypesThatOccurred() throws Exception {
        List<FrameTimelineText.Block> blocks = FrameTimelineText.parse(dump(
                entry("com.a", DAY - 2 * Days.MILLIS_PER_DAY, counters(100, 100)),
                entry("com.a", DAY - Days.MILLIS_PER_DAY, counters(10, 3)), entry("com.a", DAY, counters(7, 1))));
        ReportData data = ReportData.of(List.of(), 0, "t", "s", 0)
                .withFrameTimeline(blocks, DAY - Days.MILLIS_PER_DAY);
        assertEquals(1, data.frameTimelines().size());
        ReportData.FrameTimeline f = data.frameTimelines().get(0);
        assertEquals(21, f.get("totalTimelineFrames"));
        assertEquals(4, f.get("jankyFrames"));
        assertEquals("19.05%", FrameTimelineSection.jankPercent(f));

        List<String> labels = FrameTimelineSection.columns(data.frameTimelines()).stream()
                .map(FrameTimelineSection.Column::label).toList();
        assertEquals(List.of("App Deadline Missed", "Buffer Stuffing", "present on time", "present late",
                "present early"), labels);
        assertEquals("SurfaceFlinger CPU Deadline Missed", FrameTimelineSection.label("SurfaceFlingerCpuDeadlineMissed"));
        assertEquals("Display HAL", FrameTimelineSection.label("DisplayHAL"));

        String html = HtmlReport.html(data);
        assertTrue(html.contains("<td id=\"ft0-frames\">21</td>"), html);
        assertTrue(html.contains("<td id=\"ft0-jank-appdeadlinemissed\">4</td>"));
        assertTrue(html.contains("id=\"chart-frametimeline\""));
        assertTrue(HtmlReport.json(data).contains("\"frameTimeline\":{\"labels\":[\"App Deadline Missed\","));
    }

    @Test
    void shouldLeaveTheSectionOutWithoutCounters() throws Exception {
        String html = HtmlReport.html(ReportData.of(List.of(entry("com.a", DAY, counters(1, 0))), 0, "t", "s", 0));
        assertFalse(html.contains("chart-frametimeline\""));
        assertFalse(html.contains("id=\"frametimeline\""));
    }
}
