package io.gfxstats.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.gfxstats.matrix.MatrixRule;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * top's model and screen on hand-made snapshots whose arithmetic is easy to follow: what the
 * cumulative view keeps when a process ends, which interval FPS covers, what an idle row shows
 * and how the table fits a narrow terminal.
 */
class TopViewTest {
    private static final long SECOND = 1_000_000_000L;

    /** Cumulative counters of one scene: {@code frames} frames, {@code janky} of them janky, all BEST. */
    private static LiveScene scene(String pkg, long version, String scene, long frames, long janky) {
        long[] counts = new long[MatrixRule.LEVEL_COUNT];
        counts[MatrixRule.BEST] = frames - janky;
        counts[MatrixRule.FROZEN] = janky;
        long[] sums = new long[MatrixRule.LEVEL_COUNT];
        sums[MatrixRule.FROZEN] = 50 * janky;
        return new LiveScene(pkg, version, scene, frames, janky, frames, counts, sums, frames * 16_666_667L,
                0, 60.0 * frames, null);
    }

    private static LiveSnapshot at(int second, LiveScene... scenes) {
        return new LiveSnapshot(second * SECOND, 1_700_000_000_000L + second * 1000L, List.of(scenes));
    }

    private static TopRow total(TopFrame f, String pkg) {
        return f.packages().stream().map(TopFrame.Package::total).filter(r -> r.packageName().equals(pkg))
                .findFirst().orElse(null);
    }

    @Test
    void shouldKeepCumulativeTotalsOfAPackageWhoseProcessExited() {
        TopModel model = new TopModel(TopSort.NAME, true);
        model.accept(at(0, scene("com.game", 7, "default", 100, 10), scene("com.maps", 3, "default", 50, 0),
                scene("com.maps", 3, "(no scenes)", 0, 0)));
        model.accept(at(1, scene("com.game", 7, "default", 220, 16), scene("com.maps", 3, "default", 110, 1)));
        // com.game's process exits: its live counters leave the feed.
        model.accept(at(2, scene("com.maps", 3, "default", 170, 2)));
        TopFrame f = model.frame();
        TopRow game = total(f, "com.game");
        assertEquals(120, game.frames(), "counted while top watched");
        assertEquals(6, game.jankyFrames());
        assertFalse(game.live());
        assertEquals(0.0, game.fps(), "nothing in the last interval");
        assertEquals(120, total(f, "com.maps").frames());
        assertEquals(1, f.packages().get(1).scenes().size(), "a gone scene that counted nothing is left out");
        model.toggleCumulative();
        assertEquals(null, total(model.frame(), "com.game"), "the interval view shows what runs");
    }

    @Test
    void shouldShowTheLastIntervalsFpsAlsoInCumulativeMode() {
        TopModel model = new TopModel(TopSort.NAME, true);
        model.accept(at(0));
        // A 120 fps game that starts after top: since start it would average 40.
        model.accept(at(2));
        model.accept(at(3, scene("com.game", 1, "default", 120, 0)));
        TopFrame f = model.frame();
        assertEquals(120.0, total(f, "com.game").fps(), 1e-9);
        assertEquals(3.0, f.seconds(), 1e-9);
        assertEquals(1.0, f.intervalSeconds(), 1e-9);
    }

    @Test
    void shouldShowZeroFpsAndCountsForAnIdleRowAndDashesOnlyForRatiosOfNoFrames() {
        TopModel model = new TopModel(TopSort.NAME, false);
        model.accept(at(0, scene("com.idle", 2, "menu", 40, 1)));
        model.accept(at(1, scene("com.idle", 2, "menu", 40, 1)));
        List<String> lines = new TopRenderer(ZoneOffset.UTC).lines(model.frame(), 120, 0, false, false);
        String menu = lines.stream().filter(l -> l.startsWith("  menu")).findFirst().orElseThrow();
        assertEquals(List.of("menu", "0.0", "-", "-", "0", "0", "0", "0", "0", "0", "0", "0"),
                List.of(menu.trim().split(" +")), menu);
    }

