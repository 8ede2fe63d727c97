package io.gfxstats.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gfxstats.dayfile.StatsProtos;
import io.gfxstats.dump.FrameTimelineDumpWriter;
import io.gfxstats.dump.ProtoDumpWriter;
import io.gfxstats.proto.GraphicsStatsProto;
import io.gfxstats.proto.GraphicsStatsServiceDumpProto;
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

/**
 * The report's FrameTimeline part: the counters of the daemon's structured entries (a proto dump
 * with {@code keep_frame_timeline}), named and valued as {@code dump --frametimeline} prints them,
 * summed, shown.
 */
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

    private static String text(GraphicsStatsProto... entries) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new FrameTimelineDumpWriter().write(List.of(entries), out);
        return out.toString(StandardCharsets.UTF_8);
    }

    /** The entries as the report receives them: the daemon's proto dump with the counters kept. */
    private static List<FrameTimelineBlocks.Block> blocks(GraphicsStatsProto... entries) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ProtoDumpWriter.keepingFrameTimeline().write(List.of(entries), out);
        return FrameTimelineBlocks.of(GraphicsStatsServiceDumpProto.parseFrom(out.toByteArray()).getStatsList());
    }

    private static List<FrameTimelineBlocks.Block> androidBlocks(GraphicsStatsProto... entries) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new ProtoDumpWriter().write(List.of(entries), out);
        return FrameTimelineBlocks.of(GraphicsStatsServiceDumpProto.parseFrom(out.toByteArray()).getStatsList());
    }

    @Test
    void shouldNameAndValueEveryCounterAsTheTextDumpPrintsIt() throws Exception {
        GraphicsStatsProto a = entry("com.a", DAY, counters(10, 3));
        GraphicsStatsProto b = entry("com.b", DAY, counters(4, 0));
        List<FrameTimelineBlocks.Block> blocks = blocks(a, b);
        assertEquals(2, blocks.size());
        FrameTimelineBlocks.Block first = blocks.get(0);
        assertEquals("com.a", first.packageName());
        assertEquals(2, first.versionCode());
        assertEquals(DAY + 1000, first.statsStart());
        assertEquals(13, first.get("totalTimelineFrames"));
        assertEquals(3, first.get("jankyFrames"));
        assertEquals(3, first.get("jankType AppDeadlineMissed"));
        assertEquals(3, first.get("appBufferStuffingJankyFrames"));
        assertEquals(10, first.get("presentOnTimeFrames"));
        assertEquals(3, first.get("presentLateFrames"));
        assertEquals(4, blocks.get(1).get("totalTimelineFrames"));

        // Every line of the text dump, and nothing else, in its order.
        StringBuilder lines = new StringBuilder();
        for (FrameTimelineBlocks.Block block : blocks) {
            block.counters().forEach((name, v) -> lines.append(name).append(" = ").append(v).append('\n'));
        }
        String printed = text(a, b).lines().filter(l -> l.contains(" = ")).map(l -> l + "\n")
                .reduce("", String::concat);
        assertEquals(printed, lines.toString());
    }

    @Test
    void shouldFindNoCountersInAndroidsProtoDumpOrInEntriesWithoutThem() throws Exception {
        assertEquals(List.of(), androidBlocks(entry("com.a", DAY, counters(10, 3))),
                "dump --proto stays Android's: the counters are stripped unless asked for");
        ProfileData p = new ProfileData();
        p.add(Counters.TOTAL_FRAMES, 1);
        p.add(Counters.cpuBucket(3), 1);
        assertEquals(List.of(), blocks(StatsProtos.toProto(p, new StatsProtos.Source("com.c", 1, 1000, DAY, DAY + 1))));
    }

    @Test
    void shouldSumTheKeptDaysPerPackageAndShowOnlyTheJankTypesThatOccurred() throws Exception {
        List<FrameTimelineBlocks.Block> blocks = blocks(
                entry("com.a", DAY - 2 * Days.MILLIS_PER_DAY, counters(100, 100)),
                entry("com.a", DAY - Days.MILLIS_PER_DAY, counters(10, 3)), entry("com.a", DAY, counters(7, 1)));
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
