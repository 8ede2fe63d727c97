package io.gfxstats.timeline;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * A second, independent classifier of spec sections 3.1 and 3.2 for the differential test,
 * written as a direct transcription of the decision tables: each frame is reduced to a set of
 * facts, and the first table row whose condition holds gives the jank. It reads and writes the
 * JSON of {@code gfxstats timeline classify} itself and shares no code with the production
 * classifier (not even the jank bit names).
 */
public final class ReferenceFrameTimeline {
    private static final String[] ORDER = {
        "DisplayHAL", "SurfaceFlingerCpuDeadlineMissed", "SurfaceFlingerGpuDeadlineMissed", "AppDeadlineMissed",
        "PredictionError", "SurfaceFlingerScheduling", "BufferStuffing", "Unknown", "SurfaceFlingerStuffing", "Dropped",
    };

    private final long presentT;
    private final long deadlineT;
    private final long startT;

    public ReferenceFrameTimeline(long presentT, long deadlineT, long startT) {
        this.presentT = presentT;
        this.deadlineT = deadlineT;
        this.startT = startT;
    }

    /** The facts a display frame's table looks at. */
    private record DisplayFacts(String present, boolean lateFinish, boolean onCadence, boolean stuffed,
            boolean bigGap, boolean gpu) {
    }

    private record Row<F>(Predicate<F> when, List<String> jank) {
    }

    private static <F> Row<F> row(Predicate<F> when, String... jank) {
        return new Row<>(when, List.of(jank));
    }

    /** Spec 3.1 step 6, one row per outcome (present on time never reaches the table). */
    private static final List<Row<DisplayFacts>> DISPLAY_TABLE = List.of(
            row(f -> f.present.equals("early") && !f.lateFinish && f.onCadence, "SurfaceFlingerScheduling"),
            row(f -> f.present.equals("early") && !f.lateFinish && !f.onCadence, "PredictionError"),
            row(f -> f.present.equals("early") && f.lateFinish, "SurfaceFlingerScheduling"),
            row(f -> f.present.equals("late") && !f.lateFinish && f.stuffed, "SurfaceFlingerStuffing"),
            row(f -> f.present.equals("late") && !f.lateFinish && f.onCadence, "DisplayHAL"),
            row(f -> f.present.equals("late") && !f.lateFinish, "PredictionError"),
            row(f -> f.present.equals("late") && f.stuffed && !f.bigGap, "SurfaceFlingerStuffing"),
            row(f -> f.present.equals("late") && f.gpu, "SurfaceFlingerGpuDeadlineMissed"),
            row(f -> f.present.equals("late"), "SurfaceFlingerCpuDeadlineMissed"));

    /** The facts a surface frame's table looks at (after the buffer-stuffing re-decision of the finish). */
    private record SurfaceFacts(String present, boolean lateFinish, boolean onCadence, boolean stuffed,
            List<String> displayJank) {
    }

    /** Spec 3.2 step 6; the rows give the bits to add, the display jank is added by the marked rows. */
    private static final List<Row<SurfaceFacts>> SURFACE_TABLE = List.of(
            row(f -> f.present.equals("early") && !f.lateFinish && f.onCadence, "SurfaceFlingerScheduling"),
            row(f -> f.present.equals("early") && !f.lateFinish, "PredictionError"),
            row(f -> f.present.equals("early"), "Unknown"),
            row(f -> f.present.equals("late") && f.lateFinish, "AppDeadlineMissed", "+display"),
            row(f -> f.present.equals("late") && !f.displayJank.isEmpty(), "+display"),
            row(f -> f.present.equals("late") && f.stuffed),
            row(f -> f.present.equals("late") && f.onCadence, "SurfaceFlingerScheduling"),
            row(f -> f.present.equals("late"), "PredictionError"));

    /** Classifies a whole log: one output object per input line. */
    public List<JsonObject> classify(List<JsonObject> lines) {
        List<JsonObject> out = new ArrayList<>();
        long previousPresent = 0;
        for (JsonObject line : lines) {
            out.add(classifyLine(line, previousPresent));
            long present = line.getAsJsonObject("actual").get("present").getAsLong();
            if (present != -1) {
                previousPresent = present;
            }
        }
        return out;
    }

