package io.gfxstats.report;

import io.gfxstats.buffer.SceneGroup;
import io.gfxstats.dump.JankyPercent;
import io.gfxstats.matrix.MatrixRule;
import io.gfxstats.palette.CauseColour;
import io.gfxstats.palette.Severity;
import io.gfxstats.stats.BucketBounds;
import io.gfxstats.stats.Histograms;
import io.gfxstats.stats.JankType;
import io.gfxstats.stats.ProfileData;
import io.gfxstats.trace.ProcessSummary;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Properties;

/**
 * Writes a report as one self-contained HTML file: the numbers as tables, the charts drawn in
 * the browser by uPlot (from its WebJar, inlined with its stylesheet), and the data the charts
 * draw as a JSON block. Nothing is fetched when the file is opened.
 */
public final class HtmlReport {
    /** Where the uPlot WebJar keeps its files; its version is the build's, read from the WebJar itself. */
    static final String UPLOT_DIR = "/META-INF/resources/webjars/uplot/" + webJarVersion("org.webjars.npm", "uplot") + "/dist/";
    /** The percentiles a dump prints. */
    static final int[] PERCENTILES = {50, 90, 95, 99};
    /** The jank types a dump prints, in its order. */
    static final List<JankType> CAUSES = JankType.PERSISTED;
    /**
     * What the causes chart draws after the janky frames: the causes Android checks on a janky
     * frame. High input latency is left out: it counts frames that were not janky (some twice).
     */
    static final List<JankType> JANK_CAUSES = JankType.STAGE_CAUSES;
    /** Frame-time marks: one and two frames at 60 Hz. */
    static final double[] MARKS_MS = {1000.0 / 60, 2000.0 / 60};

    private HtmlReport() {
    }

    public static void write(ReportData data, OutputStream out) throws IOException {
        out.write(html(data).getBytes(StandardCharsets.UTF_8));
    }

