package io.gfxstats.timeline.perfetto;

import io.gfxstats.timeline.JankType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.IntPredicate;

/**
 * Perfetto's {@code android_frame_timeline_metric} of one process: frames and missed frames counted
 * per distinct token, durations of the frames not dropped, distinct tokens per jank type and present
 * type, and the newer weighted counts ({@code weighted_missed_*}: each missed frame counts its largest
 * jank severity score). The metric needs every token (it counts distinct ones) and every duration (its
 * percentiles are exact), so each actual SurfaceFrame costs 4 bytes (its duration) and each app frame
 * 13 (its token, jank and present type; the layers of one frame that finish together share them),
 * 17 when the trace has severity scores, in primitive blocks. The counts are worked out once, when
 * first asked for.
 */
public final class ProcessMetric {
    private static final int PRESENT_TYPES = 6;

    /** Columns grow a block at a time: no copy of everything held, no doubling past what is needed. */
    private static final int BLOCK = 1 << 16;

    final int pid;
    private long[][] tokens = new long[0][];
    private int[][] janks = new int[0][];
    private byte[][] presents = new byte[0][];
    /**
     * The largest |jank severity score| of the record's slices. A block is made only when a score
     * other than 0 falls in it: traces before Android 16 have none and pay nothing for the column.
     */
    private float[][] scores = new float[0][];
    private int frames;
    private int[][] durations = new int[0][];
    private int durationCount;
    /** Durations of 2^31 ns (2.1 s) or more: rare, so kept apart from the 4-byte column. */
    private long[] longDurations = new long[0];
    private int longCount;
    private Counts counts;
    /** Whether tokens were added in non-decreasing order. */
    private boolean ascending = true;
    private long[] scratch;

    ProcessMetric(int pid) {
        this.pid = pid;
    }

    void add(long token, int protoJank, int presentType, long dur, boolean dropped) {
        add(token, protoJank, presentType, dur, dropped, 0f);
    }

    /** A frame slice with its {@code jank_severity_score} ({@code score}; 0 when the trace has none). */
    void add(long token, int protoJank, int presentType, long dur, boolean dropped, float score) {
        // Perfetto weighs a frame by MAX(ABS(jank_score)) over the token's slices.
        float weight = Float.isNaN(score) ? 0f : Math.abs(score);
        if (durations == null) {
            throw new IllegalStateException("frames added after the metric was counted");
        }
        counts = null;
        if (!dropped && dur >= 0) {
            if (dur > Integer.MAX_VALUE) {
                if (longCount == longDurations.length) {
                    longDurations = Arrays.copyOf(longDurations, Math.max(8, longCount * 2));
                }
                longDurations[longCount++] = dur;
            } else {
                if (durationCount == durations.length * BLOCK) {
                    durations = Arrays.copyOf(durations, durations.length + 1);
                    durations[durations.length - 1] = new int[BLOCK];
                }
                durations[durationCount / BLOCK][durationCount % BLOCK] = (int) dur;
                durationCount++;
            }
        }
        // The layers of one app frame usually finish together: one record for the token then.
        if (frames > 0) {
            int last = frames - 1;
            if (tokens[last / BLOCK][last % BLOCK] == token && janks[last / BLOCK][last % BLOCK] == protoJank
                    && presents[last / BLOCK][last % BLOCK] == presentType) {
                if (weight > score(last)) {
                    setScore(last, weight);
                }
                return;
            }
        }
        if (frames == tokens.length * BLOCK) {
            tokens = Arrays.copyOf(tokens, tokens.length + 1);
            tokens[tokens.length - 1] = new long[BLOCK];
            janks = Arrays.copyOf(janks, janks.length + 1);
            janks[janks.length - 1] = new int[BLOCK];
            presents = Arrays.copyOf(presents, presents.length + 1);
            presents[presents.length - 1] = new byte[BLOCK];
            scores = Arrays.copyOf(scores, scores.length + 1);
        }
        if (frames > 0 && token < token(frames - 1)) {
            ascending = false;
        }
        tokens[frames / BLOCK][frames % BLOCK] = token;
        janks[frames / BLOCK][frames % BLOCK] = protoJank;
        presents[frames / BLOCK][frames % BLOCK] = (byte) presentType;
        if (weight > 0) {
            setScore(frames, weight);
        }
        frames++;
    }