    private JsonObject classifyLine(JsonObject in, long prev) {
        JsonObject actual = in.getAsJsonObject("actual");
        long as = actual.get("start").getAsLong();
        long ae = actual.get("end").getAsLong();
        long ap = actual.get("present").getAsLong();
        long refresh = in.get("refresh_period").getAsLong();
        long render = in.get("render_period").getAsLong();
        boolean gpu = in.has("gpu_fence") && !in.get("gpu_fence").isJsonNull();
        boolean expired = in.get("prediction").getAsString().equals("expired");

        List<String> jank = new ArrayList<>();
        String present = "unknown";
        String finish = "unknown";
        String start = "unknown";
        String severity = "none";
        if (expired || ap < as) {
            jank.add("Unknown");
            if (ap < as) {
                jank.add("DisplayHAL");
            }
            severity = "unknown";
        } else {
            JsonObject predicted = in.getAsJsonObject("predicted");
            long ps = predicted.get("start").getAsLong();
            long pe = predicted.get("end").getAsLong();
            long pp = predicted.get("present").getAsLong();
            long done = gpu ? Math.max(ae, in.get("gpu_fence").getAsLong()) : ae;
            long d = ap - pp;
            present = presentOf(d);
            if (!present.equals("on_time")) {
                severity = Math.abs(d) < render ? "partial" : "full";
            }
            finish = done > pe ? "late" : "on_time";
            if (as - ps > startT) {
                start = "late";
            } else if (ps - as > startT) {
                start = "early";
            }
            if (!present.equals("on_time")) {
                DisplayFacts facts = new DisplayFacts(present, done > pe, cadence(d, refresh),
                        Math.abs(pp - prev) <= presentT || prev > pp, ap - prev > refresh + presentT, gpu);
                jank.addAll(first(DISPLAY_TABLE, facts));
            }
        }
        JsonObject out = new JsonObject();
        out.add("token", in.get("token"));
        out.add("jank", names(jank));
        out.addProperty("present", present);
        out.addProperty("finish", finish);
        out.addProperty("start", start);
        out.addProperty("severity", severity);
        JsonArray surfaces = new JsonArray();
        if (in.has("surfaces")) {
            for (JsonElement s : in.getAsJsonArray("surfaces")) {
                surfaces.add(classifySurface(s.getAsJsonObject(), ap, jank, refresh, render));
            }
        }
        out.add("surfaces", surfaces);
        return out;
    }

    private JsonObject classifySurface(JsonObject s, long ap, List<String> displayJank, long refresh, long render) {
        String prediction = s.get("prediction").getAsString();
        boolean dropped = s.has("present_state") && s.get("present_state").getAsString().equals("dropped");
        List<String> jank = new ArrayList<>();
        String present = "unknown";
        String finish = "unknown";
        String severity = "none";
        if (ap == -1) {
            jank.add("Unknown");
            severity = "unknown";
        } else if (prediction.equals("expired")) {
            jank.add(dropped ? "Dropped" : "AppDeadlineMissed");
            severity = "unknown";
        } else if (prediction.equals("valid")) {
            JsonObject predicted = s.getAsJsonObject("predicted");
            long pe = predicted.get("end").getAsLong();
            long pp = predicted.get("present").getAsLong();
            long ae = s.getAsJsonObject("actual").get("end").getAsLong();
            long latch = s.has("last_latch_time") ? s.get("last_latch_time").getAsLong() : 0;
            long d = ap - pp;
            present = presentOf(d);
            boolean lateFinish = ae - pe > deadlineT;
            if (!present.equals("on_time")) {
                severity = Math.abs(d) < render ? "partial" : "full";
            }
            boolean stuffed = present.equals("late") && latch != 0 && pe <= latch;
            if (stuffed) {
                lateFinish = latch + render <= ae;
                jank.add("BufferStuffing");
            }
            finish = lateFinish ? "late" : "on_time";
            if (!present.equals("on_time")) {
                for (String bit : first(SURFACE_TABLE,
                        new SurfaceFacts(present, lateFinish, cadence(d, refresh), stuffed, displayJank))) {
                    if (bit.equals("+display")) {
                        jank.addAll(displayJank);
                    } else {
                        jank.add(bit);
                    }
                }
            }
            if (dropped) {
                jank.clear();
                jank.add("Dropped");
                severity = "unknown";
            }
        }
        JsonObject out = new JsonObject();
        out.add("token", s.get("token"));
        out.add("jank", names(jank));
        out.addProperty("present", present);
        out.addProperty("finish", finish);
        out.addProperty("severity", severity);
        return out;
    }

    private String presentOf(long d) {
        return d > presentT ? "late" : d < -presentT ? "early" : "on_time";
    }

    private boolean cadence(long d, long period) {
        long r = period == 0 ? 0 : Math.abs(d) % period;
        return r < presentT || r >= period - presentT;
    }

    private static <F> List<String> first(List<Row<F>> table, F facts) {
        for (Row<F> r : table) {
            if (r.when.test(facts)) {
                return r.jank;
            }
        }
        throw new AssertionError("no row for " + facts);
    }

    private static JsonArray names(List<String> jank) {
        JsonArray a = new JsonArray();
        for (String name : ORDER) {
            if (jank.contains(name)) {
                a.add(name);
            }
        }
        if (a.isEmpty()) {
            a.add("None");
        }
        return a;
    }
}
