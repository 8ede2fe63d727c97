package io.gfxstats.palette;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.gfxstats.matrix.MatrixRule;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/** The one colour scale: terminal and browser colours are the same, and the docs' table is the code's. */
class SeverityTest {
    private static final int[] CUBE = {0, 95, 135, 175, 215, 255};

    @Test
    void shouldGiveEachBandExactlyTheXtermColourOfItsHexValue() {
        for (Severity s : Severity.values()) {
            int i = s.xterm256() - 16;
            String cube = String.format(Locale.ROOT, "#%02x%02x%02x", CUBE[i / 36], CUBE[i / 6 % 6], CUBE[i % 6]);
            assertEquals(s.hex(), cube, s.name());
        }
    }

    @Test
    void shouldPutJankPercentagesAndMatrixLevelsOnTheSameFiveBands() {
        assertEquals(Severity.FINE, Severity.ofJankPercent(4.99));
        assertEquals(Severity.MINOR, Severity.ofJankPercent(5));
        assertEquals(Severity.MODERATE, Severity.ofJankPercent(19.9));
        assertEquals(Severity.SERIOUS, Severity.ofJankPercent(23.4));
        assertEquals(Severity.SEVERE, Severity.ofJankPercent(40));
        assertEquals(Severity.FINE, Severity.ofJankPercent(Double.NaN));
        assertEquals(Severity.FINE, Severity.ofLevel(MatrixRule.BEST));
        assertEquals(Severity.SEVERE, Severity.ofLevel(MatrixRule.FROZEN));
    }

    @Test
    void shouldMatchTheColourTableOfTheDocs() throws Exception {
        List<String> rows = Files.readAllLines(Path.of("docs", "scenes.md")).stream()
                .filter(l -> l.matches("\\s*\\| `#[0-9a-f]{6}`.*")).toList();
        assertEquals(Severity.values().length, rows.size(), rows.toString());
        for (int i = 0; i < rows.size(); i++) {
            String[] cells = rows.get(i).split("\\|");
            Severity s = Severity.values()[i];
            assertEquals(s.hex(), cells[1].trim().substring(1, 8), rows.get(i));
            assertEquals(Integer.toString(s.xterm256()), cells[2].trim(), rows.get(i));
            assertEquals(s.jankRange(), cells[3].trim(), rows.get(i));
            assertEquals(MatrixRule.levelName(MatrixRule.BEST + i), cells[4].trim(), rows.get(i));
        }
    }
}