    static String html(ReportData data) {
        ProfileData t = data.total();
        StringBuilder h = new StringBuilder(256 * 1024);
        h.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
                .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
                .append("<title>").append(esc(data.title())).append("</title>\n")
                // First of all: errors of any later script are recorded where a reader (or a test) sees them.
                .append("<script>window.gfxErrors=[];window.addEventListener('error',function(e){")
                .append("window.gfxErrors.push(String(e.message));document.documentElement.setAttribute(")
                .append("'data-errors',window.gfxErrors.join(' | '));});</script>\n")
                .append("<style>\n").append(resource(UPLOT_DIR + "uPlot.min.css")).append('\n')
                .append(resource("report.css")).append("</style>\n</head>\n<body>\n");
        h.append("<h1>").append(esc(data.title())).append("</h1>\n<p class=\"source\">").append(esc(data.source()))
                .append(" &middot; generated ").append(Instant.ofEpochMilli(data.generatedAtMillis())).append("</p>\n");

        if (data.frames() != null && data.frames().table() != null) {
            timeline(h, data);
            return end(h, data);
        }
        h.append("<section id=\"summary\"><table class=\"numbers\">\n");
        row(h, "Total frames rendered", "total-frames", Long.toString(t.totalFrames()));
        row(h, "Janky frames", "janky-frames", t.jankyFrames() + " (" + percent(t) + ")");
        // With no frames, Android's arithmetic yields its top bucket (4950ms): no number is the truth.
        boolean none = t.totalFrames() == 0;
        for (int p : PERCENTILES) {
            row(h, p + "th percentile", "p" + p, none ? "- (no frames)" : t.cpuPercentile(p) + "ms");
        }
        for (JankType c : CAUSES) {
            row(h, "Number " + c.label(), "cause-" + c.name().toLowerCase(Locale.ROOT),
                    Long.toString(t.jankCount(c)));
        }
        for (int p : PERCENTILES) {
            row(h, p + "th gpu percentile", "gpu-p" + p, none ? "- (no frames)" : t.gpuPercentile(p) + "ms");
        }
        h.append("</table><p class=\"caption\" id=\"hil-note\">High input latency is not a jank cause: Android"
                + " counts a frame there when it made its deadline only thanks to triple buffering, and its older"
                + " accounting can count the same frame a second time, so the number can exceed the total frames."
                + "</p></section>\n");
        // A daemon's report answers "which app, which day" first; an offline input has neither.
        boolean offline = data.days().stream().allMatch(d -> d.dayStart() == 0);
        if (!offline) {
            packages(h, data);
            byDay(h, data);
        }
        if (data.frames() != null) {
            FrameSeries f = data.frames();
            chart(h, "chart-frames", "Each frame over time", "Every counted frame (" + f.samples().size()
                    + ", the total above) at the time it completed, its time from IntendedVsync to FrameCompleted;"
                    + " janky frames marked by their first cause, one colour per cause; dashed: the refresh interval ("
                    + String.format(Locale.ROOT, "%.1f", f.refreshMillis()) + " ms). It opens on the"
                    + " latest 98 % of the frames when a few are much older; drag to zoom, double-click to see every"
                    + " frame. The line breaks where nothing was drawn for over a second. Left out: " + f.leftOut());
            if (!f.traceCounts().isEmpty()) {
                traceCounts(h, f.traceCounts());
            }
        }
        chart(h, "chart-cpu", "Frame time", "Frames per bucket of Android's histogram; dashed: 16.7 ms and"
                + " 33.3 ms (one and two frames at 60 Hz); solid: the 50th, 90th, 95th and 99th percentiles.");
        if (t.jankyFrames() > 0) {
            chart(h, "chart-causes", "Janky frames and their causes", "Janky frames (navy; each one missed its"
                    + " deadline), then how many of them had each cause, in the cause's colour; a janky frame can have several causes or"
                    + " none of these, so the causes need not add up to the janky frames. The numbers of the summary"
                    + " above.");
        } else {
            h.append("<section><h2>Janky frames and their causes</h2><p class=\"caption\" id=\"no-jank\">No janky"
                    + " frames: nothing to break down.</p></section>\n");
        }
        if (!offline && t.totalFrames() > 0) {
            chart(h, "chart-days", "Frames and jank per day", "Bars: frames rendered; line: janky frames in %.");
        }
        if (gpuFrames(t) > 0) {
            chart(h, "chart-gpu", "GPU time", "Frames per 1 ms GPU bucket, with the GPU percentiles.");
        }
        if (offline) {
            packages(h, data);
        }
        if (!data.scenes().isEmpty()) {
            chart(h, "chart-scenes", "Scenes", "Frames per scene by Matrix dropped-frame level, stacked, in the"
                    + " colours of gfxstats' one scale (best green to frozen red; gfxstats top colours rows by janky"
                    + " percentage on the same scale).");
            h.append("<section><table class=\"list\" id=\"scenes\"><tr><th>Package</th><th>Scene</th><th>Frames</th>")
                    .append("<th>Janky</th><th>Matrix fps</th>");
            for (int l = 0; l < SceneGroup.LEVELS; l++) {
                h.append("<th style=\"color:").append(Severity.ofLevel(l).hex()).append("\">")
                        .append(levelName(l)).append("</th>");
            }
            h.append("</tr>\n");
            for (ReportData.Scene s : data.scenes()) {
                h.append("<tr><td>").append(esc(s.packageName())).append("</td><td>").append(esc(s.scene()))
                        .append("</td><td>").append(s.frames()).append("</td><td>").append(s.janky()).append(" (")
                        .append(JankyPercent.format(JankyPercent.of((int) s.janky(), (int) s.frames()))).append("%)</td><td>")
                        .append(s.matrixFps() == 0 ? "-" : String.format(Locale.ROOT, "%.1f", s.matrixFps()))
                        .append("</td>");
                for (long c : s.levels()) {
                    h.append("<td>").append(c).append("</td>");
                }
                h.append("</tr>\n");
            }
            h.append("</table></section>\n");
        }
        if (!data.frameTimelines().isEmpty()) {
            FrameTimelineSection.html(h, data.frameTimelines());
            chart(h, "chart-frametimeline", "FrameTimeline types", "Frames per jank type that occurred, then per"
                    + " present type (on time, late, early), stacked by package.");
        }

        return end(h, data);
    }

    private static String end(StringBuilder h, ReportData data) {
        h.append("<script type=\"application/json\" id=\"report-data\">").append(json(data)).append("</script>\n")
                .append("<script>\n").append(script(resource(UPLOT_DIR + "uPlot.iife.min.js"))).append("\n</script>\n")
                .append("<script>\n").append(script(resource("report.js"))).append("\n</script>\n")
                .append("</body>\n</html>\n");
        return h.toString();
    }

