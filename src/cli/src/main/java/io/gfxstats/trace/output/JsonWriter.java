package io.gfxstats.trace.output;

import io.gfxstats.json.JsonText;
import io.gfxstats.trace.ProcessSummary;
import io.gfxstats.trace.TraceFrame;
import io.gfxstats.trace.TraceFrames;
import java.io.PrintStream;
import java.util.Locale;

/**
 * {@code {"trace":{...},"processes":[{"process":..,"pid":..,"summary":{..},"frames":[..]}]}}; frame
 * objects have the CSV's fields, in the camelCase of every gfxstats JSON (pull --json's
 * {@code totalFrames}, {@code jankyFrames}).
 */
public final class JsonWriter {
    private JsonWriter() {
    }

    public static void write(TraceReport report, PrintStream out) {
        StringBuilder sb = new StringBuilder(1 << 16);
        sb.append("{\"trace\":{\"source\":").append(JsonText.quote(report.source()))
                .append(",\"platform\":").append(JsonText.quote(report.platform()))
                .append(",\"clockOffsetNs\":").append(report.clockOffsetNanos())
                .append(",\"clockOffsetSource\":").append(JsonText.quote(report.trace().clockOffset().source()))
                .append(",\"firstTs\":").append(report.trace().stats().firstTs())
                .append(",\"lastTs\":").append(report.trace().stats().lastTs())
                .append(",\"spanNs\":").append(TraceReport.span(report.trace()))
                .append("},\"processes\":[");
        for (int p = 0; p < report.processes().size(); p++) {
            TraceFrames.ProcessFrames pf = report.processes().get(p);
            ProcessSummary s = report.summaries().get(p);
            if (p > 0) {
                sb.append(',');
            }
            sb.append("\n{\"process\":").append(JsonText.quote(pf.name())).append(",\"pid\":").append(pf.pid())
                    .append(",\"summary\":{\"totalFrames\":").append(s.frames())
                    .append(",\"linked\":").append(s.linked()).append(",\"unlinked\":").append(s.unlinked())
                    .append(",\"empty\":").append(s.empty()).append(",\"unfinished\":").append(s.unfinished())
                    .append(",\"jankyFrames\":").append(s.janky())
                    .append(",\"jankPercent\":").append(String.format(Locale.ROOT, "%.4f", s.jankyPercent()))
                    .append(",\"abnormalRenderStart\":").append(s.abnormalStart())
                    .append(",\"fps\":").append(String.format(Locale.ROOT, "%.4f", s.fps()))
                    .append(",\"p50Ns\":").append(Text.json(s.p50())).append(",\"p90Ns\":").append(Text.json(s.p90()))
                    .append(",\"p95Ns\":").append(Text.json(s.p95())).append(",\"p99Ns\":").append(Text.json(s.p99()))
                    .append(",\"longestJankStreak\":").append(s.longestJankStreak())
                    .append("},\"frames\":[");
            for (int i = 0; i < pf.frames().size(); i++) {
                TraceFrame f = pf.frames().get(i);
                if (i > 0) {
                    sb.append(',');
                }
                sb.append("\n{\"tid\":").append(f.tid()).append(",\"role\":").append(JsonText.quote(f.role()))
                        .append(",\"vsyncId\":").append(Text.json(f.vsyncId()))
                        .append(",\"frameIndex\":").append(Text.json(f.frameIndex()))
                        .append(",\"appStart\":").append(Text.json(f.appStart()))
                        .append(",\"appEnd\":").append(Text.json(f.appEnd()))
                        .append(",\"expectedStart\":").append(Text.json(f.expectedStart()))
                        .append(",\"expectedEnd\":").append(Text.json(f.expectedEnd()))
                        .append(",\"renderStart\":").append(Text.json(f.renderStart()))
                        .append(",\"renderEnd\":").append(Text.json(f.renderEnd()))
                        .append(",\"renderExpectedStart\":").append(Text.json(f.renderExpectedStart()))
                        .append(",\"renderExpectedEnd\":").append(Text.json(f.renderExpectedEnd()))
                        .append(",\"gpuDur\":").append(Text.json(f.gpuDur()))
                        .append(",\"timelineStart\":").append(Text.json(f.timelineStart()))
                        .append(",\"timelineEnd\":").append(Text.json(f.timelineEnd()))
                        .append(",\"frameTime\":").append(Text.json(f.frameTime()))
                        .append(",\"period\":").append(Text.json(f.period()))
                        .append(",\"flag\":").append(f.flag())
                        .append(",\"jankReason\":").append(JsonText.quote(f.jankReason())).append('}');
                if (sb.length() > (1 << 16)) {
                    out.print(sb);
                    sb.setLength(0);
                }
            }
            sb.append("]}");
        }
        sb.append("]}");
        out.println(sb);
    }
}
