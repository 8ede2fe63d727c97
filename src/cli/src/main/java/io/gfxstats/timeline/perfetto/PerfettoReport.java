package io.gfxstats.timeline.perfetto;

import io.gfxstats.timeline.FinishMetadata;
import io.gfxstats.timeline.JankType;
import io.gfxstats.timeline.Prediction;
import io.gfxstats.timeline.PresentMetadata;
import io.gfxstats.timeline.PresentState;
import io.gfxstats.timeline.Severity;
import io.gfxstats.timeline.TimeStatsText;
import io.gfxstats.timeline.TimelineCounters;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * What {@code gfxstats timeline perfetto} reports of a trace's actual SurfaceFrames: per process
 * Perfetto's {@code android_frame_timeline_metric} (frames and missed frames counted per distinct
 * token, durations without dropped frames, per jank type and present type), and per process and
 * layer the gfxstats FrameTimeline counters (the TimeStats block) and Perfetto's jank tags.
 * SurfaceFlinger's classification in the trace is taken as it is; nothing is re-classified.
 */
public final class PerfettoReport {
    /** Perfetto metric of one process. */
    public static final class ProcessMetric {
        final int pid;
        final Set<Long> tokens = new HashSet<>();
        final Set<Long> missed = new HashSet<>();
        final Set<Long> missedApp = new HashSet<>();
        final Set<Long> missedSf = new HashSet<>();
        final Set<Long> dropped = new HashSet<>();
        final List<Long> durations = new ArrayList<>();
        /** jank type text -> present type (0..5) -> tokens. */
        final Map<String, List<Set<Long>>> jankTypes = new TreeMap<>();

        ProcessMetric(int pid) {
            this.pid = pid;
        }

        public int totalFrames() {
            return tokens.size();
        }

        public int missedFrames() {
            return missed.size();
        }

        public int missedAppFrames() {
            return missedApp.size();
        }

        public int missedSfFrames() {
            return missedSf.size();
        }

        public int droppedFrames() {
            return dropped.size();
        }

        public long durMax() {
            return durations.stream().mapToLong(Long::longValue).max().orElse(0);
        }

        public long durAvg() {
            return durations.isEmpty() ? 0 : durations.stream().mapToLong(Long::longValue).sum() / durations.size();
        }

        /** Percentile with linear interpolation between ranks, as the metric computes it. */
        public double durPercentile(double p) {
            if (durations.isEmpty()) {
                return 0;
            }
            List<Long> sorted = new ArrayList<>(durations);
            sorted.sort(null);
            double rank = p / 100.0 * (sorted.size() - 1);
            int lo = (int) Math.floor(rank);
            int hi = Math.min(lo + 1, sorted.size() - 1);
            return sorted.get(lo) + (rank - lo) * (sorted.get(hi) - sorted.get(lo));
        }

        /** Distinct tokens with this jank type, in total or with present type {@code present}. */
        public int jankTypeCount(String type, int present) {
            List<Set<Long>> byPresent = jankTypes.get(type);
            if (byPresent == null) {
                return 0;
            }
            if (present < 0) {
                Set<Long> all = new HashSet<>();
                byPresent.forEach(all::addAll);
                return all.size();
            }
            return byPresent.get(present).size();
        }

        public Set<String> jankTypeNames() {
            return jankTypes.keySet();
        }
    }

    /** Key of one (process, layer). */
    record LayerKey(int pid, String layer) {
    }

    private final FrameTimelineTrace trace;
    private final Map<Integer, ProcessMetric> processes = new TreeMap<>();
    private final Map<LayerKey, TimelineCounters> layers = new TreeMap<>(
            (a, b) -> a.pid != b.pid ? Integer.compare(a.pid, b.pid) : a.layer.compareTo(b.layer));
    private final Map<LayerKey, Map<String, Integer>> tags = new HashMap<>();
    private long unknownJankBits;

    public PerfettoReport(FrameTimelineTrace trace) {
        this.trace = trace;
        Map<Long, FrameSlice> actualDisplay = new HashMap<>();
        Map<Long, FrameSlice> expectedDisplay = new HashMap<>();
        for (FrameSlice s : trace.slices()) {
            if (s.kind() == FrameSlice.Kind.ACTUAL_DISPLAY) {
                actualDisplay.put(s.token(), s);
            } else if (s.kind() == FrameSlice.Kind.EXPECTED_DISPLAY) {
                expectedDisplay.put(s.token(), s);
            }
        }
        for (FrameSlice s : trace.slices()) {
            if (s.kind() == FrameSlice.Kind.ACTUAL_SURFACE) {
                addMetric(s);
                addCounters(s, actualDisplay.get(s.displayFrameToken()), expectedDisplay.get(s.displayFrameToken()));
            }
        }
    }