    /**
     * The page of a FrameTimeline input (Perfetto trace, frame log): its command's numbers, then each
     * frame over time. A dump's histograms and causes do not exist for these inputs, so they are not shown.
     */
    private static void timeline(StringBuilder h, ReportData data) {
        FrameSeries f = data.frames();
        FrameSeries.Table t = f.table();
        h.append("<section id=\"summary\"><table class=\"numbers\">\n");
        for (List<String> r : t.summary()) {
            row(h, r.get(0), r.get(1), r.get(2));
        }
        h.append("</table></section>\n");
        chart(h, "chart-frames", "Each frame over time", "Each frame (" + f.samples().size() + " drawn) "
                + t.points() + "; janky frames marked by their FrameTimeline jank type, one colour per"
                + " type; dashed: the refresh interval (" + String.format(Locale.ROOT, "%.1f", f.refreshMillis())
                + " ms). Drag to zoom, double-click to see every frame. Left out: " + f.leftOut());
        h.append("<section><h2>Counted by `gfxstats timeline`</h2><p class=\"caption\">").append(esc(t.caption()))
                .append("</p>\n<table class=\"list\" id=\"timeline-counts\"><tr>");
        for (String c : t.headers()) {
            h.append("<th>").append(esc(c)).append("</th>");
        }
        h.append("</tr>\n");
        for (int i = 0; i < t.rows().size(); i++) {
            h.append("<tr>");
            List<String> r = t.rows().get(i);
            for (int c = 0; c < r.size(); c++) {
                h.append("<td id=\"tl").append(i).append('-').append(c).append("\">").append(esc(r.get(c)))
                        .append("</td>");
            }
            h.append("</tr>\n");
        }
        h.append("</table></section>\n");
    }

    /** Seconds since the first frame, frame times, and per cause the janky frames' times (null elsewhere). */
    private static void frames(Json j, FrameSeries f) {
        List<FrameSeries.Sample> s = f.samples();
        long first = s.isEmpty() ? 0 : s.get(0).completedNanos();
        j.key("frames").open('{').key("refreshMs").value(f.refreshMillis()).key("t").open('[');
        for (FrameSeries.Sample x : s) {
            j.value((x.completedNanos() - first) / 1e9);
        }
        j.close(']').key("ms").open('[');
        for (FrameSeries.Sample x : s) {
            j.value(x.millis());
        }
        j.close(']').key("marks").open('[');
        List<FrameSeries.Mark> marks = f.marks();
        for (int c = 0; c < marks.size(); c++) {
            j.open('{').key("name").value(marks.get(c).name()).key("color").value(marks.get(c).hex())
                    .key("values").open('[');
            for (FrameSeries.Sample x : s) {
                if (x.cause() == c) {
                    j.value(x.millis());
                } else {
                    j.value(Double.NaN); // written as null: no mark here
                }
            }
            j.close(']').close('}');
        }
        j.close(']').close('}');
    }

    /** Frames with a GPU time: processes that report none get no (empty) GPU chart. */
    private static long gpuFrames(ProfileData t) {
        long n = 0;
        for (int i = 0; i < Histograms.GPU_BUCKETS; i++) {
            n += t.gpuBucket(i);
        }
        return n;
    }

    private static void packages(StringBuilder h, ReportData data) {
        // Only when a package lost frames: a healthy report keeps Android's columns.
        boolean lost = data.apps().stream().anyMatch(a -> a.ringDropped() > 0);
        h.append("<section><h2>By package</h2><table class=\"list\" id=\"apps\"><tr><th>Package</th><th>Version</th>")
                .append("<th>Frames</th><th>Janky</th><th>50th</th><th>90th</th><th>95th</th><th>99th</th>")
                .append(lost ? "<th>Lost</th>" : "").append("</tr>\n");
        for (ReportData.App a : data.apps()) {
            ProfileData d = a.data();
            h.append("<tr><td>").append(esc(a.packageName())).append("</td><td>").append(a.versionCode())
                    .append("</td><td>").append(d.totalFrames()).append("</td><td>").append(d.jankyFrames())
                    .append(" (").append(percent(d)).append(")</td>");
            for (int p : PERCENTILES) {
                h.append("<td>").append(d.totalFrames() == 0 ? "-" : d.cpuPercentile(p) + "ms").append("</td>");
            }
            if (lost) {
                h.append("<td>").append(a.ringDropped()).append("</td>");
            }
            h.append("</tr>\n");
        }
        h.append("</table>");
        if (lost) {
            h.append("<p class=\"caption\" id=\"lost-note\">Lost: frames the package recorded but gfxstats could"
                    + " not count, because a client's recording ring was full (its drain fell a whole ring behind)."
                    + " They are in no other number of this report; not Android's or Matrix's dropped frames.</p>");
        }
        h.append("</section>\n");
    }

