package io.gfxstats.trace.output;

import io.gfxstats.trace.ProcessSummary;
import io.gfxstats.trace.Trace;
import io.gfxstats.trace.TraceFrames;
import java.util.ArrayList;
import java.util.List;

/**
 * What the writers print: the trace, the selected processes with their frames and summaries, and
 * how it was read.
 *
 * @param source   the input's name ({@code -} is stdin)
 * @param platform {@code ohos}, {@code android} or {@code ohos+android}
 */
public record TraceReport(String source, String platform, Trace trace, List<TraceFrames.ProcessFrames> processes,
                          List<ProcessSummary> summaries) {

    public static TraceReport of(String source, String platform, Trace trace, List<TraceFrames.ProcessFrames> selected) {
        long span = span(trace);
        List<ProcessSummary> summaries = new ArrayList<>();
        for (TraceFrames.ProcessFrames pf : selected) {
            summaries.add(ProcessSummary.of(pf, span));
        }
        return new TraceReport(source, platform, trace, List.copyOf(selected), List.copyOf(summaries));
    }

    /** Last minus first event timestamp of the whole trace, 0 for fewer than two events. */
    public static long span(Trace trace) {
        long first = trace.stats().firstTs();
        long last = trace.stats().lastTs();
        return last > first ? last - first : 0;
    }

    public long clockOffsetNanos() {
        return trace.clockOffset().nanos();
    }
}