    private long token(int i) {
        return tokens[i / BLOCK][i % BLOCK];
    }

    private int jank(int i) {
        return janks[i / BLOCK][i % BLOCK];
    }

    private int present(int i) {
        return presents[i / BLOCK][i % BLOCK];
    }

    private float score(int i) {
        float[] block = scores[i / BLOCK];
        return block == null ? 0f : block[i % BLOCK];
    }

    private void setScore(int i, float weight) {
        if (scores[i / BLOCK] == null) {
            scores[i / BLOCK] = new float[BLOCK];
        }
        scores[i / BLOCK][i % BLOCK] = weight;
    }

    private record Counts(int total, int missed, int missedApp, int missedSf, int dropped,
            Map<String, int[]> jankTypes, SortedDurations durations, double[] weighted) {
    }

    /**
     * The durations with each block sorted in place (no second copy of them all) and the rare long
     * ones sorted apart: the i-th smallest is found by bisecting on the value, counting in each
     * block how many are at most that.
     */
    private static final class SortedDurations {
        private final int[][] blocks;
        private final int count;
        private final long[] longs;

        SortedDurations(int[][] blocks, int count, long[] longs) {
            this.blocks = blocks;
            this.count = count;
            this.longs = longs;
            for (int b = 0; b < blocks.length; b++) {
                Arrays.sort(blocks[b], 0, blockLength(b));
            }
            Arrays.sort(longs);
        }

        private int blockLength(int b) {
            return Math.min(BLOCK, count - b * BLOCK);
        }

        int size() {
            return count + longs.length;
        }

        long sum() {
            long sum = 0;
            for (int b = 0; b < blocks.length; b++) {
                for (int i = 0, n = blockLength(b); i < n; i++) {
                    sum += blocks[b][i];
                }
            }
            for (long v : longs) {
                sum += v;
            }
            return sum;
        }

        /** The {@code rank}-th smallest (from 0). */
        long get(int rank) {
            if (rank >= count) {
                return longs[rank - count];
            }
            // Every long duration is above every int one: the answer is an int.
            long lo = 0;
            long hi = Integer.MAX_VALUE;
            while (lo < hi) {
                long mid = (lo + hi) >>> 1;
                if (atMost(mid) > rank) {
                    hi = mid;
                } else {
                    lo = mid + 1;
                }
            }
            return lo;
        }

        private long atMost(long value) {
            long n = 0;
            for (int b = 0; b < blocks.length; b++) {
                int[] block = blocks[b];
                int lo = 0;
                int hi = blockLength(b);
                while (lo < hi) {
                    int mid = (lo + hi) >>> 1;
                    if (block[mid] <= value) {
                        lo = mid + 1;
                    } else {
                        hi = mid;
                    }
                }
                n += lo;
            }
            return n;
        }
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
        int total = distinct(i -> true);
        int missed = distinct(i -> (jank(i) & (app | sf | dropped)) != 0);
        int missedApp = distinct(i -> (jank(i) & app) != 0);
        int missedSf = distinct(i -> (jank(i) & sf) != 0);
        int droppedFrames = distinct(i -> (jank(i) & dropped) != 0);
        Map<String, int[]> types = new TreeMap<>();
        Map<Integer, List<String>> names = new LinkedHashMap<>();
        for (int i = 0; i < frames; i++) {
            for (String type : names.computeIfAbsent(jank(i), PerfettoNames::jankTypes)) {
                types.putIfAbsent(type, null);
            }
        }
        for (String type : types.keySet()) {
            int[] byPresent = new int[PRESENT_TYPES + 1];
            for (int p = -1; p < PRESENT_TYPES; p++) {
                int present = p;
                byPresent[p + 1] = distinct(i -> (present < 0 || present(i) == present)
                        && names.get(jank(i)).contains(type));
            }
            types.put(type, byPresent);
        }
        double[] weighted = weighted(app | sf | dropped, app, sf);
        scratch = null;
        SortedDurations sorted = new SortedDurations(durations, durationCount, Arrays.copyOf(longDurations, longCount));
        durations = null;
        return new Counts(total, missed, missedApp, missedSf, droppedFrames, types, sorted, weighted);
    }

