package io.gfxstats.trace.output;

import io.gfxstats.trace.ProcessSummary;
import io.gfxstats.trace.TraceFrame;
import io.gfxstats.trace.TraceFrames;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;

/**
 * {@code {"trace":{...},"processes":[{"process":..,"pid":..,"summary":{..},"frames":[..]}]}}; frame
 * objects have the CSV's fields, in the camelCase of every gfxstats JSON (pull --json's
 * {@code totalFrames}, {@code jankyFrames}).
 */
public final class JsonWriter {
    private JsonWriter() {
    }

    public static void write(TraceReport report, PrintStream out) {
        // Gson writes straight into the stream (escaping, numbers); nothing holds the whole document.
        Writer text = new BufferedWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), 1 << 16);
        try {
            com.google.gson.stream.JsonWriter w = new com.google.gson.stream.JsonWriter(text);
            w.beginObject().name("trace").beginObject()
                    .name("source").value(report.source())
                    .name("platform").value(report.platform())
                    .name("clockOffsetNs").value(report.clockOffsetNanos())
                    .name("clockOffsetSource").value(report.trace().clockOffset().source())
                    .name("firstTs").value(report.trace().stats().firstTs())
                    .name("lastTs").value(report.trace().stats().lastTs())
                    .name("spanNs").value(TraceReport.span(report.trace()))
                    .endObject().name("processes").beginArray();
            for (int p = 0; p < report.processes().size(); p++) {
                TraceFrames.ProcessFrames pf = report.processes().get(p);
                ProcessSummary s = report.summaries().get(p);
                w.beginObject().name("process").value(pf.name()).name("pid").value(pf.pid())
                        .name("summary").beginObject()
                        .name("totalFrames").value(s.frames())
                        .name("linked").value(s.linked()).name("unlinked").value(s.unlinked())
                        .name("empty").value(s.empty()).name("unfinished").value(s.unfinished())
                        .name("jankyFrames").value(s.janky());
                number(w.name("jankPercent"), s.jankyPercent());
                w.name("abnormalRenderStart").value(s.abnormalStart());
                number(w.name("fps"), s.fps());
                nullable(w.name("p50Ns"), s.p50());
                nullable(w.name("p90Ns"), s.p90());
                nullable(w.name("p95Ns"), s.p95());
                nullable(w.name("p99Ns"), s.p99());
                w.name("longestJankStreak").value(s.longestJankStreak()).endObject().name("frames").beginArray();
                for (TraceFrame f : pf.frames()) {
                    w.beginObject().name("tid").value(f.tid()).name("role").value(f.role());
                    nullable(w.name("vsyncId"), f.vsyncId());
                    nullable(w.name("frameIndex"), f.frameIndex());
                    nullable(w.name("appStart"), f.appStart());
                    nullable(w.name("appEnd"), f.appEnd());
                    nullable(w.name("expectedStart"), f.expectedStart());
                    nullable(w.name("expectedEnd"), f.expectedEnd());
                    nullable(w.name("renderStart"), f.renderStart());
                    nullable(w.name("renderEnd"), f.renderEnd());
                    nullable(w.name("renderExpectedStart"), f.renderExpectedStart());
                    nullable(w.name("renderExpectedEnd"), f.renderExpectedEnd());
                    nullable(w.name("gpuDur"), f.gpuDur());
                    nullable(w.name("timelineStart"), f.timelineStart());
                    nullable(w.name("timelineEnd"), f.timelineEnd());
                    nullable(w.name("frameTime"), f.frameTime());
                    nullable(w.name("period"), f.period());
                    w.name("flag").value(f.flag()).name("jankReason").value(f.jankReason()).endObject();
                }
                w.endArray().endObject();
            }
            w.endArray().endObject();
            w.flush();
            text.write('\n');
            text.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("writing the trace's JSON", e);
        }
    }

    /** A trace time or id, null where the trace has none. */
    private static void nullable(com.google.gson.stream.JsonWriter w, long v) throws IOException {
        if (v == TraceFrame.UNKNOWN) {
            w.nullValue();
        } else {
            w.value(v);
        }
    }

    /** Four decimals, as the summary prints them; null where there is no number (no frames). */
    private static void number(com.google.gson.stream.JsonWriter w, double v) throws IOException {
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            w.nullValue();
        } else {
            w.value(Math.round(v * 10_000) / 10_000.0);
        }
    }
}
