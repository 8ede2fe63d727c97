package io.gfxstats.daemon.metrics;

import io.gfxstats.buffer.SceneGroup;
import io.gfxstats.matrix.MatrixRule;
import io.gfxstats.stats.BucketBounds;
import io.gfxstats.stats.Counters;
import io.gfxstats.stats.Histograms;
import io.gfxstats.stats.JankType;
import io.gfxstats.timeline.TimelineCounter;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.ClassicHistogramBuckets;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.prometheus.metrics.model.snapshots.Unit;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The frame counters and histograms, per (package, version, uid), as immutable snapshots of the
 * Prometheus model, built on each scrape from {@code totals} (the daemon's saved ledger plus its
 * live buffers' unsaved frames: memory only, no file is read).
 */
public final class FrameMetrics implements MultiCollector {
    public static final String FRAMES = "gfxstats_frames";
    public static final String JANKY_FRAMES = "gfxstats_janky_frames";
    public static final String JANK_CAUSE = "gfxstats_jank_cause";
    public static final String FRAME_DURATION = "gfxstats_frame_duration_seconds";
    public static final String GPU_DURATION = "gfxstats_gpu_duration_seconds";
    public static final String TIMELINE_FRAMES = "gfxstats_frametimeline_frames";
    public static final String TIMELINE_JANKY = "gfxstats_frametimeline_janky_frames";
    public static final String TIMELINE_JANK = "gfxstats_frametimeline_jank";
    public static final String RING_DROPPED = "gfxstats_ring_dropped_frames";

    private static final double[] CPU_BOUNDS = BucketBounds.cpu();
    private static final double[] GPU_BOUNDS = BucketBounds.gpu();

    public static final String SCENE_FRAMES = "gfxstats_scene_frames";
    public static final String SCENE_JANKY = "gfxstats_scene_janky_frames";
    public static final String SCENE_LEVEL = "gfxstats_scene_matrix_frames";

    private final Supplier<Map<SeriesKey, long[]>> totals;
    private final Supplier<Map<SeriesKey, Map<String, long[]>>> scenes;

    /**
     * @param totals cumulative {@link MetricVector}s per series, monotonic over calls
     * @param scenes cumulative {@code SceneCounters} arrays per series and scene name
     */
    public FrameMetrics(Supplier<Map<SeriesKey, long[]>> totals, Supplier<Map<SeriesKey, Map<String, long[]>>> scenes) {
        this.totals = totals;
        this.scenes = scenes;
    }

    /** The label value of a jank type in {@code gfxstats_jank_cause_total{cause=...}}. */
    public static String causeName(JankType type) {
        return switch (type) {
            case MISSED_VSYNC -> "missed_vsync";
            case HIGH_INPUT_LATENCY -> "high_input_latency";
            case SLOW_UI_THREAD -> "slow_ui_thread";
            case SLOW_BITMAP_UPLOAD -> "slow_bitmap_uploads";
            case SLOW_DRAW -> "slow_issue_draw_commands";
            case MISSED_DEADLINE -> "frame_deadline_missed";
            case MISSED_DEADLINE_LEGACY -> throw new IllegalArgumentException(type + " is never exposed");
        };
    }

    /** The FrameTimeline jank counters (one per SurfaceFlinger jank bit), in their order. */
    private static final List<TimelineCounter> TIMELINE_JANK_TYPES = Arrays.stream(TimelineCounter.values())
            .filter(t -> t.name().startsWith("JANK_")).toList();

    /** The label value of a FrameTimeline jank counter: its name without JANK_, in lower case. */
    public static String jankTypeName(TimelineCounter t) {
        if (!t.name().startsWith("JANK_")) {
            throw new IllegalArgumentException(t + " is not a jank type");
        }
        return t.name().substring("JANK_".length()).toLowerCase(Locale.ROOT);
    }

    @Override
    public MetricSnapshots collect() {
        Map<SeriesKey, long[]> all = totals.get();
        CounterSnapshot.Builder frames = CounterSnapshot.builder().name(FRAMES)
                .help("Frames rendered (Android's 'Total frames rendered'), live frames included");
        CounterSnapshot.Builder janky = CounterSnapshot.builder().name(JANKY_FRAMES)
                .help("Janky frames (Android's 'Janky frames')");
        CounterSnapshot.Builder causes = CounterSnapshot.builder().name(JANK_CAUSE)
                .help("Android's jank counters: missed_vsync, slow_ui_thread, slow_bitmap_uploads, "
                        + "slow_issue_draw_commands and frame_deadline_missed count janky frames (a frame can have "
                        + "several); high_input_latency counts frames that made their deadline only thanks to triple "
                        + "buffering, up to twice a frame by Android's rule, so it can exceed gfxstats_frames_total");
        HistogramSnapshot.Builder cpu = HistogramSnapshot.builder().name(FRAME_DURATION).unit(Unit.SECONDS)
                .help("Frame durations in Android's 154 CPU buckets (le = where the next bucket starts); no _sum");
        HistogramSnapshot.Builder gpu = HistogramSnapshot.builder().name(GPU_DURATION).unit(Unit.SECONDS)
                .help("GPU durations in Android's 26 GPU buckets (le = where the next bucket starts); no _sum");
        CounterSnapshot.Builder timelineFrames = CounterSnapshot.builder().name(TIMELINE_FRAMES)
                .help("FrameTimeline surface frames (processes that record presentation feedback)");
        CounterSnapshot.Builder timelineJanky = CounterSnapshot.builder().name(TIMELINE_JANKY)
                .help("FrameTimeline janky frames (totalTimelineFrames' jankyFrames)");
        CounterSnapshot.Builder timelineJank = CounterSnapshot.builder().name(TIMELINE_JANK)
                .help("FrameTimeline frames by SurfaceFlinger jank type; a frame can have several");
        CounterSnapshot.Builder ringDropped = CounterSnapshot.builder().name(RING_DROPPED)
                .help("Frames a client did not count because its recording ring was full (its drain lagged a whole "
                        + "ring); not in gfxstats_frames_total");
        for (Map.Entry<SeriesKey, long[]> e : all.entrySet()) {
            Labels labels = labels(e.getKey());
            long[] c = e.getValue();
            frames.dataPoint(CounterSnapshot.CounterDataPointSnapshot.builder()
                    .labels(labels).value(c[Counters.TOTAL_FRAMES]).build());
            janky.dataPoint(CounterSnapshot.CounterDataPointSnapshot.builder()
                    .labels(labels).value(c[Counters.JANKY_FRAMES]).build());
            for (JankType t : JankType.PERSISTED) {
                causes.dataPoint(CounterSnapshot.CounterDataPointSnapshot.builder()
                        .labels(labels.add("cause", causeName(t))).value(c[t.counter()]).build());
            }
            cpu.dataPoint(histogram(labels, CPU_BOUNDS, c, Counters.CPU_BUCKET_BASE, Histograms.CPU_BUCKETS));
            long gpuFrames = 0;
            for (int i = 0; i < Histograms.GPU_BUCKETS; i++) {
                gpuFrames += c[Counters.GPU_BUCKET_BASE + i];
            }
            if (gpuFrames > 0) {
                gpu.dataPoint(histogram(labels, GPU_BOUNDS, c, Counters.GPU_BUCKET_BASE, Histograms.GPU_BUCKETS));
            }
            // Only for processes that record FrameTimeline frames: no empty series for the others.
            if (c[MetricVector.timeline(TimelineCounter.FRAMES)] > 0) {
                timelineFrames.dataPoint(CounterSnapshot.CounterDataPointSnapshot.builder().labels(labels)
                        .value(c[MetricVector.timeline(TimelineCounter.FRAMES)]).build());
                timelineJanky.dataPoint(CounterSnapshot.CounterDataPointSnapshot.builder().labels(labels)
                        .value(c[MetricVector.timeline(TimelineCounter.JANKY_FRAMES)]).build());
                for (TimelineCounter t : TIMELINE_JANK_TYPES) {
                    timelineJank.dataPoint(CounterSnapshot.CounterDataPointSnapshot.builder()
                            .labels(labels.add("jank_type", jankTypeName(t))).value(c[MetricVector.timeline(t)]).build());
                }
            }
            // Only for series that lost frames: a healthy client adds no series.
            if (c[MetricVector.RING_DROPPED] > 0) {
                ringDropped.dataPoint(CounterSnapshot.CounterDataPointSnapshot.builder().labels(labels)
                        .value(c[MetricVector.RING_DROPPED]).build());
            }
        }
        CounterSnapshot.Builder sceneFrames = CounterSnapshot.builder().name(SCENE_FRAMES)
                .help("Frames rendered per scene (processes that name their scenes)");
        CounterSnapshot.Builder sceneJanky = CounterSnapshot.builder().name(SCENE_JANKY)
                .help("Janky frames (Android's rule) per scene");
        CounterSnapshot.Builder sceneLevel = CounterSnapshot.builder().name(SCENE_LEVEL)
                .help("Frames per scene by Matrix dropped-frame level (best, normal, middle, high, frozen)");
        for (Map.Entry<SeriesKey, Map<String, long[]>> e : scenes.get().entrySet()) {
            Labels series = labels(e.getKey());
            for (Map.Entry<String, long[]> s : e.getValue().entrySet()) {
                Labels labels = series.add("scene", s.getKey());
                long[] v = s.getValue();
                sceneFrames.dataPoint(CounterSnapshot.CounterDataPointSnapshot.builder().labels(labels)
                        .value(v[Counters.TOTAL_FRAMES]).build());
                sceneJanky.dataPoint(CounterSnapshot.CounterDataPointSnapshot.builder().labels(labels)
                        .value(v[Counters.JANKY_FRAMES]).build());
                for (int l = 0; l < SceneGroup.LEVELS; l++) {
                    sceneLevel.dataPoint(CounterSnapshot.CounterDataPointSnapshot.builder()
                            .labels(labels.add("level", MatrixRule.levelName(l).toLowerCase(Locale.ROOT)))
                            .value(v[SceneGroup.LEVEL_COUNT_BASE + l]).build());
                }
            }
        }
        return MetricSnapshots.of(frames.build(), janky.build(), causes.build(), cpu.build(), gpu.build(),
                timelineFrames.build(), timelineJanky.build(), timelineJank.build(), ringDropped.build(), sceneFrames.build(),
                sceneJanky.build(), sceneLevel.build());
    }

    private static HistogramSnapshot.HistogramDataPointSnapshot histogram(Labels labels, double[] bounds, long[] c,
                                                                          int base, int buckets) {
        long[] counts = new long[buckets];
        System.arraycopy(c, base, counts, 0, buckets);
        return HistogramSnapshot.HistogramDataPointSnapshot.builder().labels(labels)
                .classicHistogramBuckets(ClassicHistogramBuckets.of(bounds, counts)).build();
    }

    private static Labels labels(SeriesKey key) {
        return Labels.of("package", key.packageName(), "uid", Integer.toUnsignedString(key.uid()),
                "version", Long.toString(key.versionCode()));
    }
}
