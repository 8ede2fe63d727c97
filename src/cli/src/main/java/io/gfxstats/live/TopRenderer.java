package io.gfxstats.live;

import io.gfxstats.matrix.AndroidJson;
import io.gfxstats.matrix.MatrixRule;
import io.gfxstats.palette.Severity;
import io.gfxstats.text.TerminalText;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * {@code gfxstats top}'s screen as lines of text that fit the terminal: the columns that fit are
 * shown whole, the others dropped by {@link TopColumn#rank()}, never a number cut; rows coloured
 * by their janky percentage on the one {@link Severity} scale.
 */
public final class TopRenderer {
    static final String RESET = "\u001b[0m";
    static final String BOLD = "\u001b[1m";
    static final String NAME_HEADER = "PACKAGE / SCENE";
    /** Room for a readable name before a number column is given up for it. */
    static final int MIN_NAME = 18;
    private static final String KEYS = "  (q quit, s sort, c cumulative)";
    private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm:ss", Locale.ROOT);

    private final ZoneId zone;

    public TopRenderer(ZoneId zone) {
        this.zone = zone;
    }

    /**
     * The screen: title, column header, then per package its total and its scenes indented; at
     * most {@code height} lines (0: no limit), the last saying how many rows did not fit.
     */
    public List<String> lines(TopFrame frame, int width, int height, boolean colour, boolean interactive) {
        List<TopRow> rows = new ArrayList<>();
        for (TopFrame.Package p : frame.packages()) {
            rows.add(p.total());
            rows.addAll(p.scenes());
        }
        int naturalName = NAME_HEADER.length();
        for (TopRow r : rows) {
            naturalName = Math.max(naturalName, name(r).length());
        }
        List<TopColumn> shown = new ArrayList<>(TopColumn.ALL);
        if (rows.stream().anyMatch(r -> r.ringDropped() > 0)) {
            shown.add(TopColumn.LOST);
        }
        int[] widths = widths(shown, rows);
        int hidden = 0;
        while (used(widths) + Math.min(MIN_NAME, naturalName) > width && shown.stream().anyMatch(c -> c.rank() > 0)) {
            TopColumn drop = shown.stream().filter(c -> c.rank() > 0).min(Comparator.comparingInt(TopColumn::rank))
                    .orElseThrow();
            shown.remove(drop);
            widths = widths(shown, rows);
            hidden++;
        }
        int nameWidth = Math.max(1, Math.min(naturalName, width - used(widths)));

        List<String> lines = new ArrayList<>();
        lines.add(title(frame, width, interactive, hidden, colour));
        StringBuilder header = new StringBuilder(pad(NAME_HEADER, nameWidth));
        for (int i = 0; i < shown.size(); i++) {
            header.append(' ').append(right(shown.get(i).header(), widths[i]));
        }
        lines.add(header.toString());
        if (frame.packages().isEmpty()) {
            lines.add("(no live scenes: no process is recording frames)");
        }
        for (TopRow r : rows) {
            StringBuilder line = new StringBuilder(pad(name(r), nameWidth));
            for (int i = 0; i < shown.size(); i++) {
                line.append(' ').append(right(shown.get(i).text().apply(r), widths[i]));
            }
            lines.add(colour && r.frames() > 0
                    ? Severity.ofJankPercent(r.jankPercent()).ansiForeground() + line + RESET : line.toString());
        }
        if (height > 0 && lines.size() > height) {
            int keep = Math.max(1, height - 1);
            int more = lines.size() - keep;
            List<String> cut = new ArrayList<>(lines.subList(0, keep));
            cut.add("(" + more + " more rows; s changes the order)");
            return cut;
        }
        return lines;
    }

    private String title(TopFrame frame, int width, boolean interactive, int hidden, boolean colour) {
        String clock = CLOCK.format(Instant.ofEpochMilli(frame.wallMillis()).atZone(zone));
        String span = frame.seconds() > 0 ? String.format(Locale.ROOT, "%.1fs", frame.seconds()) : "-";
        String title = "gfxstats top  " + clock + "  " + (frame.cumulative() ? "since start " : "last ") + span
                + "  sort " + frame.sort().label();
        // Optional parts, most useful first, each only if it fits whole.
        String hiddenNote = hidden > 0 ? "  " + hidden + " columns hidden" : "";
        if (title.length() + hiddenNote.length() <= width) {
            title += hiddenNote;
        }
        if (interactive && title.length() + KEYS.length() <= width) {
            title += KEYS;
        }
        return colour ? BOLD + title + RESET : title;
    }

    private static String name(TopRow r) {
        // Client strings reach a terminal: escaped, so a name cannot move the cursor or forge a line.
        return r.scene() == null ? TerminalText.escape(r.packageName()) : "  " + TerminalText.escape(r.scene());
    }

    private static int[] widths(List<TopColumn> columns, List<TopRow> rows) {
        int[] w = new int[columns.size()];
        for (int i = 0; i < w.length; i++) {
            TopColumn c = columns.get(i);
            // One more than the header, so two headers never stand one space apart ("FROZ DROPPED"
            // read as one label); numbers may fill the column, they are told apart by their digits.
            w[i] = Math.max(c.minWidth(), c.header().length() + 1);
            for (TopRow r : rows) {
                w[i] = Math.max(w[i], c.text().apply(r).length());
            }
        }
        return w;
    }

    /** Width of the number columns, each with its separating space. */
    private static int used(int[] widths) {
        int n = 0;
        for (int w : widths) {
            n += w + 1;
        }
        return n;
    }

    private static String right(String s, int width) {
        return " ".repeat(width - s.length()) + s;
    }

    /** Pads or cuts to {@code width}; a long name keeps its end (the Activity), marked by "~". */
    static String pad(String s, int width) {
        if (s.length() > width) {
            int indent = s.startsWith("  ") && width > 3 ? 2 : 0;
            return s.substring(0, indent) + "~" + s.substring(s.length() - (width - indent - 1));
        }
        return s + " ".repeat(width - s.length());
    }

    /** One JSON object for the refresh, in the field names of pull --json and scenes --json. */
    public static String json(TopFrame frame) {
        AndroidJson j = new AndroidJson().beginObject()
                .key("wallMillis").value(frame.wallMillis())
                .key("intervalSeconds").value(frame.intervalSeconds())
                .key("seconds").value(frame.seconds())
                .key("cumulative").value(frame.cumulative())
                .key("sort").value(frame.sort().label())
                .key("packages").beginArray();
        for (TopFrame.Package p : frame.packages()) {
            j.beginObject().key("packageName").value(p.total().packageName())
                    .key("versionCode").value(p.total().versionCode());
            fields(j, p.total());
            j.key("ringDroppedFrames").value(p.total().ringDropped());
            j.key("scenes").beginArray();
            for (TopRow s : p.scenes()) {
                fields(j.beginObject().key("scene").value(s.scene()), s);
                j.endObject();
            }
            j.endArray().endObject();
        }
        return j.endArray().endObject().toString();
    }

    private static void fields(AndroidJson j, TopRow r) {
        j.key("live").value(r.live()).key("totalFrames").value(r.frames()).key("jankyFrames").value(r.jankyFrames());
        optional(j.key("jankPercent"), r.jankPercent());
        optional(j.key("fps"), r.fps());
        optional(j.key("matrixFps"), r.matrixFps());
        j.key("levelCounts").beginArray();
        for (int l = MatrixRule.BEST; l <= MatrixRule.FROZEN; l++) {
            j.value(r.level(l));
        }
        j.endArray().key("droppedFrames").value(r.dropped())
                .key("worstLevel").value(r.worstLevel() < 0 ? null : MatrixRule.levelName(r.worstLevel()))
                .key("severity").value(r.frames() > 0 ? Severity.ofJankPercent(r.jankPercent()).name() : null);
    }

    private static void optional(AndroidJson j, double v) {
        if (Double.isNaN(v)) {
            j.nullValue();
        } else {
            j.value(v);
        }
    }
}
