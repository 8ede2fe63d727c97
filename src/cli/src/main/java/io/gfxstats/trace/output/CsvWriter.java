package io.gfxstats.trace.output;

import io.gfxstats.trace.TraceFrame;
import io.gfxstats.trace.TraceFrames;
import java.io.PrintStream;

/** One row per frame of the selected processes (spec 7.2), ns integers, empty cells for unknown. */
public final class CsvWriter {
    public static final String HEADER = "process,pid,tid,role,vsync_id,frame_index,app_start,app_end,expected_start,"
            + "expected_end,render_start,render_end,render_expected_start,render_expected_end,gpu_dur,timeline_start,"
            + "timeline_end,frame_time,period,flag,jank_reason,clock_offset_ns";

    private CsvWriter() {
    }

    public static void write(TraceReport report, PrintStream out) {
        out.println(HEADER);
        String offset = Long.toString(report.clockOffsetNanos());
        StringBuilder sb = new StringBuilder(256);
        for (TraceFrames.ProcessFrames pf : report.processes()) {
            String process = Text.csv(pf.name());
            for (TraceFrame f : pf.frames()) {
                sb.setLength(0);
                sb.append(process).append(',').append(f.pid()).append(',').append(f.tid()).append(',')
                        .append(f.role()).append(',').append(Text.cell(f.vsyncId())).append(',')
                        .append(Text.cell(f.frameIndex())).append(',').append(Text.cell(f.appStart())).append(',')
                        .append(Text.cell(f.appEnd())).append(',').append(Text.cell(f.expectedStart())).append(',')
                        .append(Text.cell(f.expectedEnd())).append(',').append(Text.cell(f.renderStart())).append(',')
                        .append(Text.cell(f.renderEnd())).append(',').append(Text.cell(f.renderExpectedStart()))
                        .append(',').append(Text.cell(f.renderExpectedEnd())).append(',')
                        .append(Text.cell(f.gpuDur())).append(',').append(Text.cell(f.timelineStart())).append(',')
                        .append(Text.cell(f.timelineEnd())).append(',').append(Text.cell(f.frameTime())).append(',')
                        .append(Text.cell(f.period())).append(',').append(f.flag()).append(',')
                        .append(f.jankReason()).append(',').append(offset);
                out.println(sb);
            }
        }
    }
}
