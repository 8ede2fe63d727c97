package io.gfxstats.trace.output;

import io.gfxstats.json.JsonText;
import io.gfxstats.trace.ProcessSummary;
import io.gfxstats.trace.TraceFrame;
import io.gfxstats.trace.TraceFrames;
import java.io.PrintStream;
import java.util.Locale;

/**
 * {@code {"trace":{...},"processes":[{"process":..,"pid":..,"summary":{..},"frames":[..]}]}}; frame
 * objects have the CSV's fields.
 */
public final class JsonWriter {
    private JsonWriter() {
    }

    public static void write(TraceReport report, PrintStream out) {
        StringBuilder sb = new StringBuilder(1 << 16);
        sb.append("{\"trace\":{\"source\":").append(JsonText.quote(report.source()))
                .append(",\"platform\":").append(JsonText.quote(report.platform()))
                .append(",\"clock_offset_ns\":").append(report.clockOffsetNanos())
                .append(",\"clock_offset_source\":").append(JsonText.quote(report.trace().clockOffset().source()))
                .append(",\"first_ts\":").append(report.trace().stats().firstTs())
                .append(",\"last_ts\":").append(report.trace().stats().lastTs())
                .append(",\"span_ns\":").append(TraceReport.span(report.trace()))
                .append("},\"processes\":[");
        for (int p = 0; p < report.processes().size(); p++) {
            TraceFrames.ProcessFrames pf = report.processes().get(p);
            ProcessSummary s = report.summaries().get(p);
            if (p > 0) {
                sb.append(',');
            }
            sb.append("\n{\"process\":").append(JsonText.quote(pf.name())).append(",\"pid\":").append(pf.pid())
                    .append(",\"summary\":{\"frames\":").append(s.frames())
                    .append(",\"linked\":").append(s.linked()).append(",\"unlinked\":").append(s.unlinked())
                    .append(",\"empty\":").append(s.empty()).append(",\"unfinished\":").append(s.unfinished())
                    .append(",\"janky\":").append(s.janky())
                    .append(",\"janky_percent\":").append(String.format(Locale.ROOT, "%.4f", s.jankyPercent()))
                    .append(",\"abnormal_render_start\":").append(s.abnormalStart())
                    .append(",\"fps\":").append(String.format(Locale.ROOT, "%.4f", s.fps()))
                    .append(",\"p50_ns\":").append(Text.json(s.p50())).append(",\"p90_ns\":").append(Text.json(s.p90()))
                    .append(",\"p95_ns\":").append(Text.json(s.p95())).append(",\"p99_ns\":").append(Text.json(s.p99()))
                    .append(",\"longest_jank_streak\":").append(s.longestJankStreak())
                    .append("},\"frames\":[");
            for (int i = 0; i < pf.frames().size(); i++) {
                TraceFrame f = pf.frames().get(i);
                if (i > 0) {
                    sb.append(',');
                }
                sb.append("\n{\"tid\":").append(f.tid()).append(",\"role\":").append(JsonText.quote(f.role()))
                        .append(",\"vsync_id\":").append(Text.json(f.vsyncId()))
                        .append(",\"frame_index\":").append(Text.json(f.frameIndex()))
                        .append(",\"app_start\":").append(Text.json(f.appStart()))
                        .append(",\"app_end\":").append(Text.json(f.appEnd()))
                        .append(",\"expected_start\":").append(Text.json(f.expectedStart()))
                        .append(",\"expected_end\":").append(Text.json(f.expectedEnd()))
                        .append(",\"render_start\":").append(Text.json(f.renderStart()))
                        .append(",\"render_end\":").append(Text.json(f.renderEnd()))
                        .append(",\"render_expected_start\":").append(Text.json(f.renderExpectedStart()))
                        .append(",\"render_expected_end\":").append(Text.json(f.renderExpectedEnd()))
                        .append(",\"gpu_dur\":").append(Text.json(f.gpuDur()))
                        .append(",\"timeline_start\":").append(Text.json(f.timelineStart()))
                        .append(",\"timeline_end\":").append(Text.json(f.timelineEnd()))
                        .append(",\"frame_time\":").append(Text.json(f.frameTime()))
                        .append(",\"period\":").append(Text.json(f.period()))
                        .append(",\"flag\":").append(f.flag())
                        .append(",\"jank_reason\":").append(JsonText.quote(f.jankReason())).append('}');
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
