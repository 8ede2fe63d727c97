package io.gfxstats.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.gfxstats.timeline.ReferenceFrameTimeline;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Random sequences of display and surface frames, classified by {@code gfxstats timeline classify}
 * and by {@link ReferenceFrameTimeline} (a second transcription of the spec, table-driven), must
 * agree on every field. Times are drawn from a small range so that equalities and threshold edges
 * come up often; the test also checks that every jank bit and outcome was exercised.
 */
class TimelineClassifyDifferentialTest {
    private static final int SEQUENCES = 1500;
    private static final long[] PERIODS = {0, 1, 5, 11, 16, 30, 32};

    @Test
    void shouldAgreeWithTheReferenceClassifierOnRandomSequences() throws Exception {
        SplittableRandom random = new SplittableRandom(0x5F_2025_11L);
        Set<String> seen = new TreeSet<>();
        int frames = 0;
        for (int n = 0; n < SEQUENCES; n++) {
            long presentT = random.nextInt(4) == 0 ? random.nextInt(6) : 2;
            long deadlineT = random.nextInt(4) == 0 ? random.nextInt(4) : 0;
            long startT = random.nextInt(4) == 0 ? random.nextInt(6) : 2;
            List<JsonObject> lines = sequence(random);
            StringBuilder stdin = new StringBuilder();
            for (JsonObject line : lines) {
                stdin.append(line).append('\n');
            }
            CliRun run = CliRun.command(new TimelineCommand(), stdin.toString(), "classify",
                    "--present-threshold-ns", Long.toString(presentT), "--deadline-threshold-ns", Long.toString(deadlineT),
                    "--start-threshold-ns", Long.toString(startT), "-");
            assertEquals(0, run.exit(), run.stderr());
            List<JsonObject> expected = new ReferenceFrameTimeline(presentT, deadlineT, startT).classify(lines);
            String[] got = run.out().split("\n");
            assertEquals(expected.size(), got.length, "one output line per input line");
            for (int i = 0; i < got.length; i++) {
                JsonObject actual = JsonParser.parseString(got[i]).getAsJsonObject();
                assertEquals(expected.get(i), actual, "sequence " + n + " line " + (i + 1) + " thresholds "
                        + presentT + "/" + deadlineT + "/" + startT + "\ninput: " + lines.get(i));
                record(seen, actual, "df.");
                for (JsonElement s : actual.getAsJsonArray("surfaces")) {
                    record(seen, s.getAsJsonObject(), "sf.");
                }
                frames++;
            }
        }
        for (String must : List.of("df.jank.DisplayHAL", "df.jank.SurfaceFlingerCpuDeadlineMissed",
                "df.jank.SurfaceFlingerGpuDeadlineMissed", "df.jank.PredictionError", "df.jank.SurfaceFlingerScheduling",
                "df.jank.Unknown", "df.jank.SurfaceFlingerStuffing", "df.jank.None", "df.start.late", "df.start.early",
                "df.severity.partial", "df.severity.full", "df.severity.unknown", "df.present.early",
                "sf.jank.AppDeadlineMissed", "sf.jank.BufferStuffing", "sf.jank.Dropped", "sf.jank.Unknown",
                "sf.jank.SurfaceFlingerStuffing", "sf.jank.DisplayHAL", "sf.jank.PredictionError",
                "sf.jank.SurfaceFlingerScheduling", "sf.jank.SurfaceFlingerGpuDeadlineMissed", "sf.finish.unknown",
                "sf.present.early", "sf.present.on_time", "sf.severity.unknown", "sf.severity.none")) {
            assertTrue(seen.contains(must), "the random frames never produced " + must + " in " + frames + " frames");
        }
    }

    private static void record(Set<String> seen, JsonObject o, String prefix) {
        for (JsonElement j : o.getAsJsonArray("jank")) {
            seen.add(prefix + "jank." + j.getAsString());
        }
        for (String key : List.of("present", "finish", "start", "severity")) {
            if (o.has(key)) {
                seen.add(prefix + key + "." + o.get(key).getAsString());
            }
        }
    }

    private static List<JsonObject> sequence(SplittableRandom r) {
        List<JsonObject> lines = new ArrayList<>();
        int count = 1 + r.nextInt(12);
        long base = 0;
        for (int i = 0; i < count; i++) {
            base += r.nextInt(40);
            long period = PERIODS[r.nextInt(PERIODS.length)];
            JsonObject line = new JsonObject();
            line.addProperty("token", r.nextInt(3) == 0 ? 1000 + i : r.nextLong(1L << 40));
            boolean expired = r.nextInt(10) == 0;
            line.addProperty("prediction", expired ? "expired" : "valid");
            long ps = base + r.nextInt(10);
            long pe = ps + r.nextInt(12);
            long pp = pe + (r.nextBoolean() ? 0 : r.nextInt(35));
            line.add("predicted", times(ps, pe, pp));
            long as = ps + r.nextInt(9) - 4;
            long ae = as + r.nextInt(20);
            long ap;
            switch (r.nextInt(12)) {
                case 0 -> ap = -1;
                case 1 -> ap = as - 1 - r.nextInt(5);
                default -> ap = pp + (r.nextInt(3) == 0 ? r.nextInt(70) : r.nextInt(9) - 4);
            }
            line.add("actual", times(as, ae, ap));
            line.add("gpu_fence", r.nextInt(3) == 0 ? new com.google.gson.JsonPrimitive(ae + r.nextInt(15) - 5)
                    : JsonNull.INSTANCE);
            line.addProperty("refresh_period", period);
            line.addProperty("render_period", r.nextInt(4) == 0 ? PERIODS[r.nextInt(PERIODS.length)] : period);
            JsonArray surfaces = new JsonArray();
            int n = r.nextInt(4);
            for (int k = 0; k < n; k++) {
                surfaces.add(surface(r, pp, i * 10 + k));
            }
            line.add("surfaces", surfaces);
            lines.add(line);
        }
        return lines;
    }

    private static JsonObject surface(SplittableRandom r, long displayPresent, long token) {
        JsonObject s = new JsonObject();
        s.addProperty("token", token);
        s.addProperty("layer", "layer" + r.nextInt(3));
        int p = r.nextInt(12);
        s.addProperty("prediction", p == 0 ? "expired" : p == 1 ? "none" : "valid");
        long pp = displayPresent - r.nextInt(4) * 11 + r.nextInt(7) - 3;
        long pe = pp - r.nextInt(20);
        long ps = pe - r.nextInt(15);
        s.add("predicted", times(ps, pe, pp));
        JsonObject actual = new JsonObject();
        long ae = pe + r.nextInt(25) - 10;
        actual.addProperty("start", ps + r.nextInt(5));
        actual.addProperty("end", ae);
        s.add("actual", actual);
        s.addProperty("present_state", r.nextInt(8) == 0 ? "dropped" : "presented");
        s.addProperty("last_latch_time", r.nextInt(3) == 0 ? 0 : pe + r.nextInt(20) - 10);
        return s;
    }

    private static JsonObject times(long start, long end, long present) {
        JsonObject o = new JsonObject();
        o.addProperty("start", start);
        o.addProperty("end", end);
        o.addProperty("present", present);
        return o;
    }
}
