package io.gfxstats.daemon.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gfxstats.buffer.SceneGroup;
import io.gfxstats.scene.SceneCounters;
import io.gfxstats.stats.Counters;
import io.gfxstats.stats.Histograms;
import io.gfxstats.stats.JankType;
import io.gfxstats.timeline.TimelineCounter;
import io.prometheus.metrics.config.EscapingScheme;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The exposition of frame counters, compared as exact text (client_java's own style). */
class FrameMetricsTest {
    private static final SeriesKey APP = new SeriesKey("com.example.app", 7, 10042);

    private static String exposition(Map<SeriesKey, long[]> totals, Map<SeriesKey, Map<String, long[]>> scenes)
            throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrometheusTextFormatWriter.create().write(out, new FrameMetrics(() -> totals, () -> scenes).collect(),
                EscapingScheme.ALLOW_UTF8);
        return out.toString(StandardCharsets.UTF_8);
    }

    /** The lines of one metric family: its samples and its HELP/TYPE lines. */
    private static String family(String text, String name) {
        return text.lines().filter(l -> l.startsWith(name + "{") || l.startsWith(name + " ")
                || l.startsWith("# HELP " + name + " ") || l.startsWith("# TYPE " + name + " "))
                .collect(Collectors.joining("\n", "", "\n"));
    }

    private static long[] vector() {
        long[] c = new long[MetricVector.LENGTH];
        c[Counters.TOTAL_FRAMES] = 10;
        c[Counters.JANKY_FRAMES] = 3;
        c[JankType.MISSED_VSYNC.counter()] = 1;
        c[JankType.HIGH_INPUT_LATENCY.counter()] = 14;
        c[JankType.SLOW_UI_THREAD.counter()] = 2;
        c[JankType.MISSED_DEADLINE.counter()] = 3;
        c[Counters.cpuBucket(0)] = 6;
        c[Counters.cpuBucket(3)] = 4;
        return c;
    }

    @Test
    void shouldExposeFramesJankyFramesAndEveryPersistedCauseExactly() throws IOException {
        String text = exposition(Map.of(APP, vector()), Map.of());
        String labels = "package=\"com.example.app\",uid=\"10042\",version=\"7\"";
        assertEquals("# HELP gfxstats_frames_total Frames rendered (Android's 'Total frames rendered'), live frames "
                + "included\n# TYPE gfxstats_frames_total counter\ngfxstats_frames_total{" + labels + "} 10.0\n",
                family(text, "gfxstats_frames_total"));
        assertEquals("# HELP gfxstats_janky_frames_total Janky frames (Android's 'Janky frames')\n"
                + "# TYPE gfxstats_janky_frames_total counter\ngfxstats_janky_frames_total{" + labels + "} 3.0\n",
                family(text, "gfxstats_janky_frames_total"));
        String causes = family(text, "gfxstats_jank_cause_total");
        assertEquals(String.join("\n",
                "gfxstats_jank_cause_total{cause=\"frame_deadline_missed\"," + labels + "} 3.0",
                "gfxstats_jank_cause_total{cause=\"high_input_latency\"," + labels + "} 14.0",
                "gfxstats_jank_cause_total{cause=\"missed_vsync\"," + labels + "} 1.0",
                "gfxstats_jank_cause_total{cause=\"slow_bitmap_uploads\"," + labels + "} 0.0",
                "gfxstats_jank_cause_total{cause=\"slow_issue_draw_commands\"," + labels + "} 0.0",
                "gfxstats_jank_cause_total{cause=\"slow_ui_thread\"," + labels + "} 2.0") + "\n",
                causes.lines().filter(l -> !l.startsWith("#")).collect(Collectors.joining("\n", "", "\n")),
                "six persisted causes, never the legacy-only counter");
        assertTrue(causes.contains("so it can exceed gfxstats_frames_total"), causes);
    }

    @Test
    void shouldExposeTheCpuHistogramCumulativelyInAndroidsBuckets() throws IOException {
        String text = exposition(Map.of(APP, vector()), Map.of());
        String cpu = family(text, "gfxstats_frame_duration_seconds_bucket");
        assertEquals(Histograms.CPU_BUCKETS, cpu.lines().count(), cpu);
        assertTrue(cpu.startsWith("gfxstats_frame_duration_seconds_bucket{package=\"com.example.app\",uid=\"10042\",version=\"7\",le=\"0.00"), cpu);
        String[] counts = cpu.lines().map(l -> l.substring(l.lastIndexOf(' ') + 1)).toArray(String[]::new);
        assertEquals("6", counts[0]);
        assertEquals("6", counts[2]);
        assertEquals("10", counts[3], "cumulative: bucket 3 adds its 4 frames");
        assertEquals("10", counts[counts.length - 1]);
        assertTrue(cpu.lines().reduce((a, b) -> b).orElseThrow().contains("le=\"+Inf\""), cpu);
        assertTrue(text.contains("gfxstats_frame_duration_seconds_count{package=\"com.example.app\",uid=\"10042\","
                + "version=\"7\"} 10\n"), text);
    }

    @Test
    void shouldLeaveOutGpuTimelineAndSceneSeriesOfProcessesThatRecordNone() throws IOException {
        String text = exposition(Map.of(APP, vector()), Map.of());
        assertEquals("\n", family(text, "gfxstats_gpu_duration_seconds_bucket"));
        assertEquals("\n", family(text, "gfxstats_frametimeline_frames_total").lines()
                .filter(l -> !l.startsWith("#")).collect(Collectors.joining("\n", "", "\n")));
        assertEquals("\n", family(text, "gfxstats_scene_frames_total").lines()
                .filter(l -> !l.startsWith("#")).collect(Collectors.joining("\n", "", "\n")));
    }

    @Test
    void shouldExposeTimelineCountersOnlyForProcessesWithTimelineFrames() throws IOException {
        long[] c = vector();
        c[MetricVector.timeline(TimelineCounter.FRAMES)] = 9;
        c[MetricVector.timeline(TimelineCounter.JANKY_FRAMES)] = 4;
        c[MetricVector.timeline(TimelineCounter.JANK_APP_DEADLINE_MISSED)] = 4;
        SeriesKey quiet = new SeriesKey("com.example.quiet", 1, 10043);
        Map<SeriesKey, long[]> totals = new TreeMap<>(Map.of(APP, c, quiet, vector()));
        String text = exposition(totals, Map.of());
        assertEquals("gfxstats_frametimeline_frames_total{package=\"com.example.app\",uid=\"10042\",version=\"7\"} 9.0\n",
                family(text, "gfxstats_frametimeline_frames_total").lines().filter(l -> !l.startsWith("#"))
                        .collect(Collectors.joining("\n", "", "\n")));
        String jank = family(text, "gfxstats_frametimeline_jank_total");
        long types = java.util.Arrays.stream(TimelineCounter.values()).filter(t -> t.name().startsWith("JANK_")).count();
        assertEquals(types, jank.lines().filter(l -> !l.startsWith("#")).count(), jank);
        assertTrue(jank.contains("gfxstats_frametimeline_jank_total{jank_type=\"app_deadline_missed\",package="
                + "\"com.example.app\",uid=\"10042\",version=\"7\"} 4.0\n"), jank);
        assertTrue(!jank.contains("com.example.quiet"), jank);
    }

    @Test
    void shouldExposeRingDroppedFramesExactlyAndOnlyForSeriesThatLostFrames() throws IOException {
        long[] c = vector();
        c[MetricVector.RING_DROPPED] = 37;
        SeriesKey healthy = new SeriesKey("com.example.healthy", 1, 10043);
        String text = exposition(new TreeMap<>(Map.of(APP, c, healthy, vector())), Map.of());
        assertEquals("# HELP gfxstats_ring_dropped_frames_total Frames a client did not count because its recording "
                + "ring was full (its drain lagged a whole ring); not in gfxstats_frames_total\n"
                + "# TYPE gfxstats_ring_dropped_frames_total counter\n"
                + "gfxstats_ring_dropped_frames_total{package=\"com.example.app\",uid=\"10042\",version=\"7\"} 37.0\n",
                family(text, "gfxstats_ring_dropped_frames_total"));
    }

    @Test
    void shouldExposeScenesWithTheirFiveMatrixLevels() throws IOException {
        long[] scene = new long[SceneCounters.LENGTH];
        scene[Counters.TOTAL_FRAMES] = 5;
        scene[Counters.JANKY_FRAMES] = 1;
        scene[SceneGroup.LEVEL_COUNT_BASE] = 3;
        scene[SceneGroup.LEVEL_COUNT_BASE + 4] = 2;
        String text = exposition(Map.of(APP, vector()), Map.of(APP, Map.of("checkout", scene)));
        String s = "package=\"com.example.app\",scene=\"checkout\",uid=\"10042\",version=\"7\"";
        assertEquals("gfxstats_scene_frames_total{" + s + "} 5.0\n", family(text, "gfxstats_scene_frames_total")
                .lines().filter(l -> !l.startsWith("#")).collect(Collectors.joining("\n", "", "\n")));
        assertEquals(String.join("\n",
                "gfxstats_scene_matrix_frames_total{level=\"best\"," + s + "} 3.0",
                "gfxstats_scene_matrix_frames_total{level=\"frozen\"," + s + "} 2.0",
                "gfxstats_scene_matrix_frames_total{level=\"high\"," + s + "} 0.0",
                "gfxstats_scene_matrix_frames_total{level=\"middle\"," + s + "} 0.0",
                "gfxstats_scene_matrix_frames_total{level=\"normal\"," + s + "} 0.0") + "\n",
                family(text, "gfxstats_scene_matrix_frames_total").lines().filter(l -> !l.startsWith("#"))
                        .collect(Collectors.joining("\n", "", "\n")));
    }

    @Test
    void shouldNameEveryExposedCauseAndRefuseTheLegacyOne() {
        assertEquals("slow_issue_draw_commands", FrameMetrics.causeName(JankType.SLOW_DRAW));
        assertThrows(IllegalArgumentException.class, () -> FrameMetrics.causeName(JankType.MISSED_DEADLINE_LEGACY));
        assertEquals("prediction_error", FrameMetrics.jankTypeName(TimelineCounter.JANK_PREDICTION_ERROR));
        assertThrows(IllegalArgumentException.class, () -> FrameMetrics.jankTypeName(TimelineCounter.FRAMES));
    }
}