    private static void byDay(StringBuilder h, ReportData data) {
        h.append("<section><h2>By day</h2><table class=\"list\" id=\"days\"><tr><th>Day (UTC)</th><th>Frames</th>")
                .append("<th>Janky</th><th>90th</th></tr>\n");
        for (ReportData.Day d : data.days()) {
            h.append("<tr><td>").append(d.label()).append("</td><td>").append(d.data().totalFrames())
                    .append("</td><td>").append(d.data().jankyFrames()).append(" (").append(percent(d.data()))
                    .append(")</td><td>")
                    .append(d.data().totalFrames() == 0 ? "-" : d.data().cpuPercentile(90) + "ms").append("</td></tr>\n");
        }
        h.append("</table></section>\n");
    }

    /** The data the charts draw: the dump's histograms, percentiles and per-day counters. */
    static String json(ReportData data) {
        ProfileData t = data.total();
        Json j = new Json().open('{');
        j.key("cpu").open('{');
        histogram(j, Histograms.cpuLabels(), t, true);
        j.key("marks").open('[');
        for (double ms : MARKS_MS) {
            j.open('{').key("x").value(position(ms / 1000)).key("label")
                    .value(String.format(Locale.ROOT, "%.1f ms", ms)).close('}');
        }
        j.close(']').close('}');
        j.key("gpu").open('{');
        histogram(j, Histograms.gpuLabels(), t, false);
        j.close('}');
        j.key("days").open('{').key("labels").open('[');
        for (ReportData.Day d : data.days()) {
            j.value(d.label());
        }
        j.close(']').key("frames").open('[');
        for (ReportData.Day d : data.days()) {
            j.value(d.data().totalFrames());
        }
        j.close(']').key("jankPercent").open('[');
        for (ReportData.Day d : data.days()) {
            j.value(Double.parseDouble(String.format(Locale.ROOT, "%.2f", percentValue(d.data()))));
        }
        j.close(']').close('}');
        j.key("causes").open('{').key("labels").open('[').value("Janky frames");
        for (JankType c : JANK_CAUSES) {
            j.value(c.label());
        }
        j.close(']').key("values").open('[').value(t.jankyFrames());
        for (JankType c : JANK_CAUSES) {
            j.value(t.jankCount(c));
        }
        // The janky frames navy, each cause in its colour (the same as its marks over time).
        j.close(']').key("colors").open('[').value("#3d5a80");
        for (JankType c : JANK_CAUSES) {
            j.value(CauseColour.COLOURS.of(c).hex());
        }
        j.close(']').close('}');
        j.key("scenes").open('{').key("labels").open('[');
        for (ReportData.Scene s : data.scenes()) {
            j.value(data.apps().size() > 1 ? s.packageName() + ": " + s.scene() : s.scene());
        }
        j.close(']').key("levels").open('[');
        for (int l = 0; l < SceneGroup.LEVELS; l++) {
            j.open('{').key("name").value(levelName(l))
                    .key("color").value(Severity.ofLevel(l).hex()).key("values").open('[');
            for (ReportData.Scene s : data.scenes()) {
                j.value(s.levels()[l]);
            }
            j.close(']').close('}');
        }
        j.close(']').close('}');
        FrameTimelineSection.json(j, data.frameTimelines(), data.frameTimelines().size() > 1);
        if (data.frames() != null) {
            frames(j, data.frames());
        }
        return j.close('}').toString();
    }

    private static void histogram(Json j, int[] labels, ProfileData t, boolean cpu) {
        int n = labels.length;
        long[] counts = new long[n];
        for (int i = 0; i < n; i++) {
            counts[i] = cpu ? t.cpuBucket(i) : t.gpuBucket(i);
        }
        j.key("labels").open('[');
        for (int l : labels) {
            j.value(l);
        }
        j.close(']').key("counts").values(counts).key("percentiles").open('[');
        for (int p : PERCENTILES) {
            int label = cpu ? t.cpuPercentile(p) : t.gpuPercentile(p);
            int index = -1;
            for (int i = 0; i < n; i++) {
                if (labels[i] == label) {
                    index = i;
                }
            }
            j.open('{').key("p").value(p).key("ms").value(label).key("x").value(index).close('}');
        }
        j.close(']');
    }