    private void addMetric(FrameSlice s) {
        ProcessMetric m = processes.computeIfAbsent(s.pid(), ProcessMetric::new);
        long token = s.token();
        int jank = s.jankType() == FrameSlice.ABSENT ? 0 : s.jankType();
        m.tokens.add(token);
        boolean app = (jank & JankType.toProto(JankType.PERFETTO_APP_JANK)) != 0;
        boolean sf = (jank & JankType.toProto(JankType.PERFETTO_SF_JANK)) != 0;
        boolean dropped = (jank & JankType.toProto(JankType.DROPPED)) != 0;
        if (app) {
            m.missedApp.add(token);
        }
        if (sf) {
            m.missedSf.add(token);
        }
        if (dropped) {
            m.dropped.add(token);
        }
        if (app || sf || dropped) {
            m.missed.add(token);
        }
        if (!dropped && s.dur() >= 0) {
            m.durations.add(s.dur());
        }
        int present = s.presentType() >= 0 && s.presentType() <= 5 ? s.presentType() : 0;
        for (String type : PerfettoNames.jankTypes(jank)) {
            List<Set<Long>> byPresent = m.jankTypes.computeIfAbsent(type, k -> {
                List<Set<Long>> l = new ArrayList<>();
                for (int i = 0; i < 6; i++) {
                    l.add(new HashSet<>());
                }
                return l;
            });
            byPresent.get(present).add(token);
        }
    }

    private void addCounters(FrameSlice s, FrameSlice actualDisplay, FrameSlice expectedDisplay) {
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
        } else if (actualDisplay != null && expectedDisplay != null && actualDisplay.end() >= 0
                && expectedDisplay.end() >= 0) {
            // SurfaceFlinger's predicted end is its predicted present; the actual display slice
            // ends at the present fence.
            delay = actualDisplay.end() - expectedDisplay.end();
        } else {
            delayKnown = false;
        }
        c.add(prediction, state, jank, present, finish, severity, delay, delayKnown, true);
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
    public java.util.List<String> layerNames(int pid) {
        return layers.keySet().stream().filter(k -> k.pid() == pid).map(LayerKey::layer).toList();
    }

    /** Perfetto's jank tag counts of one process's layer. */
    public Map<String, Integer> jankTags(int pid, String layer) {
        return tags.getOrDefault(new LayerKey(pid, layer), Map.of());
    }

    public String processName(int pid) {
        return trace.processNames().getOrDefault(pid, "pid " + pid);
    }

    /** The report as text. */
    public String text() {
        StringBuilder sb = new StringBuilder();
        long actualSurfaces = trace.slices().stream().filter(s -> s.kind() == FrameSlice.Kind.ACTUAL_SURFACE).count();
        long actualDisplays = trace.slices().stream().filter(s -> s.kind() == FrameSlice.Kind.ACTUAL_DISPLAY).count();
        sb.append("FrameTimeline: ").append(actualSurfaces).append(" surface frames, ").append(actualDisplays)
                .append(" display frames, ").append(processes.size()).append(" processes");
        if (trace.unpairedEnds() > 0) {
            sb.append(", ").append(trace.unpairedEnds()).append(" frame ends without a start");
        }
        if (unknownJankBits > 0) {
            sb.append(", ").append(unknownJankBits).append(" frames with unknown jank bits");
        }
        sb.append('\n');
        for (ProcessMetric m : processes.values()) {
            sb.append('\n').append("Process ").append(processName(m.pid)).append(" (pid ").append(m.pid).append(")\n");
            sb.append("  total_frames = ").append(m.totalFrames()).append('\n');
            sb.append("  missed_frames = ").append(m.missedFrames()).append('\n');
            sb.append("  missed_app_frames = ").append(m.missedAppFrames()).append('\n');
            sb.append("  missed_sf_frames = ").append(m.missedSfFrames()).append('\n');
            sb.append("  dropped_frames = ").append(m.droppedFrames()).append('\n');
            sb.append(String.format(Locale.ROOT, "  frame_dur_ms max %.3f avg %.3f p50 %.3f p90 %.3f p95 %.3f p99 %.3f%n",
                    m.durMax() / 1e6, m.durAvg() / 1e6, m.durPercentile(50) / 1e6, m.durPercentile(90) / 1e6,
                    m.durPercentile(95) / 1e6, m.durPercentile(99) / 1e6));
            for (String type : m.jankTypeNames()) {
                sb.append("  jank_type \"").append(type).append("\" = ").append(m.jankTypeCount(type, -1))
                        .append(" (on_time ").append(m.jankTypeCount(type, 1))
                        .append(", late ").append(m.jankTypeCount(type, 2))
                        .append(", early ").append(m.jankTypeCount(type, 3))
                        .append(", dropped ").append(m.jankTypeCount(type, 4))
                        .append(", unknown ").append(m.jankTypeCount(type, 5))
                        .append(", unspecified ").append(m.jankTypeCount(type, 0)).append(")\n");
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
