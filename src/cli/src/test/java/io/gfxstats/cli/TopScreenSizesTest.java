package io.gfxstats.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.gfxstats.testing.JavaProcess;
import io.gfxstats.testing.TestData;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code gfxstats top} in real terminals of 80x24 and 120x40 (tmux), read cell by cell and checked
 * against {@code top --json} over the same feed (a real capture replayed, deterministic): every
 * number shown equals the JSON's, no line is wider than the terminal, and what does not fit is
 * left out whole and said so.
 */
class TopScreenSizesTest {
    private static final Path CAPTURE = TestData.androidGfxinfo("aNavMode-gfxinfo-framestats.txt");

    @TempDir
    Path dir;

    @Test
    void shouldShowTheJsonsNumbersWholeAt80x24() throws Exception {
        String[] cells = check(80, 24);
        assertTrue(cells[0].contains("columns hidden"), "the title says columns are left out: " + cells[0]);
    }

    @Test
    void shouldShowTheJsonsNumbersWholeAt120x40() throws Exception {
        String[] cells = check(120, 40);
        assertTrue(!cells[0].contains("columns hidden"), "120 columns hold the whole table: " + cells[0]);
    }

    /** Returns the title line and the header of the checked screen. */
    private String[] check(int columns, int rows) throws Exception {
        JsonObject last = lastJson();
        double seconds = last.get("seconds").getAsDouble();
        String title = String.format(Locale.ROOT, "since start %.1fs", seconds);
        List<String> cmd = new ArrayList<>(JavaProcess.command(ReplayTopMain.class, "--hold", "--pace-ms", "0",
                CAPTURE.toString(),
                "--cumulative"));
        Path script = dir.resolve("top.sh");
        Files.writeString(script, cmd.stream().map(TopScreenSizesTest::quote).collect(Collectors.joining(" "))
                + "\n");
        try (TmuxSession t = TmuxSession.start(dir, columns, rows, "bash " + quote(script.toString()))) {
            String screen = t.await(s -> s.contains(title), 90, "the last snapshot's screen (" + title + ")");
            Files.writeString(dir.resolve("screen.txt"), screen);
            List<String> lines = screen.lines().toList();
            for (String l : lines) {
                assertTrue(l.length() <= columns, "wider than the terminal: " + l);
            }
            assertTrue(lines.size() <= rows, screen);
            String header = lines.get(1);
            List<String> names = new ArrayList<>();
            List<Integer> ends = new ArrayList<>();
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("\\S+").matcher(header);
            while (m.find()) {
                if (m.start() > "PACKAGE / SCENE".length()) {
                    names.add(m.group());
                    ends.add(m.end());
                }
            }
            List<JsonObject> expected = new ArrayList<>();
            for (JsonElement p : last.getAsJsonArray("packages")) {
                expected.add(p.getAsJsonObject());
                p.getAsJsonObject().getAsJsonArray("scenes").forEach(s -> expected.add(s.getAsJsonObject()));
            }
            int checked = 0;
            for (int i = 0; i < expected.size() && 2 + i < lines.size(); i++) {
                String line = lines.get(2 + i);
                if (line.startsWith("(")) {
                    break; // "(N more rows ...)"
                }
                // The capture's names have no spaces: the name ends at the first space after its indent.
                int nameEnd = line.indexOf(' ', line.startsWith("  ") ? 2 : 0);
                for (int c = 0; c < names.size(); c++) {
                    int from = c == 0 ? nameEnd : ends.get(c - 1);
                    String cell = line.substring(Math.min(from, line.length()), Math.min(ends.get(c), line.length()))
                            .trim();
                    assertEquals(expect(expected.get(i), names.get(c)), cell,
                            names.get(c) + " of row " + i + ":\n" + screen);
                    checked++;
                }
            }
            assertTrue(checked >= 5 * names.size(), "cells checked: " + checked + "\n" + screen);
            assertTrue(names.containsAll(List.of("VER", "FPS", "JANK%", "JANKY", "FRAMES", "DROPPED")), header);
            for (String n : names) {
                assertTrue(header.contains("  " + n), n + " stands apart from its left neighbour: " + header);
            }
            picture(t, columns, rows);
            t.sendKeys("q");
            return new String[] {lines.get(0), header};
        }
    }

