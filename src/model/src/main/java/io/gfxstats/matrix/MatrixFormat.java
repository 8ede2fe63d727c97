package io.gfxstats.matrix;

import java.util.Locale;

/**
 * The report layouts of Matrix versions: keys, key order and number printing, byte for byte as
 * Android's JSONObject prints them (checked against real reports in the tests).
 *
 * <p>Both start with the device keys, then {@code scene}, {@code dropLevel}, {@code dropSum},
 * {@code fps}, and end with {@code tag}, {@code process}, {@code time}. 2.0.x orders the levels
 * FROZEN to BEST; 2.1.0 orders them BEST to FROZEN and adds, after {@code fps}, the nine average
 * stage durations, {@code GPU_DURATION} (API 31+), {@code DROP_COUNT} and {@code REFRESH_RATE}.
 */
public enum MatrixFormat {
    V2_1("matrix-2.1"),
    V2_0("matrix-2.0");

    /** The report's tag, as Matrix's TracePlugin names it. */
    public static final String TAG = "Trace_FPS";

    private final String cliName;

    MatrixFormat(String cliName) {
        this.cliName = cliName;
    }

    public String cliName() {
        return cliName;
    }

    public static MatrixFormat parse(String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        for (MatrixFormat f : values()) {
            if (f.cliName.equals(t)) {
                return f;
            }
        }
        throw new IllegalArgumentException("unknown Matrix format '" + text + "' (matrix-2.1 or matrix-2.0)");
    }

    /** The report's content object as one line of JSON. */
    public String json(MatrixReport r) {
        AndroidJson j = new AndroidJson().beginObject();
        MatrixDevice d = r.device();
        j.key("machine").value(d.machine())
                .key("cpu_app").value(d.cpuApp())
                .key("mem").value(d.memBytes())
                .key("mem_free").value(d.memFreeKib())
                .key("scene").value(r.scene());
        levels(j.key("dropLevel"), r.dropLevel());
        levels(j.key("dropSum"), r.dropSum());
        j.key("fps").value((double) r.fps());
        if (this == V2_1) {
            long[] durations = r.avgDurations();
            if (durations != null) {
                for (int m = FrameMetric.UNKNOWN_DELAY; m <= FrameMetric.TOTAL; m++) {
                    j.key(FrameMetric.key(m)).value(durations[m]);
                }
                if (r.gpu()) {
                    j.key(FrameMetric.key(FrameMetric.GPU)).value(durations[FrameMetric.GPU]);
                }
            }
            j.key("DROP_COUNT").value(r.dropCount()).key("REFRESH_RATE").value(r.refreshRate());
        }
        j.key("tag").value(TAG).key("process").value(r.process()).key("time").value(r.timeMillis());
        return j.endObject().toString();
    }

    /** The line Matrix's {@code Issue.toString()} logs: {@code tag[..]type[0];key[null];content[..]}. */
    public String issueLine(MatrixReport r) {
        return "tag[" + TAG + "]type[0];key[null];content[" + json(r) + "]";
    }

    private void levels(AndroidJson j, int[] values) {
        j.beginObject();
        if (this == V2_1) {
            for (int level = MatrixRule.BEST; level <= MatrixRule.FROZEN; level++) {
                j.key("DROPPED_" + MatrixRule.levelName(level)).value(values[level]);
            }
        } else {
            for (int level = MatrixRule.FROZEN; level >= MatrixRule.BEST; level--) {
                j.key("DROPPED_" + MatrixRule.levelName(level)).value(values[level]);
            }
        }
        j.endObject();
    }
}
