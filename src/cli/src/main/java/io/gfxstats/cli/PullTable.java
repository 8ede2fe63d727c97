package io.gfxstats.cli;

import io.gfxstats.proto.GraphicsStatsHistogramBucketProto;
import io.gfxstats.proto.GraphicsStatsJankSummaryProto;
import io.gfxstats.proto.GraphicsStatsProto;
import io.gfxstats.rpc.v1.PullResponse;
import io.gfxstats.rpc.v1.PulledEntry;
import io.gfxstats.stats.Percentiles;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * The pull as a table for a terminal: one line per (uid, package, version) with its time span
 * (UTC), frame and jank counts and the CPU frame-time percentiles as dumps compute them.
 */
final class PullTable {
    private static final String[] HEADER = {"PACKAGE", "VERSION", "UID", "START (UTC)", "END (UTC)", "FRAMES",
        "JANKY", "JANKY%", "VSYNC", "INPUT", "SLOW_UI", "BITMAP", "DRAW", "DEADLINE", "P50", "P90", "P95", "P99"};
    /** Columns 0 and 3, 4 are text (left-aligned); the rest are numbers. */
    private static final boolean[] LEFT = {true, false, false, true, true, false, false, false, false, false, false,
        false, false, false, false, false, false, false};
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss", Locale.ROOT)
            .withZone(ZoneOffset.UTC);
    private static final DateTimeFormatter DAY = DateTimeFormatter.ofPattern("uuuu-MM-dd", Locale.ROOT)
            .withZone(ZoneOffset.UTC);
    private static final int[] PERCENTILES = {50, 90, 95, 99};

    private PullTable() {
    }

    private record Row(String packageName, long version, int uid, long start, long end, long total, Long janky,
            long[] jank, int[] percentiles) {
    }

    static String render(PullResponse response) {
        List<Row> rows = rows(response);
        rows.sort(Comparator.comparing(Row::packageName).thenComparingLong(Row::version).thenComparing(Row::uid, Integer::compareUnsigned));
        StringBuilder sb = new StringBuilder();
        sb.append("day ").append(DAY.format(Instant.ofEpochMilli(response.getDayStart()))).append(" (UTC): ")
                .append(rows.size()).append(rows.size() == 1 ? " entry" : " entries").append('\n');
        if (rows.isEmpty()) {
            return sb.toString();
        }
        List<String[]> cells = new ArrayList<>();
        cells.add(HEADER);
        for (Row r : rows) {
            cells.add(cells(r));
        }
        int[] width = new int[HEADER.length];
        for (String[] line : cells) {
            for (int c = 0; c < line.length; c++) {
                width[c] = Math.max(width[c], line[c].length());
            }
        }
        for (String[] line : cells) {
            StringBuilder l = new StringBuilder();
            for (int c = 0; c < line.length; c++) {
                String pad = " ".repeat(width[c] - line[c].length());
                if (c > 0) {
                    l.append("  ");
                }
                l.append(LEFT[c] ? line[c] + pad : pad + line[c]);
            }
            sb.append(l.toString().stripTrailing()).append('\n');
        }
        return sb.toString();
    }

    private static String[] cells(Row r) {
        String[] c = new String[HEADER.length];
        c[0] = r.packageName.isEmpty() ? "-" : r.packageName;
        c[1] = Long.toString(r.version);
        c[2] = Integer.toUnsignedString(r.uid);
        c[3] = time(r.start);
        c[4] = time(r.end);
        c[5] = Long.toString(r.total);
        c[6] = r.janky == null ? "-" : Long.toString(r.janky);
        c[7] = r.janky == null || r.total == 0 ? "-"
                : String.format(Locale.ROOT, "%.2f", 100.0 * r.janky / r.total);
        for (int i = 0; i < 6; i++) {
            c[8 + i] = Long.toString(r.jank[i]);
        }
        for (int i = 0; i < PERCENTILES.length; i++) {
            c[14 + i] = r.percentiles[i] + "ms";
        }
        return c;
    }

    private static String time(long epochMillis) {
        return epochMillis == 0 ? "-" : TIME.format(Instant.ofEpochMilli(epochMillis).truncatedTo(ChronoUnit.SECONDS));
    }

    /** From the mergeable protos (they carry the janky count); from the flat entries if a daemon sent only those. */
    private static List<Row> rows(PullResponse response) {
        List<Row> rows = new ArrayList<>();
        if (response.getStats().getStatsCount() > 0 || response.getEntriesCount() == 0) {
            for (GraphicsStatsProto p : response.getStats().getStatsList()) {
                GraphicsStatsJankSummaryProto s = p.getSummary();
                List<GraphicsStatsHistogramBucketProto> h = p.getHistogramList();
                int[] labels = new int[h.size()];
                long[] counts = new long[h.size()];
                for (int i = 0; i < labels.length; i++) {
                    labels[i] = h.get(i).getRenderMillis();
                    counts[i] = h.get(i).getFrameCount();
                }
                rows.add(new Row(p.getPackageName(), p.getVersionCode(), p.getUid(), p.getStatsStart(),
                        p.getStatsEnd(), s.getTotalFrames(), (long) s.getJankyFrames(),
                        new long[] {s.getMissedVsyncCount(), s.getHighInputLatencyCount(), s.getSlowUiThreadCount(),
                            s.getSlowBitmapUploadCount(), s.getSlowDrawCount(), s.getMissedDeadlineCount()},
                        percentiles(s.getTotalFrames(), labels, counts)));
            }
        } else {
            for (PulledEntry e : response.getEntriesList()) {
                int n = Math.min(e.getCpuBucketMillisCount(), e.getCpuBucketCountsCount());
                int[] labels = new int[n];
                long[] counts = new long[n];
                for (int i = 0; i < n; i++) {
                    labels[i] = e.getCpuBucketMillis(i);
                    counts[i] = e.getCpuBucketCounts(i);
                }
                rows.add(new Row(e.getPackageName(), e.getVersionCode(), e.getUid(), e.getStatsStart(),
                        e.getStatsEnd(), e.getTotalFrames(), null,
                        new long[] {e.getMissedVsyncCount(), e.getHighInputLatencyCount(), e.getSlowUiThreadCount(),
                            e.getSlowBitmapUploadCount(), e.getSlowDrawCount(), e.getMissedDeadlineCount()},
                        percentiles(e.getTotalFrames(), labels, counts)));
            }
        }
        return rows;
    }

    /** As the dumps print them: of the summary's total frames, over the CPU histogram. */
    private static int[] percentiles(long total, int[] labels, long[] counts) {
        int[] p = new int[PERCENTILES.length];
        for (int i = 0; i < p.length; i++) {
            p[i] = Percentiles.of(PERCENTILES[i], total, labels, counts);
        }
        return p;
    }
}