    /**
     * The screen as a picture for the docs (target/report-screenshots/top-COLSxROWS.png; docs/img
     * holds a copy): the pane with its colours, drawn by headless Chromium. The page shows exactly
     * the pane's characters, and top's colours are those of the report's scale.
     */
    private void picture(TmuxSession t, int columns, int rows) throws Exception {
        String escaped = t.screen(true);
        assertEquals(trimmed(t.screen(false)), trimmed(TerminalHtml.text(escaped)), "the picture shows the pane's characters");
        for (io.gfxstats.palette.Severity s : io.gfxstats.palette.Severity.values()) {
            assertEquals(s.hex(), TerminalHtml.xterm(s.xterm256()), "xterm colour of " + s);
        }
        assertTrue(escaped.contains("\u001b[38;5;"), "top colours its rows on a terminal");
        Path html = dir.resolve("top.html");
        Files.writeString(html, TerminalHtml.page(escaped, columns, rows));
        Path png = dir.resolve("top.png");
        io.gfxstats.testing.Chromium.require(dir).screenshot(html, png, columns * 9 + 24, rows * 18 + 24);
        Path shots = Path.of("target", "report-screenshots");
        Files.createDirectories(shots);
        Files.copy(png, shots.resolve("top-" + columns + "x" + rows + ".png"),
                java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }

    private static String trimmed(String screen) {
        return screen.lines().map(String::stripTrailing).collect(Collectors.joining("\n")).stripTrailing();
    }

    /** The cell {@code top} must show for a column, from the JSON object of the same row. */
    private static String expect(JsonObject row, String column) {
        boolean pkg = row.has("packageName");
        return switch (column) {
            case "VER" -> pkg ? Long.toString(row.get("versionCode").getAsLong()) : "";
            case "FPS" -> number(row.get("fps"));
            case "mFPS" -> number(row.get("matrixFps"));
            case "JANK%" -> number(row.get("jankPercent"));
            case "JANKY" -> Long.toString(row.get("jankyFrames").getAsLong());
            case "FRAMES" -> Long.toString(row.get("totalFrames").getAsLong());
            case "BEST" -> level(row, 0);
            case "NORM" -> level(row, 1);
            case "MID" -> level(row, 2);
            case "HIGH" -> level(row, 3);
            case "FROZ" -> level(row, 4);
            case "DROPPED" -> Long.toString(row.get("droppedFrames").getAsLong());
            default -> throw new AssertionError("unknown column " + column);
        };
    }

    private static String level(JsonObject row, int level) {
        JsonArray levels = row.getAsJsonArray("levelCounts");
        return Long.toString(levels.get(level).getAsLong());
    }

    private static String number(JsonElement e) {
        return e.isJsonNull() ? "-" : String.format(Locale.ROOT, "%.1f", e.getAsDouble());
    }

    /** {@code top --json --cumulative} over the same replayed feed, not on a terminal: its last object. */
    private JsonObject lastJson() throws Exception {
        Path out = dir.resolve("top.json");
        Process p = JavaProcess.builder(ReplayTopMain.class, "--pace-ms", "0", CAPTURE.toString(), "--json",
                        "--cumulative")
                .redirectOutput(out.toFile()).redirectError(dir.resolve("top.err").toFile()).start();
        try {
            assertTrue(p.waitFor(120, TimeUnit.SECONDS), "top --json did not end");
        } finally {
            p.destroyForcibly().waitFor();
        }
        assertEquals(0, p.exitValue(), Files.readString(dir.resolve("top.err")));
        List<String> lines = Files.readAllLines(out, StandardCharsets.UTF_8);
        return JsonParser.parseString(lines.get(lines.size() - 1)).getAsJsonObject();
    }

    private static String quote(String s) {
        return "'" + s.replace("'", "'\\''") + "'";
    }
}
