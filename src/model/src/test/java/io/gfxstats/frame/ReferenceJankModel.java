package io.gfxstats.frame;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A second, deliberately plain implementation of spec sections 2-4, written from the spec text
 * for comparison with the production trackers. It shares no code with them: its own field
 * numbers, its own duration rule, histogram buckets found by walking label ranges instead of the
 * index folding, and named counters instead of a flat array.
 *
 * <p>Frames are plain {@code long[23]} in the spec's modern field order.
 */
final class ReferenceJankModel {
    // Spec section 1, modern field order.
    static final int FLAGS = 0;
    static final int INTENDED_VSYNC = 2;
    static final int VSYNC = 3;
    static final int FRAME_DEADLINE = 9;
    static final int FRAME_INTERVAL = 11;
    static final int SYNC_QUEUED = 12;
    static final int SYNC_START = 13;
    static final int ISSUE_DRAW_COMMANDS_START = 14;
    static final int SWAP_BUFFERS = 15;
    static final int FRAME_COMPLETED = 16;
    static final int GPU_COMPLETED = 19;
    static final int SWAP_BUFFERS_COMPLETED = 20;
    static final int FIELDS = 23;

    static final long SURFACE_CANVAS = 4;
    static final long TEN_SECONDS = 10L * 1000 * 1000 * 1000;
    static final long DAVEY = 700L * 1000 * 1000;

    /** Counters, named as in a dump. Histograms keyed by their printed label. */
    static final class Counts {
        long totalFrames;
        long jankyFrames;
        long jankyFramesLegacy;
        long missedVsync;
        long highInputLatency;
        long slowUiThread;
        long slowBitmapUploads;
        long slowIssueDrawCommands;
        long frameDeadlineMissed;
        long frameDeadlineMissedLegacy;
        final Map<Integer, Long> cpu = new LinkedHashMap<>();
        final Map<Integer, Long> gpu = new LinkedHashMap<>();

        Counts() {
            for (int label : cpuLabelsFromSpec()) {
                cpu.put(label, 0L);
            }
            for (int label : gpuLabelsFromSpec()) {
                gpu.put(label, 0L);
            }
        }
    }

    /** "Fast" labels 5..32 by 1, 34..48 by 2, 53..133 by 4; "slow" labels 150..4950 by 50. */
    static List<Integer> cpuLabelsFromSpec() {
        List<Integer> labels = new ArrayList<>();
        for (int l = 5; l <= 32; l++) {
            labels.add(l);
        }
        for (int l = 34; l <= 48; l += 2) {
            labels.add(l);
        }
        for (int l = 53; l <= 133; l += 4) {
            labels.add(l);
        }
        for (int l = 150; l <= 4950; l += 50) {
            labels.add(l);
        }
        return labels;
    }

    static List<Integer> gpuLabelsFromSpec() {
        List<Integer> labels = new ArrayList<>();
        for (int l = 1; l <= 25; l++) {
            labels.add(l);
        }
        labels.add(4950);
        return labels;
    }

    /**
     * The label a whole-millisecond duration is counted under, from the spec's ranges:
     * up to 5 ms in "5"; 6..31 one each; 32-33 in "32" and so on in pairs up to 46-47;
     * 48-51 in "48"; 52-55 in "53" and so on in fours up to 132-135; 136-199 in "150";
     * then 50 ms ranges, all from 4950 up in "4950".
     */
    static int cpuLabelForMillis(long ms) {
        if (ms <= 5) {
            return 5;
        }
        if (ms < 32) {
            return (int) ms;
        }
        if (ms < 48) {
            return (int) (ms - (ms - 32) % 2);
        }
        if (ms < 52) {
            return 48;
        }
        if (ms < 136) {
            return (int) (53 + (ms - 52) / 4 * 4);
        }
        if (ms < 200) {
            return 150;
        }
        return (int) Math.min(4950, ms / 50 * 50);
    }

    /** GPU: 0 ms in "1", ..., 24 ms in "25", 25 ms and more in "4950". */
    static int gpuLabelForMillis(long ms) {
        return ms >= 25 ? 4950 : (int) ms + 1;
    }

    /** Spec section 2. */
    static long duration(long[] f, int start, int end) {
        long gap = f[end] - f[start];
        if (f[start] <= 0) {
            gap = 0;
        }
        boolean crossesSyncQueued = start < SYNC_QUEUED && end > SYNC_QUEUED;
        if (crossesSyncQueued && f[SYNC_START] - f[SYNC_QUEUED] > 0) {
            gap = gap - (f[SYNC_START] - f[SYNC_QUEUED]);
        }
        return gap < 0 ? 0 : gap;
    }

    static void countCpu(Counts c, long nanos) {
        int label = cpuLabelForMillis(nanos / 1_000_000);
        c.cpu.put(label, c.cpu.get(label) + 1);
    }

    static void countGpu(Counts c, long nanos) {
        int label = gpuLabelForMillis(nanos / 1_000_000);
        c.gpu.put(label, c.gpu.get(label) + 1);
    }

