package io.gfxstats.timeline.perfetto;

import io.gfxstats.timeline.FinishMetadata;
import io.gfxstats.timeline.JankType;
import io.gfxstats.timeline.Prediction;
import io.gfxstats.timeline.PresentMetadata;
import io.gfxstats.timeline.PresentState;
import io.gfxstats.timeline.Severity;
import io.gfxstats.timeline.TimeStatsText;
import io.gfxstats.timeline.TimelineCounters;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.IntUnaryOperator;
import java.util.function.ToIntFunction;

/**
 * What {@code gfxstats timeline perfetto} reports of a trace's actual SurfaceFrames: per process
 * Perfetto's {@code android_frame_timeline_metric} ({@link ProcessMetric}), and per process and
 * layer the gfxstats FrameTimeline counters (the TimeStats block) and Perfetto's jank tags.
 * SurfaceFlinger's classification in the trace is taken as it is; nothing is re-classified.
 *
 * <p>It is a {@link SliceSink}: slices arrive as the reader pairs them and are counted at once. A
 * SurfaceFrame waits only for the two slices of its display frame (the present delay is their
 * difference), and a bounded number of those waits and of display frames is kept.
 */
public final class PerfettoReport implements SliceSink {
    /** Display frames remembered for SurfaceFrames still to come. */
    private static final int DISPLAY_FRAMES = 1 << 14;
    /** SurfaceFrames waiting for their display frame; past this the oldest is counted without it. */
    private static final int WAITING_SURFACES = 1 << 14;

    /** Key of one (process, layer). */
    record LayerKey(int pid, String layer) {
    }

    private final Map<Integer, ProcessMetric> processes = new TreeMap<>();
    private Map<String, int[]> jankTypesAcross;
    private final Map<LayerKey, TimelineCounters> layers = new TreeMap<>(
            (a, b) -> a.pid != b.pid ? Integer.compare(a.pid, b.pid) : a.layer.compareTo(b.layer));
    private final Map<LayerKey, Map<String, Integer>> tags = new HashMap<>();
    private final Map<Long, Long> actualDisplayEnds = lru();
    private final Map<Long, Long> expectedDisplayEnds = lru();
    private final LinkedHashMap<Long, List<FrameSlice>> waiting = new LinkedHashMap<>();
    private int waitingCount;
    private long unknownJankBits;
    private long actualSurfaces;
    private long actualDisplays;
    private FrameTimelineReader.Result result;

    /** A report to feed with {@link FrameTimelineReader#read} and close with {@link #finish}. */
    public PerfettoReport() {
    }

    /** The report of a trace read whole. */
    public PerfettoReport(FrameTimelineTrace trace) {
        trace.slices().forEach(this::finished);
        finish(trace.result());
    }

