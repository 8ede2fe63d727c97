package io.gfxstats.trace.output;

import io.gfxstats.trace.ProcessSummary;
import io.gfxstats.trace.TraceFrame;
import java.io.PrintStream;
import java.util.Locale;

/** The default output: a block per selected process, for people. */
public final class SummaryWriter {
    private SummaryWriter() {
    }

    public static void write(TraceReport report, PrintStream out) {
        out.println("Trace: " + report.source() + " (" + report.platform() + ", "
                + String.format(Locale.ROOT, "%.3fs", TraceReport.span(report.trace()) / 1e9) + " traced)");
        out.println("Clock offset: " + report.trace().clockOffset());
        if (report.summaries().isEmpty()) {
            out.println();
            out.println("No frames (no OpenHarmony ReceiveVsync/OnVsyncEvent and no Android Choreographer#doFrame"
                    + " markers in the selected processes).");
        }
        for (ProcessSummary s : report.summaries()) {
            out.println();
            out.println("Process: " + s.name() + " (pid " + s.pid() + ")");
            out.println("Frames: " + s.frames() + " (linked " + s.linked() + ", unlinked " + s.unlinked()
                    + "; empty " + s.empty() + ", unfinished " + s.unfinished() + ")");
            out.println("Janky frames: " + s.janky() + String.format(Locale.ROOT, " (%.2f%%)", s.jankyPercent()));
            out.println("Abnormal render start (flag 3): " + s.abnormalStart());
            out.println("FPS: " + String.format(Locale.ROOT, "%.2f", s.fps()));
            out.println("Frame time: p50 " + Text.ms(s.p50()) + ", p90 " + Text.ms(s.p90()) + ", p95 "
                    + Text.ms(s.p95()) + ", p99 " + Text.ms(s.p99()));
            out.println("Longest jank streak: " + s.longestJankStreak());
            if (!s.worst().isEmpty()) {
                out.println("Worst frames:");
                for (TraceFrame f : s.worst()) {
                    out.println("  " + Text.ms(f.frameTime()) + " at " + f.timelineStart() + " vsync "
                            + (f.vsyncId() == TraceFrame.UNKNOWN ? "-" : Long.toString(f.vsyncId()))
                            + " tid " + f.tid() + " " + f.role() + " flag " + f.flag() + " " + f.jankReason());
                }
            }
        }
    }
}
