package io.gfxstats.report;

import io.gfxstats.dump.JankyPercent;
import io.gfxstats.timeline.JankType;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * The report's FrameTimeline part: per (package, version) the TimeStats totals (frames with a
 * token, janky frames by TimeStats' rule, jank %) and the count of each jank type that occurred and
 * each present type, plus the chart data (types on the x axis, one stacked part per package).
 */
final class FrameTimelineSection {
    static final String FRAMES = "totalTimelineFrames";
    static final String JANKY = "jankyFrames";
    static final String JANK_PREFIX = "jankType ";
    /** Present types: always shown; dropped and unknown only when they occurred. */
    static final String[][] PRESENT = {
        {"presentOnTimeFrames", "present on time", "always"}, {"presentLateFrames", "present late", "always"},
        {"presentEarlyFrames", "present early", "always"}, {"presentDroppedFrames", "present dropped", ""},
        {"presentUnknownFrames", "present unknown", ""},
    };

    private FrameTimelineSection() {
    }

    /** A column: the dump's counter name, its label and the id part of its cells. */
    record Column(String counter, String label, String id) {
    }

    /** The jank types with a non-zero count in some row, in the dump's order, then the present types. */
    static List<Column> columns(List<ReportData.FrameTimeline> rows) {
        List<Column> out = new ArrayList<>();
        for (int i = 0; i < JankType.count(); i++) {
            String name = JankType.name(i);
            if (occurred(rows, JANK_PREFIX + name)) {
                out.add(new Column(JANK_PREFIX + name, label(name), "jank-" + name.toLowerCase(Locale.ROOT)));
            }
        }
        for (String[] p : PRESENT) {
            if (!p[2].isEmpty() || occurred(rows, p[0])) {
                out.add(new Column(p[0], p[1], p[1].replace(' ', '-')));
            }
        }
        return out;
    }

    private static boolean occurred(List<ReportData.FrameTimeline> rows, String counter) {
        return rows.stream().anyMatch(r -> r.get(counter) > 0);
    }

    /** "SurfaceFlingerCpuDeadlineMissed" as "SurfaceFlinger CPU Deadline Missed". */
    static String label(String jankType) {
        return jankType.replaceAll("(?<=[a-z])(?=[A-Z])", " ").replace("Surface Flinger", "SurfaceFlinger")
                .replace("Cpu", "CPU").replace("Gpu", "GPU");
    }

    static String jankPercent(ReportData.FrameTimeline r) {
        return JankyPercent.format(JankyPercent.of((int) r.get(JANKY), (int) r.get(FRAMES))) + "%";
    }

    static void html(StringBuilder h, List<ReportData.FrameTimeline> rows) {
        List<Column> columns = columns(rows);
        h.append("<section><h2>FrameTimeline</h2><p class=\"caption\">Present-time jank as SurfaceFlinger's")
                .append(" FrameTimeline classifies it (docs/frametimeline.md), as <code>gfxstats dump --frametimeline</code>")
                .append(" prints it: frames with a token, janky by TimeStats' rule (Display HAL, SurfaceFlinger CPU/GPU,")
                .append(" app deadline missed, prediction error, SurfaceFlinger scheduling; buffer stuffing alone is not")
                .append(" janky). A frame can have several jank types.</p>\n")
                .append("<table class=\"list\" id=\"frametimeline\"><tr><th>Package</th>");
        // One column per (package, version) and one row per number: the jank types that occurred
        // can be many, and a page is narrower than it is long.
        for (ReportData.FrameTimeline r : rows) {
            h.append("<th>").append(HtmlReport.esc(r.packageName())).append(' ').append(r.versionCode()).append("</th>");
        }
        h.append("</tr>\n");
        numbers(h, rows, "Frames (totalTimelineFrames)", "frames", r -> Long.toString(r.get(FRAMES)));
        numbers(h, rows, "Janky frames (TimeStats)", "janky", r -> Long.toString(r.get(JANKY)));
        numbers(h, rows, "Jank %", "jank-percent", FrameTimelineSection::jankPercent);
        for (Column c : columns) {
            numbers(h, rows, c.label(), c.id(), r -> Long.toString(r.get(c.counter())));
        }
        h.append("</table></section>\n");
    }

    /** A row: the number for each (package, version); cell ids are "ft" + column + "-" + id. */
    private static void numbers(StringBuilder h, List<ReportData.FrameTimeline> rows, String name, String id,
                                Function<ReportData.FrameTimeline, String> value) {
        h.append("<tr><th>").append(HtmlReport.esc(name)).append("</th>");
        for (int i = 0; i < rows.size(); i++) {
            cell(h, "ft" + i + "-" + id, value.apply(rows.get(i)));
        }
        h.append("</tr>\n");
    }

    private static void cell(StringBuilder h, String id, String value) {
        h.append("<td id=\"").append(id).append("\">").append(HtmlReport.esc(value)).append("</td>");
    }

    /** Chart data: the columns' labels on the x axis, one part (stacked) per (package, version). */
    static void json(Json j, List<ReportData.FrameTimeline> rows, boolean severalApps) {
        List<Column> columns = columns(rows);
        j.key("frameTimeline").open('{').key("labels").open('[');
        for (Column c : columns) {
            j.value(c.label());
        }
        j.close(']').key("parts").open('[');
        for (ReportData.FrameTimeline r : rows) {
            j.open('{').key("name").value(severalApps ? r.packageName() + " " + r.versionCode() : r.packageName())
                    .key("values").open('[');
            for (Column c : columns) {
                j.value(r.get(c.counter()));
            }
            j.close(']').close('}');
        }
        j.close(']').close('}');
    }
}
