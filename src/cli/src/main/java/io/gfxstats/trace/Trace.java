package io.gfxstats.trace;

import java.util.List;

/**
 * Everything one pass over a trace found. {@code callSlices} are the slices that frames'
 * {@code callstack} ids name, in id order.
 */
public record Trace(FrameTable table,
                    List<AndroidFrames.Frame> androidFrames,
                    List<ThreadInfo> threads,
                    List<ProcessInfo> processes,
                    ClockOffset.Applied clockOffset,
                    TraceReader.Stats stats,
                    boolean hasOhosMarkers,
                    List<CallSlice> callSlices) {

    public boolean hasAndroidFrames() {
        return !androidFrames.isEmpty();
    }

    /** Thread by internal id (1-based). */
    public ThreadInfo thread(int itid) {
        return threads.get(itid - 1);
    }

    public ProcessInfo process(int ipid) {
        return processes.get(ipid - 1);
    }
}