    @Test
    void shouldFitEightyColumnsByDroppingWholeColumnsNeverCuttingANumber() {
        TopModel model = new TopModel(TopSort.NAME, true);
        model.accept(at(0));
        model.accept(at(1, scene("com.example.a.very.long.package.name", 123456789, "com.example.ui.SettingsActivity",
                1_234_567, 234_567)));
        TopRenderer renderer = new TopRenderer(ZoneOffset.UTC);
        for (int width : new int[] {80, 100, 120, 60}) {
            List<String> lines = renderer.lines(model.frame(), width, 0, false, true);
            for (String l : lines) {
                assertTrue(l.length() <= width, width + " columns: " + l);
            }
            List<String> header = TopColumn.ALL.stream().map(TopColumn::header)
                    .filter(h -> List.of(lines.get(1).split(" +")).contains(h)).toList();
            String row = lines.get(2);
            for (TopColumn c : TopColumn.ALL) {
                if (header.contains(c.header())) {
                    String value = c.text().apply(total(model.frame(), "com.example.a.very.long.package.name"));
                    assertTrue(row.contains(" " + value), width + ": " + c.header() + " = " + value + " in " + row);
                }
            }
            assertTrue(header.containsAll(List.of("FPS", "JANK%")), width + ": " + header);
            for (String h : header) {
                assertTrue(lines.get(1).contains("  " + h), width + ": " + h + " stands apart from its left neighbour: "
                        + lines.get(1));
            }
            if (width >= 80) {
                assertTrue(header.containsAll(List.of("VER", "JANKY", "FRAMES", "DROPPED")), width + ": " + header);
            }
            int hidden = TopColumn.ALL.size() - header.size();
            assertEquals(hidden > 0 && width >= 80, lines.get(0).contains(hidden + " columns hidden"), String.join("\n", lines));
        }
        List<String> wide = renderer.lines(model.frame(), 160, 0, false, true);
        assertEquals(TopColumn.ALL.size(), wide.get(1).trim().split(" +").length - 3, "all shown: " + wide.get(1));
    }

    @Test
    void shouldShowAPackagesRingDropsSinceItsProcessBeganAsLostOnlyOnceAnyAndKeepThemAtEightyColumns() {
        TopModel model = new TopModel(TopSort.NAME, true);
        TopRenderer renderer = new TopRenderer(ZoneOffset.UTC);
        model.accept(at(0, scene("com.game", 7, "default", 100, 10)));
        model.accept(at(1, scene("com.game", 7, "default", 160, 10)));
        assertFalse(renderer.lines(model.frame(), 120, 0, false, false).get(1).contains("LOST"),
                "no loss: no column");
        // Lost before top's first snapshot and in the last interval: shown as the feed's count,
        // not as a difference, so a loss that predates top is not hidden.
        model.accept(new LiveSnapshot(2 * SECOND, 1_700_000_002_000L,
                List.of(scene("com.game", 7, "default", 200, 10), scene("com.game", 7, "menu", 5, 0),
                        scene("com.maps", 3, "default", 50, 0)),
                Map.of(new LiveSnapshot.PackageKey("com.game", 7), 37L)));
        for (int width : new int[] {80, 120}) {
            List<String> lines = renderer.lines(model.frame(), width, 0, false, true);
            assertTrue(lines.get(1).endsWith(" LOST"), width + ": " + lines.get(1));
            assertTrue(lines.stream().anyMatch(l -> l.startsWith("com.game ") && l.endsWith(" 37")), String.join("\n", lines));
            assertTrue(lines.stream().anyMatch(l -> l.startsWith("com.maps ") && l.endsWith(" 0")), String.join("\n", lines));
            String menu = lines.stream().filter(l -> l.startsWith("  menu")).findFirst().orElseThrow();
            assertTrue(menu.substring(lines.get(1).length() - "LOST".length()).isBlank(), "blank for a scene: " + menu);
        }
        JsonObject game = JsonParser.parseString(TopRenderer.json(model.frame())).getAsJsonObject()
                .getAsJsonArray("packages").get(0).getAsJsonObject();
        assertEquals("com.game", game.get("packageName").getAsString());
        assertEquals(37, game.get("ringDroppedFrames").getAsLong());
        assertEquals(0, game.get("droppedFrames").getAsLong(), "Matrix's dropped frames are another count");
        // The process exits: cumulative mode keeps its row and its loss.
        model.accept(at(3, scene("com.maps", 3, "default", 60, 0)));
        assertEquals(37, total(model.frame(), "com.game").ringDropped());
    }

    @Test
    void shouldSayHowManyRowsDoNotFitTheTerminalsHeight() {
        TopModel model = new TopModel(TopSort.NAME, false);
        LiveScene[] scenes = new LiveScene[30];
        for (int i = 0; i < scenes.length; i++) {
            scenes[i] = scene("com.app" + i, 1, "default", i, 0);
        }
        model.accept(at(0, scenes));
        List<String> lines = new TopRenderer(ZoneOffset.UTC).lines(model.frame(), 80, 24, false, true);
        assertEquals(24, lines.size());
        assertEquals("(39 more rows; s changes the order)", lines.get(23));
    }
}