    /** The four cause comparisons of a missed frame, thresholds from interval {@code fi}. */
    static void causes(Counts c, long[] f, long fi) {
        long d = duration(f, INTENDED_VSYNC, VSYNC);
        if (d >= 1 && d < TEN_SECONDS) {
            c.missedVsync++;
        }
        d = duration(f, VSYNC, SYNC_START);
        if (d >= (long) (0.5 * fi) && d < TEN_SECONDS) {
            c.slowUiThread++;
        }
        d = duration(f, SYNC_START, ISSUE_DRAW_COMMANDS_START);
        if (d >= (long) (0.2 * fi) && d < TEN_SECONDS) {
            c.slowBitmapUploads++;
        }
        d = duration(f, ISSUE_DRAW_COMMANDS_START, FRAME_COMPLETED);
        if (d >= (long) (0.75 * fi) && d < TEN_SECONDS) {
            c.slowIssueDrawCommands++;
        }
    }

    /** Android 12+ tracker with its legacy accounting (spec section 3). */
    static final class Modern {
        final Counts counts;
        final List<Long> daveys;
        private final long refresh;
        private final long defaultInterval;
        private final boolean deadlinesAlreadyExtended;
        private long nextFrameStartUnstuffed = -1;
        private long swapDeadlineLegacy = -1;

        /** A fresh tracker that counts into {@code counts} and reports Daveys to {@code daveys}. */
        Modern(Counts counts, List<Long> daveys, long refresh, long defaultInterval, boolean deadlinesAlreadyExtended) {
            this.counts = counts;
            this.daveys = daveys;
            this.refresh = refresh;
            this.defaultInterval = defaultInterval;
            this.deadlinesAlreadyExtended = deadlinesAlreadyExtended;
        }

        void frame(long[] f) {
            legacy(f);

            long total = duration(f, INTENDED_VSYNC, FRAME_COMPLETED);
            if (total <= 0) {
                return;
            }
            counts.totalFrames++;
            countCpu(counts, total);
            if ((f[FLAGS] & SURFACE_CANVAS) != 0) {
                return;
            }
            // TrackerConfig: a frame without an interval of its own uses the configured one.
            long fi = f[FRAME_INTERVAL] > 0 ? f[FRAME_INTERVAL] : defaultInterval;
            boolean tripleBuffered = (nextFrameStartUnstuffed - f[INTENDED_VSYNC]) > 0.1 * fi;
            long deadline = f[FRAME_DEADLINE];
            if (tripleBuffered && !deadlinesAlreadyExtended) {
                deadline = deadline + fi;
            }
            if (f[GPU_COMPLETED] < deadline) {
                if (tripleBuffered) {
                    counts.highInputLatency++;
                    nextFrameStartUnstuffed = nextFrameStartUnstuffed + fi;
                }
            } else {
                counts.frameDeadlineMissed++;
                counts.jankyFrames++;
                long jitter = f[GPU_COMPLETED] - f[VSYNC];
                nextFrameStartUnstuffed = f[GPU_COMPLETED] - (jitter % fi) + fi;
                causes(counts, f, fi);
            }
            if (f[GPU_COMPLETED] > 0) {
                long gpu = f[GPU_COMPLETED] - f[SWAP_BUFFERS];
                if (gpu >= 0) {
                    countGpu(counts, gpu);
                }
            }
            if (total >= DAVEY) {
                daveys.add(total);
            }
        }

        private void legacy(long[] f) {
            long t = duration(f, INTENDED_VSYNC, SWAP_BUFFERS_COMPLETED);
            if (t <= 0 || (f[FLAGS] & SURFACE_CANVAS) != 0) {
                return;
            }
            if (t > refresh) {
                counts.jankyFramesLegacy++;
            }
            if (swapDeadlineLegacy < 0) {
                swapDeadlineLegacy = f[INTENDED_VSYNC] + refresh;
            }
            boolean tb = (swapDeadlineLegacy - f[INTENDED_VSYNC]) > 0.1 * refresh;
            swapDeadlineLegacy = Math.max(swapDeadlineLegacy + refresh, f[INTENDED_VSYNC] + refresh);
            if (f[FRAME_COMPLETED] < swapDeadlineLegacy || t < refresh) {
                if (tb) {
                    counts.highInputLatency++;
                }
            } else {
                counts.frameDeadlineMissedLegacy++;
                swapDeadlineLegacy = f[FRAME_COMPLETED] - ((f[FRAME_COMPLETED] - f[VSYNC]) % refresh) + refresh;
            }
        }
    }

    /** The Android 9 tracker (spec section 3, last paragraph). */
    static final class Android9 {
        final Counts counts;
        final List<Long> daveys;
        private final long refresh;
        private long swapDeadline = -1;

        Android9(Counts counts, List<Long> daveys, long refresh) {
            this.counts = counts;
            this.daveys = daveys;
            this.refresh = refresh;
        }

        void frame(long[] f) {
            long total = duration(f, INTENDED_VSYNC, FRAME_COMPLETED);
            if (total <= 0) {
                return;
            }
            counts.totalFrames++;
            countCpu(counts, total);
            if ((f[FLAGS] & SURFACE_CANVAS) != 0) {
                return;
            }
            if (total >= DAVEY) {
                daveys.add(total);
            }
            if (total > refresh) {
                counts.jankyFrames++;
            }
            boolean tb = swapDeadline > f[INTENDED_VSYNC];
            swapDeadline = Math.max(swapDeadline + refresh, f[INTENDED_VSYNC] + refresh);
            if (f[FRAME_COMPLETED] < swapDeadline) {
                if (tb) {
                    counts.highInputLatency++;
                }
                return;
            }
            counts.frameDeadlineMissed++;
            swapDeadline = f[FRAME_COMPLETED] - ((f[FRAME_COMPLETED] - f[VSYNC]) % refresh) + refresh;
            causes(counts, f, refresh);
        }
    }
}