    /**
     * Perfetto's weighted_missed_frames, _app_frames and _sf_frames: per distinct token, whether any
     * of its slices has a jank of each kind, times the largest |score| of its slices, summed.
     */
    private double[] weighted(int missedMask, int appMask, int sfMask) {
        // Tokens usually come in order, so a token's records are adjacent; else an index sorted by token.
        int[] order = null;
        if (!ascending) {
            order = new int[frames];
            for (int i = 0; i < frames; i++) {
                order[i] = i;
            }
            sortByToken(order, new int[frames], 0, frames);
        }
        double[] sums = new double[3];
        int i = 0;
        while (i < frames) {
            long token = token(order == null ? i : order[i]);
            int bits = 0;
            float weight = 0f;
            for (; i < frames && token(order == null ? i : order[i]) == token; i++) {
                int r = order == null ? i : order[i];
                bits |= jank(r);
                weight = Math.max(weight, score(r));
            }
            sums[0] += (bits & missedMask) != 0 ? weight : 0.0;
            sums[1] += (bits & appMask) != 0 ? weight : 0.0;
            sums[2] += (bits & sfMask) != 0 ? weight : 0.0;
        }
        return sums;
    }

    /** A stable merge sort of record indices by token (no boxing: a trace may hold millions). */
    private void sortByToken(int[] a, int[] tmp, int from, int to) {
        if (to - from < 2) {
            return;
        }
        int mid = (from + to) >>> 1;
        sortByToken(a, tmp, from, mid);
        sortByToken(a, tmp, mid, to);
        int l = from;
        int r = mid;
        int k = from;
        while (l < mid && r < to) {
            tmp[k++] = token(a[r]) < token(a[l]) ? a[r++] : a[l++];
        }
        while (l < mid) {
            tmp[k++] = a[l++];
        }
        while (r < to) {
            tmp[k++] = a[r++];
        }
        System.arraycopy(tmp, from, a, from, to - from);
    }

    /**
     * Distinct tokens of the frames {@code keep} selects. SurfaceFlinger hands out tokens in
     * increasing order, so in a trace they usually come sorted: then a scan counts them with no
     * copy; otherwise they are copied and sorted.
     */
    private int distinct(IntPredicate keep) {
        int distinct = 0;
        if (ascending) {
            boolean any = false;
            long last = 0;
            for (int i = 0; i < frames; i++) {
                if (keep.test(i) && (!any || token(i) != last)) {
                    distinct++;
                    last = token(i);
                    any = true;
                }
            }
            return distinct;
        }
        if (scratch == null) {
            scratch = new long[frames];
        }
        int n = 0;
        for (int i = 0; i < frames; i++) {
            if (keep.test(i)) {
                scratch[n++] = token(i);
            }
        }
        Arrays.sort(scratch, 0, n);
        for (int i = 0; i < n; i++) {
            if (i == 0 || scratch[i] != scratch[i - 1]) {
                distinct++;
            }
        }
        return distinct;
    }

