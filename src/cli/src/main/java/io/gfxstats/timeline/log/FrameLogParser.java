package io.gfxstats.timeline.log;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonPrimitive;
import io.gfxstats.timeline.DisplayFrame;
import io.gfxstats.timeline.Prediction;
import io.gfxstats.timeline.PresentState;
import io.gfxstats.timeline.SurfaceFrame;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Parses one line of the frame log format of {@code gfxstats timeline classify} (docs/frametimeline.md)
 * into a {@link FrameLogLine}. Strict JSON; unknown keys are errors, so that a misspelt field
 * never silently changes a classification. Optional: {@code gpu_fence} (null or absent: no GPU
 * composition), {@code surfaces} (absent: none), a surface's {@code layer},
 * {@code present_state} (default presented) and {@code last_latch_time} (default 0),
 * {@code predicted} where the prediction is not valid, and the compositor feed's {@code output}
 * and {@code msc} (non-negative integers; absent: -1).
 */
final class FrameLogParser {
    private static final Set<String> DISPLAY_KEYS = Set.of("token", "prediction", "predicted", "actual", "gpu_fence",
            "refresh_period", "render_period", "surfaces", "output", "msc");
    private static final Set<String> SURFACE_KEYS = Set.of("token", "layer", "prediction", "predicted", "actual",
            "present_state", "last_latch_time", "last_expected_present");
    private static final Set<String> TIMES = Set.of("start", "end", "present");
    private static final Set<String> SURFACE_ACTUAL = Set.of("start", "end");

    private static final Pattern INTEGER = Pattern.compile("-?(0|[1-9][0-9]*)");

    private long lineNumber;

    /** Parses {@code text}, line {@code lineNumber} of the input, into {@code into}. */
    void parse(String text, long lineNumber, FrameLogLine into) throws FrameLogException {
        this.lineNumber = lineNumber;
        JsonObject root = object(parseJson(text), "the line");
        checkKeys(root, DISPLAY_KEYS, "");

        DisplayFrame df = into.display;
        into.displayToken = token(root.get("token"), "token");
        Prediction prediction = prediction(root.get("prediction"), "prediction", false);
        long[] predicted = times(root, "predicted", TIMES, prediction != Prediction.VALID, "");
        long[] actual = times(root, "actual", TIMES, false, "");
        long refresh = period(root.get("refresh_period"), "refresh_period");
        long render = period(root.get("render_period"), "render_period");
        df.set(0, prediction, predicted[0], predicted[1], predicted[2], actual[0], actual[1], actual[2], refresh, render);
        into.output = optionalCount(root.get("output"), "output");
        into.msc = optionalCount(root.get("msc"), "msc");
        JsonElement gpu = root.get("gpu_fence");
        if (gpu != null && !gpu.isJsonNull()) {
            df.gpuFence(nanos(gpu, "gpu_fence"));
        }

        JsonElement surfaces = root.get("surfaces");
        into.surfaceCount = 0;
        if (surfaces != null) {
            if (!surfaces.isJsonArray()) {
                throw error("surfaces must be an array");
            }
            JsonArray array = surfaces.getAsJsonArray();
            for (int i = 0; i < array.size(); i++) {
                String where = "surfaces[" + i + "].";
                JsonObject s = object(array.get(i), "surfaces[" + i + "]");
                checkKeys(s, SURFACE_KEYS, where);
                SurfaceFrame sf = into.surface(i);
                into.surfaceTokens.set(i, token(s.get("token"), where + "token"));
                JsonElement layer = s.get("layer");
                if (layer != null && !(layer.isJsonPrimitive() && layer.getAsJsonPrimitive().isString())) {
                    throw error(where + "layer must be a string");
                }
                Prediction sp = prediction(s.get("prediction"), where + "prediction", true);
                long[] sPredicted = times(s, "predicted", TIMES, sp != Prediction.VALID, where);
                long[] sActual = times(s, "actual", SURFACE_ACTUAL, false, where);
                PresentState state = presentState(s.get("present_state"), where + "present_state");
                JsonElement latch = s.get("last_latch_time");
                long lastLatch = latch == null ? 0 : nanos(latch, where + "last_latch_time");
                sf.set(0, sp, sPredicted[0], sPredicted[1], sPredicted[2], sActual[0], sActual[1], state, lastLatch);
                JsonElement lastExpected = s.get("last_expected_present");
                sf.lastExpectedPresent(lastExpected == null ? 0 : nanos(lastExpected, where + "last_expected_present"));
                into.surfaceCount = i + 1;
            }
        }
    }