    private static Map<Long, Long> lru() {
        return new LinkedHashMap<>(16, 0.75f, false) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Long, Long> eldest) {
                return size() > DISPLAY_FRAMES;
            }
        };
    }

    @Override
    public void finished(FrameSlice s) {
        switch (s.kind()) {
            case ACTUAL_SURFACE -> {
                actualSurfaces++;
                addMetric(s);
                if (displayKnown(s.displayFrameToken())) {
                    addCounters(s);
                } else {
                    waiting.computeIfAbsent(s.displayFrameToken(), k -> new ArrayList<>(2)).add(s);
                    if (++waitingCount > WAITING_SURFACES) {
                        Map.Entry<Long, List<FrameSlice>> oldest = waiting.entrySet().iterator().next();
                        waiting.remove(oldest.getKey());
                        release(oldest.getValue());
                    }
                }
            }
            case ACTUAL_DISPLAY, EXPECTED_DISPLAY -> {
                if (s.kind() == FrameSlice.Kind.ACTUAL_DISPLAY) {
                    actualDisplays++;
                    // The metric reads every actual timeline slice, display frames too: they make
                    // the block of SurfaceFlinger's own process (its CPU/GPU deadline misses,
                    // stuffing, dropped display frames).
                    addMetric(s);
                    actualDisplayEnds.put(s.token(), s.end());
                } else {
                    expectedDisplayEnds.put(s.token(), s.end());
                }
                if (displayKnown(s.token())) {
                    List<FrameSlice> ready = waiting.remove(s.token());
                    if (ready != null) {
                        release(ready);
                    }
                }
            }
            default -> {
                // expected SurfaceFrames add nothing to the metric or the counters
            }
        }
    }

    private boolean displayKnown(long token) {
        return actualDisplayEnds.getOrDefault(token, -1L) >= 0 && expectedDisplayEnds.getOrDefault(token, -1L) >= 0;
    }

    private void release(List<FrameSlice> surfaces) {
        waitingCount -= surfaces.size();
        surfaces.forEach(this::addCounters);
    }

    /** Counts the SurfaceFrames still waiting (their display frame never closed) and keeps the reader's result. */
    public void finish(FrameTimelineReader.Result result) {
        this.result = result;
        List<List<FrameSlice>> rest = new ArrayList<>(waiting.values());
        waiting.clear();
        rest.forEach(this::release);
    }

    /** What the reader found besides slices (packets, unpaired ends, a cut). */
    public FrameTimelineReader.Result result() {
        return result;
    }

    /** Actual SurfaceFrames read. */
    public long surfaceFrames() {
        return actualSurfaces;
    }

    private void addMetric(FrameSlice s) {
        ProcessMetric m = processes.computeIfAbsent(s.pid(), ProcessMetric::new);
        int jank = s.jankType() == FrameSlice.ABSENT ? 0 : s.jankType();
        boolean dropped = (jank & JankType.toProto(JankType.DROPPED)) != 0;
        int present = s.presentType() >= 0 && s.presentType() <= 5 ? s.presentType() : 0;
        m.add(s.token(), jank, present, s.dur(), dropped, s.jankSeverityScore());
    }

    private void addCounters(FrameSlice s) {
        long actualEnd = actualDisplayEnds.getOrDefault(s.displayFrameToken(), -1L);
        long expectedEnd = expectedDisplayEnds.getOrDefault(s.displayFrameToken(), -1L);
        LayerKey key = new LayerKey(s.pid(), s.layerName() == null ? "" : s.layerName());
        TimelineCounters c = layers.computeIfAbsent(key, k -> new TimelineCounters());
        tags.computeIfAbsent(key, k -> new TreeMap<>()).merge(PerfettoNames.jankTag(s), 1, Integer::sum);

        int jank = JankType.fromProto(s.jankType() == FrameSlice.ABSENT ? 0 : s.jankType());
        if (jank < 0) {
            unknownJankBits++;
            jank = JankType.fromProto(s.jankType() & (JankType.toProto(JankType.ALL) | JankType.PROTO_NONE));
        }
        Prediction prediction = switch (s.predictionType()) {
            case 1 -> Prediction.VALID;
            case 2 -> Prediction.EXPIRED;
            default -> Prediction.NONE;
        };
        PresentState state = s.presentType() == 4 ? PresentState.DROPPED : PresentState.PRESENTED;
        PresentMetadata present = switch (s.presentType()) {
            case 1 -> PresentMetadata.ON_TIME;
            case 2 -> PresentMetadata.LATE;
            case 3 -> PresentMetadata.EARLY;
            default -> PresentMetadata.UNKNOWN;
        };
        FinishMetadata finish = prediction != Prediction.VALID ? FinishMetadata.UNKNOWN
                : s.onTimeFinish() ? FinishMetadata.ON_TIME : FinishMetadata.LATE;
        Severity severity = switch (PerfettoNames.severity(s)) {
            case "None" -> Severity.NONE;
            case "Partial" -> Severity.PARTIAL;
            case "Full" -> Severity.FULL;
            default -> Severity.UNKNOWN;
        };
        long delay = 0;
        boolean delayKnown = true;
        if (!Float.isNaN(s.presentDelayMillis())) {
            delay = Math.round(s.presentDelayMillis() * 1e6);
        } else if (actualEnd >= 0 && expectedEnd >= 0) {
            // SurfaceFlinger's predicted end is its predicted present; the actual display slice
            // ends at the present fence.
            delay = actualEnd - expectedEnd;
        } else {
            delayKnown = false;
        }
        TimelineCounters.countTraced(c, prediction, state, jank, present, finish, severity, delay, delayKnown, true);
    }

    /** Actual display frames read (SurfaceFlinger's own). */
    public long displayFrames() {
        return actualDisplays;
    }

    public Map<Integer, ProcessMetric> processes() {
        return processes;
    }

    /** The counters of one process's layer, or null. */
    public TimelineCounters layer(int pid, String layer) {
        return layers.get(new LayerKey(pid, layer));
    }

    /** All counters added up. */
    public TimelineCounters total() {
        TimelineCounters t = new TimelineCounters();
        layers.values().forEach(t::addAll);
        return t;
    }

    /** The layers of one process, in name order ("" for frames without a layer name). */
    public List<String> layerNames(int pid) {
        return layers.keySet().stream().filter(k -> k.pid() == pid).map(LayerKey::layer).toList();
    }

    /** Perfetto's jank tag counts of one process's layer. */
    public Map<String, Integer> jankTags(int pid, String layer) {
        return tags.getOrDefault(new LayerKey(pid, layer), Map.of());
    }

    public String processName(int pid) {
        return result.processNames().getOrDefault(pid, "pid " + pid);
    }

    /**
     * A per-process count summed over the processes, as the metric's top level sums them (a token
     * seen in two processes counts twice).
     */
    public long sumOver(ToIntFunction<ProcessMetric> count) {
        long sum = 0;
        for (ProcessMetric m : processes.values()) {
            sum += count.applyAsInt(m);
        }
        return sum;
    }

    /**
     * The metric's top-level jank types: per type, distinct tokens over all processes, in total
     * (index 0) and per present type (index present + 1); worked out once.
     */
    public Map<String, int[]> jankTypesAcrossProcesses() {
        if (jankTypesAcross == null) {
            jankTypesAcross = ProcessMetric.jankTypesAcross(processes.values());
        }
        return jankTypesAcross;
    }

    /** A weighted count as few digits as it needs: "0", "1.5", "2.25". */
    private static String weight(double v) {
        return BigDecimal.valueOf(v).stripTrailingZeros().toPlainString();
    }

    /** One {@code jank_type} line: the count, then per present type ({@code byPresent[present + 1]}). */
    private static void jankTypeLine(StringBuilder sb, String type, IntUnaryOperator byPresent) {
        sb.append("  jank_type \"").append(type).append("\" = ").append(byPresent.applyAsInt(-1))
                .append(" (on_time ").append(byPresent.applyAsInt(1))
                .append(", late ").append(byPresent.applyAsInt(2))
                .append(", early ").append(byPresent.applyAsInt(3))
                .append(", dropped ").append(byPresent.applyAsInt(4))
                .append(", unknown ").append(byPresent.applyAsInt(5))
                .append(", unspecified ").append(byPresent.applyAsInt(0)).append(")\n");
    }

    /** The report as text. */
    public String text() {
        StringBuilder sb = new StringBuilder();
        sb.append("FrameTimeline: ").append(actualSurfaces).append(" surface frames, ").append(actualDisplays)
                .append(" display frames, ").append(processes.size()).append(" processes");
        if (result.unpairedEnds() > 0) {
            sb.append(", ").append(result.unpairedEnds()).append(" frame ends without a start");
        }
        if (result.lateEvents() > 0) {
            sb.append(", ").append(result.lateEvents()).append(" events out of order by more than the sort window"
                    + " (--sort-window)");
        }
        if (unknownJankBits > 0) {
            sb.append(", ").append(unknownJankBits).append(" frames with unknown jank bits");
        }
        sb.append('\n');
        sb.append("All processes: total_frames = ").append(sumOver(ProcessMetric::totalFrames))
                .append(", missed_app_frames = ").append(sumOver(ProcessMetric::missedAppFrames))
                .append(", dropped_frames = ").append(sumOver(ProcessMetric::droppedFrames)).append('\n');
        for (Map.Entry<String, int[]> t : jankTypesAcrossProcesses().entrySet()) {
            int[] counts = t.getValue();
            jankTypeLine(sb, t.getKey(), present -> counts[present + 1]);
        }
        for (ProcessMetric m : processes.values()) {
            sb.append('\n').append("Process ").append(processName(m.pid)).append(" (pid ").append(m.pid).append(")\n");
            sb.append("  total_frames = ").append(m.totalFrames()).append('\n');
            sb.append("  missed_frames = ").append(m.missedFrames()).append('\n');
            sb.append("  missed_app_frames = ").append(m.missedAppFrames()).append('\n');
            sb.append("  missed_sf_frames = ").append(m.missedSfFrames()).append('\n');
            sb.append("  dropped_frames = ").append(m.droppedFrames()).append('\n');
            sb.append("  weighted_missed_frames = ").append(weight(m.weightedMissedFrames()))
                    .append(", weighted_missed_app_frames = ").append(weight(m.weightedMissedAppFrames()))
                    .append(", weighted_missed_sf_frames = ").append(weight(m.weightedMissedSfFrames())).append('\n');
            sb.append(String.format(Locale.ROOT, "  frame_dur_ms max %.3f avg %.3f p50 %.3f p90 %.3f p95 %.3f p99 %.3f%n",
                    m.durMax() / 1e6, m.durAvg() / 1e6, m.durPercentile(50) / 1e6, m.durPercentile(90) / 1e6,
                    m.durPercentile(95) / 1e6, m.durPercentile(99) / 1e6));
            for (String type : m.jankTypeNames()) {
                jankTypeLine(sb, type, present -> m.jankTypeCount(type, present));
            }
            for (Map.Entry<LayerKey, TimelineCounters> e : layers.entrySet()) {
                if (e.getKey().pid() != m.pid) {
                    continue;
                }
                sb.append("  Layer ").append(e.getKey().layer().isEmpty() ? "(no name)" : e.getKey().layer()).append('\n');
                for (Map.Entry<String, Integer> t : jankTags(m.pid, e.getKey().layer()).entrySet()) {
                    sb.append("    jankTag \"").append(t.getKey()).append("\" = ").append(t.getValue()).append('\n');
                }
                TimeStatsText.write(e.getValue(), "    ", sb);
            }
        }
        return sb.toString();
    }
}