    /**
     * The metric's top-level {@code jank_types}: per jank type, distinct tokens over every process
     * (two apps drawing for the same vsync share its token, so this is not the sum of the processes'
     * counts), in total and per present type ({@link #jankTypeCount}'s layout). Each process's records
     * are walked in token order - as stored when its tokens came in order, else through an index -
     * and merged, so nothing the size of the trace is copied.
     */
    static Map<String, int[]> jankTypesAcross(Collection<ProcessMetric> metrics) {
        List<ProcessMetric> ms = new ArrayList<>(metrics);
        Map<String, int[]> out = new TreeMap<>();
        for (ProcessMetric m : ms) {
            for (String type : m.jankTypeNames()) {
                out.putIfAbsent(type, null);
            }
        }
        int[][] orders = new int[ms.size()][];
        for (int k = 0; k < ms.size(); k++) {
            ProcessMetric m = ms.get(k);
            if (!m.ascending) {
                int[] order = new int[m.frames];
                for (int i = 0; i < m.frames; i++) {
                    order[i] = i;
                }
                m.sortByToken(order, new int[m.frames], 0, m.frames);
                orders[k] = order;
            }
        }
        Map<Integer, List<String>> names = new HashMap<>();
        for (String type : out.keySet()) {
            int[] byPresent = new int[PRESENT_TYPES + 1];
            for (int p = -1; p < PRESENT_TYPES; p++) {
                int present = p;
                byPresent[p + 1] = mergedDistinct(ms, orders, (m, r) -> (present < 0 || m.present(r) == present)
                        && names.computeIfAbsent(m.jank(r), PerfettoNames::jankTypes).contains(type));
            }
            out.put(type, byPresent);
        }
        return out;
    }

    private interface RecordTest {
        boolean test(ProcessMetric m, int record);
    }

    /** Distinct tokens of the records {@code keep} selects in any process: a k-way merge in token order. */
    private static int mergedDistinct(List<ProcessMetric> ms, int[][] orders, RecordTest keep) {
        int[] pos = new int[ms.size()];
        int distinct = 0;
        boolean any = false;
        long last = 0;
        while (true) {
            int best = -1;
            long bestToken = 0;
            for (int k = 0; k < ms.size(); k++) {
                ProcessMetric m = ms.get(k);
                while (pos[k] < m.frames && !keep.test(m, orders[k] == null ? pos[k] : orders[k][pos[k]])) {
                    pos[k]++;
                }
                if (pos[k] < m.frames) {
                    long t = m.token(orders[k] == null ? pos[k] : orders[k][pos[k]]);
                    if (best < 0 || t < bestToken) {
                        best = k;
                        bestToken = t;
                    }
                }
            }
            if (best < 0) {
                return distinct;
            }
            if (!any || bestToken != last) {
                distinct++;
                last = bestToken;
                any = true;
            }
            pos[best]++;
        }
    }

    /** The process's id in the trace. */
    public int pid() {
        return pid;
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

    /** Perfetto's weighted_missed_frames: each missed frame (app, SurfaceFlinger or dropped) weighted by its jank severity score. */
    public double weightedMissedFrames() {
        return counts().weighted[0];
    }

    /** Perfetto's weighted_missed_app_frames. */
    public double weightedMissedAppFrames() {
        return counts().weighted[1];
    }

    /** Perfetto's weighted_missed_sf_frames. */
    public double weightedMissedSfFrames() {
        return counts().weighted[2];
    }

    public long durMax() {
        SortedDurations d = counts().durations;
        return d.size() == 0 ? 0 : d.get(d.size() - 1);
    }

    public long durAvg() {
        SortedDurations d = counts().durations;
        return d.size() == 0 ? 0 : d.sum() / d.size();
    }

    /** Percentile with linear interpolation between ranks, as the metric computes it. */
    public double durPercentile(double p) {
        SortedDurations d = counts().durations;
        int n = d.size();
        if (n == 0) {
            return 0;
        }
        double rank = p / 100.0 * (n - 1);
        int lo = (int) Math.floor(rank);
        int hi = Math.min(lo + 1, n - 1);
        long low = d.get(lo);
        return low + (rank - lo) * (d.get(hi) - low);
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
