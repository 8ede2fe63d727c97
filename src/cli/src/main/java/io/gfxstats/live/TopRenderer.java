package io.gfxstats.live;

import io.gfxstats.text.TerminalText;
import io.gfxstats.matrix.AndroidJson;
import io.gfxstats.matrix.MatrixRule;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code gfxstats top}'s output: the screen as lines of text (optionally coloured by each row's
 * worst Matrix level, ANSI 256-colour codes nearest to Matrix's floating-view colours), and one
 * JSON object per refresh.
 */
public final class TopRenderer {
    /** Matrix's level colours (#0cf300, #40bf00, #708f00, #bb4400, #f00f00) as the nearest xterm-256 codes. */
    static final int[] LEVEL_COLOURS = {46, 70, 64, 130, 196};
    static final String RESET = "\u001b[0m";
    static final String BOLD = "\u001b[1m";
    static final String COLUMNS = "   FPS   mFPS  JANK%   BEST  NORM   MID  HIGH  FROZ  DROPPED";
    private static final int MIN_NAME = 20;
    private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm:ss", Locale.ROOT);

    private final ZoneId zone;

    public TopRenderer(ZoneId zone) {
        this.zone = zone;
    }

    /** The screen: title, column header, then per package its total and its scenes indented. */
    public List<String> lines(TopFrame frame, int width, boolean colour, boolean interactive) {
        int nameWidth = Math.max(MIN_NAME, width - COLUMNS.length() - 1);
        List<String> lines = new ArrayList<>();
        String clock = CLOCK.format(Instant.ofEpochMilli(frame.wallMillis()).atZone(zone));
        String span = frame.seconds() > 0 ? String.format(Locale.ROOT, "%.1fs", frame.seconds()) : "-";
        String title = "gfxstats top  " + clock + "  " + (frame.cumulative() ? "since start " : "last ") + span
                + "  sort " + frame.sort().label()
                + (interactive ? "  (q quit, s sort, c cumulative)" : "");
        lines.add(colour ? BOLD + title + RESET : title);
        lines.add(pad("PACKAGE / SCENE", nameWidth) + " " + COLUMNS);
        if (frame.packages().isEmpty()) {
            lines.add("(no live scenes: no process is recording frames)");
        }
        for (TopFrame.Package p : frame.packages()) {
            lines.add(row(p.total(), TerminalText.escape(p.total().packageName()) + (p.total().versionCode() != 0
                    ? " (" + p.total().versionCode() + ")" : ""), nameWidth, colour));
            for (TopRow s : p.scenes()) {
                lines.add(row(s, "  " + TerminalText.escape(s.scene()), nameWidth, colour));
            }
        }
        return lines;
    }

    private static String row(TopRow r, String name, int nameWidth, boolean colour) {
        String text = pad(name, nameWidth) + " " + String.format(Locale.ROOT, "%6s %6s %6s %6s %5s %5s %5s %5s %8s",
                num(r.fps()), num(r.matrixFps()), num(r.jankPercent()),
                count(r, MatrixRule.BEST), count(r, MatrixRule.NORMAL), count(r, MatrixRule.MIDDLE),
                count(r, MatrixRule.HIGH), count(r, MatrixRule.FROZEN), r.frames() > 0 ? Long.toString(r.dropped()) : "-");
        if (colour && r.worstLevel() >= 0) {
            return "\u001b[38;5;" + LEVEL_COLOURS[r.worstLevel()] + "m" + text + RESET;
        }
        return text;
    }

    private static String count(TopRow r, int level) {
        return r.frames() > 0 ? Long.toString(r.level(level)) : "-";
    }

    private static String num(double v) {
        return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%.1f", v);
    }

    /** Pads or cuts to {@code width}; a long name keeps its end (the Activity), marked by "~". */
    static String pad(String s, int width) {
        if (s.length() > width) {
            int indent = s.startsWith("  ") ? 2 : 0;
            return s.substring(0, indent) + "~" + s.substring(s.length() - (width - indent - 1));
        }
        return s + " ".repeat(width - s.length());
    }

    /** One JSON object for the refresh. */
    public static String json(TopFrame frame) {
        AndroidJson j = new AndroidJson().beginObject()
                .key("time").value(frame.wallMillis())
                .key("seconds").value(frame.seconds())
                .key("cumulative").value(frame.cumulative())
                .key("sort").value(frame.sort().label())
                .key("packages").beginArray();
        for (TopFrame.Package p : frame.packages()) {
            j.beginObject().key("package").value(p.total().packageName())
                    .key("version").value(p.total().versionCode());
            fields(j, p.total());
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
        j.key("frames").value(r.frames());
        optional(j.key("fps"), r.fps());
        optional(j.key("matrix_fps"), r.matrixFps());
        optional(j.key("jank_percent"), r.jankPercent());
        j.key("levels").beginObject();
        for (int l = MatrixRule.BEST; l <= MatrixRule.FROZEN; l++) {
            j.key(MatrixRule.levelName(l)).value(r.level(l));
        }
        j.endObject().key("dropped").value(r.dropped())
                .key("worst_level").value(r.worstLevel() < 0 ? null : MatrixRule.levelName(r.worstLevel()));
    }

    private static void optional(AndroidJson j, double v) {
        if (Double.isNaN(v)) {
            j.nullValue();
        } else {
            j.value(v);
        }
    }
}
