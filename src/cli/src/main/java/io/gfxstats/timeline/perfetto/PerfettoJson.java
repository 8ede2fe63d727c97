package io.gfxstats.timeline.perfetto;

import com.google.gson.GsonBuilder;
import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.util.JsonFormat;
import io.gfxstats.timeline.TimelineCounters;
import io.gfxstats.timeline.TimelineProtos;
import java.util.Map;
import java.util.function.IntUnaryOperator;

/**
 * {@code timeline perfetto --json}: the numbers of {@link PerfettoReport#text()} as one JSON object,
 * in the names every gfxstats JSON uses ({@code totalFrames}, {@code jankyFrames}; a layer's
 * counters as {@code pull --json}'s {@code frameTimeline}).
 */
public final class PerfettoJson {
    private PerfettoJson() {
    }

    public static String write(PerfettoReport report) {
        JsonObject root = new JsonObject();
        root.addProperty("surfaceFrames", report.surfaceFrames());
        root.addProperty("displayFrames", report.displayFrames());
        root.addProperty("unpairedEnds", report.result().unpairedEnds());
        // The metric's top level: per-process counts summed (SurfaceFlinger's display frames included).
        root.addProperty("totalFrames", report.sumOver(ProcessMetric::totalFrames));
        root.addProperty("missedAppFrames", report.sumOver(ProcessMetric::missedAppFrames));
        root.addProperty("droppedFrames", report.sumOver(ProcessMetric::droppedFrames));
        // The metric's top-level jank_types: distinct tokens over all processes, not a sum.
        JsonArray allTypes = new JsonArray();
        for (Map.Entry<String, int[]> e : report.jankTypesAcrossProcesses().entrySet()) {
            int[] counts = e.getValue();
            allTypes.add(jankType(e.getKey(), present -> counts[present + 1]));
        }
        root.add("jankTypes", allTypes);
        JsonArray processes = new JsonArray();
        for (ProcessMetric m : report.processes().values()) {
            JsonObject p = new JsonObject();
            p.addProperty("process", report.processName(m.pid));
            p.addProperty("pid", m.pid);
            p.addProperty("totalFrames", m.totalFrames());
            // Perfetto's missed frames: app, SurfaceFlinger or dropped; the report's janky count.
            p.addProperty("jankyFrames", m.missedFrames());
            p.addProperty("missedAppFrames", m.missedAppFrames());
            p.addProperty("missedSfFrames", m.missedSfFrames());
            p.addProperty("droppedFrames", m.droppedFrames());
            // Perfetto's weighted_missed_*: the missed frames, each weighted by its jank severity score.
            p.addProperty("weightedMissedFrames", m.weightedMissedFrames());
            p.addProperty("weightedMissedAppFrames", m.weightedMissedAppFrames());
            p.addProperty("weightedMissedSfFrames", m.weightedMissedSfFrames());
            JsonObject dur = new JsonObject();
            dur.addProperty("maxMs", m.durMax() / 1e6);
            dur.addProperty("avgMs", m.durAvg() / 1e6);
            for (int pct : new int[] {50, 90, 95, 99}) {
                dur.addProperty("p" + pct + "Ms", m.durPercentile(pct) / 1e6);
            }
            p.add("frameDuration", dur);
            JsonArray types = new JsonArray();
            for (String type : m.jankTypeNames()) {
                types.add(jankType(type, present -> m.jankTypeCount(type, present)));
            }
            p.add("jankTypes", types);
            JsonArray layers = new JsonArray();
            for (String layer : report.layerNames(m.pid)) {
                JsonObject l = new JsonObject();
                l.addProperty("layer", layer);
                JsonObject tags = new JsonObject();
                for (Map.Entry<String, Integer> e : report.jankTags(m.pid, layer).entrySet()) {
                    tags.addProperty(e.getKey(), e.getValue());
                }
                l.add("jankTags", tags);
                l.add("frameTimeline", JsonParser.parseString(counters(report.layer(m.pid, layer))));
                layers.add(l);
            }
            p.add("layers", layers);
            processes.add(p);
        }
        root.add("processes", processes);
        return new GsonBuilder().disableHtmlEscaping().create().toJson(root);
    }

    /** One jank type's distinct tokens, in total and per present type ({@code byPresent} of -1 to 5). */
    private static JsonObject jankType(String type, IntUnaryOperator byPresent) {
        JsonObject t = new JsonObject();
        t.addProperty("jankType", type);
        t.addProperty("frames", byPresent.applyAsInt(-1));
        String[] present = {"unspecified", "onTime", "late", "early", "dropped", "unknown"};
        for (int i = 0; i < present.length; i++) {
            t.addProperty(present[i], byPresent.applyAsInt(i));
        }
        return t;
    }

    private static String counters(TimelineCounters c) {
        try {
            return JsonFormat.printer().omittingInsignificantWhitespace().print(TimelineProtos.toProto(c));
        } catch (InvalidProtocolBufferException e) {
            throw new IllegalStateException("a counters message always prints", e);
        }
    }
}