    /**
     * Where a duration falls on the chart's bucket axis: bucket i spans i - 0.5 .. i + 0.5,
     * interpolated between its lower and upper bounds.
     */
    static double position(double seconds) {
        for (int i = 0; i < Histograms.CPU_BUCKETS; i++) {
            double lo = BucketBounds.cpuLower(i);
            double hi = BucketBounds.cpu()[i];
            if (seconds >= lo && seconds < hi) {
                return i - 0.5 + (seconds - lo) / (hi - lo);
            }
        }
        return Histograms.CPU_BUCKETS - 1;
    }

    private static String levelName(int level) {
        return MatrixRule.levelName(level).toLowerCase(Locale.ROOT);
    }

    /**
     * {@code gfxstats trace}'s own count beside Android's: the two rules differ on purpose, and a
     * reader comparing this page with {@code gfxstats trace} sees both and why.
     */
    private static void traceCounts(StringBuilder h, List<ProcessSummary> counts) {
        h.append("<section><h2>The trace's own count</h2><p class=\"caption\">").append(esc("What `gfxstats trace`"
                + " (its summary, CSV and JSON) counts: every finished frame that is not empty, janky by the trace's"
                + " own flag (the frame ended after its expected end). The numbers above follow Android's rule instead,"
                + " as `gfxstats trace --format dumpsys` does: only the frames Android would record, replayed through"
                + " its jank tracker; so the two can differ.")).append("</p>\n<table class=\"list\" id=\"trace-counts\"><tr><th>Process</th><th>pid</th>"
                + "<th>Frames</th><th>Linked</th><th>Unlinked</th><th>Empty</th><th>Unfinished</th>"
                + "<th>Janky (trace's flag)</th></tr>\n");
        for (int i = 0; i < counts.size(); i++) {
            ProcessSummary c = counts.get(i);
            String id = "tc" + i;
            h.append("<tr><td>").append(esc(c.name())).append("</td><td>").append(c.pid()).append("</td><td id=\"")
                    .append(id).append("-frames\">").append(c.frames()).append("</td><td>").append(c.linked())
                    .append("</td><td>").append(c.unlinked()).append("</td><td>").append(c.empty()).append("</td><td>")
                    .append(c.unfinished()).append("</td><td id=\"").append(id).append("-janky\">").append(c.janky())
                    .append(String.format(Locale.ROOT, " (%.2f%%)", c.jankyPercent())).append("</td></tr>\n");
        }
        h.append("</table></section>\n");
    }

    private static void row(StringBuilder h, String name, String id, String value) {
        h.append("<tr><th>").append(esc(name)).append("</th><td id=\"").append(id).append("\">").append(esc(value))
                .append("</td></tr>\n");
    }

    private static void chart(StringBuilder h, String id, String title, String caption) {
        h.append("<section><h2>").append(esc(title)).append("</h2><p class=\"caption\">").append(esc(caption))
                .append("</p><div class=\"chart\" id=\"").append(id).append("\"></div></section>\n");
    }

    /** Janky percentage as dumps print it. */
    static String percent(ProfileData d) {
        // Android's dump prints nan% here; a reader is better served by the reason.
        return d.totalFrames() == 0 ? "no frames" : JankyPercent.format(percentValue(d)) + "%";
    }

    private static float percentValue(ProfileData d) {
        return JankyPercent.of((int) d.jankyFrames(), (int) d.totalFrames());
    }

    private static String script(String js) {
        if (js.contains("</script") || js.contains("<!--")) {
            throw new IllegalStateException("a script holds a sequence that would end its element early");
        }
        return js;
    }

    private static String resource(String name) {
        try (InputStream in = HtmlReport.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("resource " + name + " is missing from the jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String esc(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }

    /** A WebJar's version, from the pom.properties Maven put in it: the pom's uplot.version is the one place it is written. */
    private static String webJarVersion(String group, String artifact) {
        String name = "/META-INF/maven/" + group + "/" + artifact + "/pom.properties";
        try (InputStream in = HtmlReport.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException(name + " missing: the " + artifact + " WebJar is not on the class path");
            }
            Properties p = new Properties();
            p.load(in);
            return p.getProperty("version");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
