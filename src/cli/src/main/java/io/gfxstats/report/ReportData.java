package io.gfxstats.report;

import io.gfxstats.dayfile.DayFileException;
import io.gfxstats.dayfile.StatsProtos;
import io.gfxstats.proto.GraphicsStatsProto;
import io.gfxstats.stats.ProfileData;
import io.gfxstats.store.Days;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a report shows, computed from dump entries with the dump's own arithmetic: the sum of
 * every entry, each retained day, and each (package, version).
 *
 * @param title  the report's heading
 * @param source where the numbers come from, in words ("daemon at ...", "framestats capture ...")
 * @param total  every entry merged
 * @param days   per UTC day of the entries' start, oldest first (one "capture" day for offline input)
 * @param apps   per (package, version), in name order
 * @param frames each frame over time, for an offline capture; null when the input has none
 */
public record ReportData(String title, String source, long generatedAtMillis, ProfileData total, List<Day> days,
                         List<App> apps, List<Scene> scenes, List<FrameTimeline> frameTimelines, FrameSeries frames) {
    /** The same report with each frame of the capture over time. */
    public ReportData withFrames(FrameSeries series) {
        return new ReportData(title, source, generatedAtMillis, total, days, apps, scenes, frameTimelines, series);
    }

    /**
     * The FrameTimeline counters of one (package, version) summed over the report's days, named as
     * {@code gfxstats dump --frametimeline} prints them ({@link FrameTimelineBlocks}).
     */
    public record FrameTimeline(String packageName, long versionCode, Map<String, Long> counters) {
        public long get(String name) {
            return counters.getOrDefault(name, 0L);
        }
    }

    /** The same report with FrameTimeline rows: the blocks of the kept days, summed per (package, version). */
    public ReportData withFrameTimeline(List<FrameTimelineBlocks.Block> blocks, long oldestKept) {
        Map<String, FrameTimeline> sums = new TreeMap<>();
        for (FrameTimelineBlocks.Block b : blocks) {
            if ((b.statsStart() > 0 ? Days.dayStart(b.statsStart()) : 0) < oldestKept) {
                continue;
            }
            FrameTimeline f = sums.computeIfAbsent(b.packageName() + "\u0000" + String.format("%020d", b.versionCode()),
                    k -> new FrameTimeline(b.packageName(), b.versionCode(), new LinkedHashMap<>()));
            b.counters().forEach((name, v) -> f.counters().merge(name, v, Long::sum));
        }
        return new ReportData(title, source, generatedAtMillis, total, days, apps, scenes, List.copyOf(sums.values()),
                frames);
    }

    /**
     * One named scene of one package over the report's days (the daemon's Scenes call).
     *
     * @param levels frames per Matrix dropped-frame level, best to frozen
     */
    public record Scene(String packageName, String scene, long frames, long janky, long[] levels, double matrixFps) {
    }

    /** The same report with per-scene rows. */
    public ReportData withScenes(List<Scene> rows) {
        return new ReportData(title, source, generatedAtMillis, total, days, apps, List.copyOf(rows), frameTimelines,
                frames);
    }

    /** UTC midnight of the oldest day a report of the newest {@code days} days keeps (0 days: all). */
    public static long oldestKept(List<GraphicsStatsProto> entries, int days) {
        long newest = 0;
        for (GraphicsStatsProto e : entries) {
            newest = Math.max(newest, dayOf(e));
        }
        return days > 0 && newest > 0 ? newest - (days - 1) * Days.MILLIS_PER_DAY : Long.MIN_VALUE;
    }

    /** @param dayStart UTC midnight in milliseconds, or 0 for entries without a start (offline captures) */
    public record Day(long dayStart, ProfileData data) {
        public String label() {
            return dayStart == 0 ? "capture" : Days.date(dayStart).toString();
        }
    }

    /**
     * @param ringDropped frames its clients recorded but could not count because a recording ring
     *                    was full (in no counter of {@code data})
     */
    public record App(String packageName, long versionCode, ProfileData data, long ringDropped) {
        public App(String packageName, long versionCode, ProfileData data) {
            this(packageName, versionCode, data, 0);
        }
    }

    /**
     * @param days keep only the entries of the newest {@code days} days (0: all)
     * @throws DayFileException.HistogramMismatch for an entry whose histograms contradict its counts
     */
    public static ReportData of(List<GraphicsStatsProto> entries, int days, String title, String source,
                                long nowMillis) throws DayFileException.HistogramMismatch {
        long oldestKept = oldestKept(entries, days);
        ProfileData total = new ProfileData();
        Map<Long, ProfileData> byDay = new TreeMap<>();
        Map<String, App> byApp = new TreeMap<>();
        Map<String, Long> lost = new TreeMap<>();
        for (GraphicsStatsProto e : entries) {
            long day = dayOf(e);
            if (day < oldestKept) {
                continue;
            }
            ProfileData d = StatsProtos.toProfileData(e);
            total.merge(d);
            byDay.computeIfAbsent(day, k -> new ProfileData()).merge(d);
            String app = e.getPackageName() + "\u0000" + String.format("%020d", e.getVersionCode());
            byApp.computeIfAbsent(app, k -> new App(e.getPackageName(), e.getVersionCode(), new ProfileData()))
                    .data().merge(d);
            lost.merge(app, e.getGfxstatsRingDroppedFrames(), Long::sum);
        }
        List<App> apps = new ArrayList<>();
        byApp.forEach((k, a) -> apps.add(new App(a.packageName(), a.versionCode(), a.data(), lost.get(k))));
        List<Day> dayList = new ArrayList<>();
        byDay.forEach((k, v) -> dayList.add(new Day(k, v)));
        return new ReportData(title, source, nowMillis, total, List.copyOf(dayList), List.copyOf(apps),
                List.of(), List.of(), null);
    }

    private static long dayOf(GraphicsStatsProto e) {
        return e.getStatsStart() > 0 ? Days.dayStart(e.getStatsStart()) : 0;
    }
}
