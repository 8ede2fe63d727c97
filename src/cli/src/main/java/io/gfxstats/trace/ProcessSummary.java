package io.gfxstats.trace;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * What {@code gfxstats trace} prints per process (issue 14, deliverable 6): frame counts, janky
 * and flag-3 counts, FPS over the traced span, frame-time percentiles (nearest rank), the worst
 * frames and the longest run of consecutive janky frames.
 */
public record ProcessSummary(String name, int pid, int frames, int linked, int unlinked, int empty, int unfinished,
                             int janky, int abnormalStart, double jankyPercent, double fps,
                             long p50, long p90, long p95, long p99, List<TraceFrame> worst, int longestJankStreak) {
    public static final int WORST = 5;

    public static ProcessSummary of(TraceFrames.ProcessFrames pf, long spanNanos) {
        int linked = 0;
        int unlinked = 0;
        int empty = 0;
        int unfinished = 0;
        int janky = 0;
        int abnormal = 0;
        int streak = 0;
        int longest = 0;
        List<TraceFrame> counted = new ArrayList<>();
        for (TraceFrame f : pf.frames()) {
            if (f.empty()) {
                empty++;
                continue;
            }
            if (!f.finished()) {
                unfinished++;
                continue;
            }
            counted.add(f);
            if (f.linked()) {
                linked++;
            } else {
                unlinked++;
            }
            if (f.janky()) {
                janky++;
                streak++;
                longest = Math.max(longest, streak);
            } else {
                streak = 0;
            }
            if (f.flag() == FrameTable.FLAG_ABNORMAL_START) {
                abnormal++;
            }
        }
        long[] times = counted.stream().mapToLong(TraceFrame::frameTime).sorted().toArray();
        List<TraceFrame> worst = counted.stream()
                .sorted(Comparator.comparingLong(TraceFrame::frameTime).reversed().thenComparingLong(TraceFrame::timelineStart))
                .limit(WORST).toList();
        double percent = counted.isEmpty() ? 0 : 100.0 * janky / counted.size();
        double fps = spanNanos > 0 ? counted.size() * 1e9 / spanNanos : 0;
        return new ProcessSummary(pf.name(), pf.pid(), counted.size(), linked, unlinked, empty, unfinished, janky,
                abnormal, percent, fps, rank(times, 50), rank(times, 90), rank(times, 95), rank(times, 99), worst, longest);
    }

    /** Nearest-rank percentile; UNKNOWN without frames. */
    static long rank(long[] sorted, int percentile) {
        if (sorted.length == 0) {
            return TraceFrame.UNKNOWN;
        }
        int index = (int) Math.ceil(percentile / 100.0 * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
    }
}
