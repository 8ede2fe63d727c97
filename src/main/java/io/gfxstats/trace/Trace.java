package io.gfxstats.trace;

import java.util.List;

/** Everything one pass over a trace found. */
public record Trace(FrameTable table,
                    List<AndroidFrames.Frame> androidFrames,
                    List<TraceParser.ThreadInfo> threads,
                    List<TraceParser.ProcessInfo> processes,
                    ClockOffset.Applied clockOffset,
                    TraceReader.Stats stats,
                    boolean hasOhosMarkers) {

    public boolean hasAndroidFrames() {
        return !androidFrames.isEmpty();
    }

    /** Thread by internal id (1-based). */
    public TraceParser.ThreadInfo thread(int itid) {
        return threads.get(itid - 1);
    }

    public TraceParser.ProcessInfo process(int ipid) {
        return processes.get(ipid - 1);
    }
}