    private JsonElement parseJson(String text) throws FrameLogException {
        try {
            return StrictJson.parse(text);
        } catch (StrictJson.Invalid e) {
            throw error(e.getMessage());
        }
    }

    private JsonObject object(JsonElement e, String what) throws FrameLogException {
        if (e == null || !e.isJsonObject()) {
            throw error(what + " must be a JSON object");
        }
        return e.getAsJsonObject();
    }

    private void checkKeys(JsonObject o, Set<String> allowed, String where) throws FrameLogException {
        for (Map.Entry<String, JsonElement> entry : o.entrySet()) {
            if (!allowed.contains(entry.getKey())) {
                throw error("unknown field '" + where + entry.getKey() + "'");
            }
        }
    }

    private JsonPrimitive token(JsonElement e, String what) throws FrameLogException {
        if (e == null) {
            throw error("missing " + what);
        }
        if (e.isJsonPrimitive() && e.getAsJsonPrimitive().isString()) {
            return e.getAsJsonPrimitive();
        }
        return new JsonPrimitive(integer(e, what));
    }

    private Prediction prediction(JsonElement e, String what, boolean noneAllowed) throws FrameLogException {
        String s = string(e, what);
        switch (s) {
            case "valid":
                return Prediction.VALID;
            case "expired":
                return Prediction.EXPIRED;
            case "none":
                if (noneAllowed) {
                    return Prediction.NONE;
                }
                break;
            default:
                break;
        }
        throw error(what + " must be " + (noneAllowed ? "\"valid\", \"expired\" or \"none\"" : "\"valid\" or \"expired\"")
                + ", got \"" + s + "\"");
    }

    private PresentState presentState(JsonElement e, String what) throws FrameLogException {
        if (e == null) {
            return PresentState.PRESENTED;
        }
        String s = string(e, what);
        return switch (s) {
            case "presented" -> PresentState.PRESENTED;
            case "dropped" -> PresentState.DROPPED;
            default -> throw error(what + " must be \"presented\" or \"dropped\", got \"" + s + "\"");
        };
    }

    /** {start, end, present} of object {@code key}; zeros when absent and {@code optional}. */
    private long[] times(JsonObject parent, String key, Set<String> fields, boolean optional, String where)
            throws FrameLogException {
        long[] t = new long[3];
        JsonElement e = parent.get(key);
        if (e == null || e.isJsonNull()) {
            if (optional) {
                return t;
            }
            throw error("missing " + where + key);
        }
        JsonObject o = object(e, where + key);
        checkKeys(o, fields, where + key + ".");
        String[] names = {"start", "end", "present"};
        for (int i = 0; i < names.length; i++) {
            if (!fields.contains(names[i])) {
                continue;
            }
            JsonElement v = o.get(names[i]);
            if (v == null) {
                throw error("missing " + where + key + "." + names[i]);
            }
            t[i] = integer(v, where + key + "." + names[i]);
        }
        return t;
    }

    private long period(JsonElement e, String what) throws FrameLogException {
        if (e == null) {
            throw error("missing " + what);
        }
        long v = integer(e, what);
        if (v < 0) {
            throw error(what + " must not be negative, got " + v);
        }
        return v;
    }

    /** A non-negative integer, or -1 when absent. */
    private long optionalCount(JsonElement e, String what) throws FrameLogException {
        if (e == null) {
            return -1;
        }
        long v = integer(e, what);
        if (v < 0) {
            throw error(what + " must not be negative, got " + v);
        }
        return v;
    }

    private long nanos(JsonElement e, String what) throws FrameLogException {
        return integer(e, what);
    }

    private String string(JsonElement e, String what) throws FrameLogException {
        if (e == null) {
            throw error("missing " + what);
        }
        if (!e.isJsonPrimitive() || !e.getAsJsonPrimitive().isString()) {
            throw error(what + " must be a string");
        }
        return e.getAsString();
    }

    private long integer(JsonElement e, String what) throws FrameLogException {
        // The number's own text: 2.2e7 or 1.0 is a measurement that lost its nanoseconds, not an integer.
        if (e == null || !e.isJsonPrimitive() || !e.getAsJsonPrimitive().isNumber()
                || !INTEGER.matcher(e.getAsString()).matches()) {
            throw error(what + " must be an integer (nanoseconds, digits only), got " + e);
        }
        try {
            return Long.parseLong(e.getAsString());
        } catch (NumberFormatException x) {
            throw error(what + " must be a 64-bit integer, got " + e.getAsString());
        }
    }

    private FrameLogException error(String message) {
        return new FrameLogException(lineNumber, message);
    }
}
