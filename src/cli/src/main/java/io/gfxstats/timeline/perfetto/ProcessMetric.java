package io.gfxstats.timeline.perfetto;

import io.gfxstats.timeline.JankType;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Perfetto's {@code android_frame_timeline_metric} of one process: frames and missed frames counted
 * per distinct token, durations of the frames not dropped, distinct tokens per jank type and present
 * type. The metric needs every token (it counts distinct ones) and every duration (its percentiles
 * are exact), so each actual SurfaceFrame costs 21 bytes in primitive arrays and nothing else; the
 * counts are worked out once, when first asked for.
 */
public final class ProcessMetric {
    private static final int PRESENT_TYPES = 6;

    final int pid;
    private long[] tokens = new long[64];
    private int[] janks = new int[64];
    private byte[] presents = new byte[64];
    private int frames;
    private long[] durations = new long[64];
    private int durationCount;
    private Counts counts;

    ProcessMetric(int pid) {
        this.pid = pid;
    }

    void add(long token, int protoJank, int presentType, long dur, boolean dropped) {
        if (frames == tokens.length) {
            int n = frames * 2;
            tokens = Arrays.copyOf(tokens, n);
            janks = Arrays.copyOf(janks, n);
            presents = Arrays.copyOf(presents, n);
        }
        tokens[frames] = token;
        janks[frames] = protoJank;
        presents[frames] = (byte) presentType;
        frames++;
        if (!dropped && dur >= 0) {
            if (durationCount == durations.length) {
                durations = Arrays.copyOf(durations, durationCount * 2);
            }
            durations[durationCount++] = dur;
        }
        counts = null;
    }

    private record Counts(int total, int missed, int missedApp, int missedSf, int dropped,
            Map<String, int[]> jankTypes, long[] sortedDurations) {
    }

    private Counts counts() {
        if (counts == null) {
            counts = count();
        }
        return counts;
    }

    private Counts count() {
        int app = JankType.toProto(JankType.PERFETTO_APP_JANK);
        int sf = JankType.toProto(JankType.PERFETTO_SF_JANK);
        int dropped = JankType.toProto(JankType.DROPPED);
        // One pass per question over a reused scratch array: memory stays at one more long per frame.
        long[] scratch = new long[frames];
        int total = distinct(scratch, 0);
        int missed = distinct(scratch, app | sf | dropped);
        int missedApp = distinct(scratch, app);
        int missedSf = distinct(scratch, sf);
        int droppedFrames = distinct(scratch, dropped);
        Map<String, int[]> types = new TreeMap<>();
        Map<Integer, java.util.List<String>> names = new LinkedHashMap<>();
        for (int i = 0; i < frames; i++) {
            for (String type : names.computeIfAbsent(janks[i], PerfettoNames::jankTypes)) {
                types.putIfAbsent(type, null);
            }
        }
        for (String type : types.keySet()) {
            int[] byPresent = new int[PRESENT_TYPES + 1];
            for (int p = -1; p < PRESENT_TYPES; p++) {
                int n = 0;
                for (int i = 0; i < frames; i++) {
                    if ((p < 0 || presents[i] == p) && names.get(janks[i]).contains(type)) {
                        scratch[n++] = tokens[i];
                    }
                }
                byPresent[p + 1] = distinctCount(scratch, n);
            }
            types.put(type, byPresent);
        }
        long[] sorted = Arrays.copyOf(durations, durationCount);
        Arrays.sort(sorted);
        return new Counts(total, missed, missedApp, missedSf, droppedFrames, types, sorted);
    }

    /** Distinct tokens of the frames with any of the jank bits {@code anyOf} (0: all frames). */
    private int distinct(long[] scratch, int anyOf) {
        int n = 0;
        for (int i = 0; i < frames; i++) {
            if (anyOf == 0 || (janks[i] & anyOf) != 0) {
                scratch[n++] = tokens[i];
            }
        }
        return distinctCount(scratch, n);
    }

    private static int distinctCount(long[] values, int n) {
        Arrays.sort(values, 0, n);
        int distinct = 0;
        for (int i = 0; i < n; i++) {
            if (i == 0 || values[i] != values[i - 1]) {
                distinct++;
            }
        }
        return distinct;
    }

    public int totalFrames() {
        return counts().total;
    }

    public int missedFrames() {
        return counts().missed;
    }

    public int missedAppFrames() {
        return counts().missedApp;
    }

    public int missedSfFrames() {
        return counts().missedSf;
    }

    public int droppedFrames() {
        return counts().dropped;
    }

    public long durMax() {
        long[] d = counts().sortedDurations;
        return d.length == 0 ? 0 : d[d.length - 1];
    }

    public long durAvg() {
        long[] d = counts().sortedDurations;
        long sum = 0;
        for (long v : d) {
            sum += v;
        }
        return d.length == 0 ? 0 : sum / d.length;
    }

    /** Percentile with linear interpolation between ranks, as the metric computes it. */
    public double durPercentile(double p) {
        long[] sorted = counts().sortedDurations;
        if (sorted.length == 0) {
            return 0;
        }
        double rank = p / 100.0 * (sorted.length - 1);
        int lo = (int) Math.floor(rank);
        int hi = Math.min(lo + 1, sorted.length - 1);
        return sorted[lo] + (rank - lo) * (sorted[hi] - sorted[lo]);
    }

    /** Distinct tokens with this jank type, in total ({@code present} -1) or with present type {@code present}. */
    public int jankTypeCount(String type, int present) {
        int[] byPresent = counts().jankTypes.get(type);
        return byPresent == null ? 0 : byPresent[present + 1];
    }

    public Set<String> jankTypeNames() {
        return counts().jankTypes.keySet();
    }
}
