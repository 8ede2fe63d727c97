package io.gfxstats.palette;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.gfxstats.palette.ColourTable.Row;
import io.gfxstats.stats.JankType;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The one table type both palettes are: one colour a key, found by its key, in a fixed order. */
class ColourTableTest {
    @Test
    void shouldRefuseTwoColoursForOneKey() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new ColourTable<>(List.of(
                new Row<>("a", "A", "#000000", 16), new Row<>("a", "A again", "#ffffff", 231))));
        assertEquals("a has two colours", e.getMessage());
    }

    @Test
    void shouldNameAKeyWithoutColour() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> CauseColour.COLOURS.of(JankType.HIGH_INPUT_LATENCY));
        assertEquals("HIGH_INPUT_LATENCY has no colour", e.getMessage());
    }

    @Test
    void shouldRefuseATerminalColourWhereThereIsNone() {
        assertThrows(IllegalStateException.class, () -> CauseColour.COLOURS.of(JankType.SLOW_DRAW).ansiForeground());
        assertEquals("\u001b[38;5;160m", Severity.SEVERE.ansiForeground());
    }

    @Test
    void shouldGiveEveryStageCauseAndDeadlineOnlyTheirOwnColour() {
        List<JankType> keys = new ArrayList<>(JankType.STAGE_CAUSES);
        keys.add(CauseColour.DEADLINE_ONLY);
        assertEquals(Set.copyOf(keys), Set.copyOf(CauseColour.COLOURS.keys()));
        assertEquals(keys.size(), CauseColour.COLOURS.rows().stream().map(Row::hex).distinct().count());
        assertEquals("Deadline missed only", CauseColour.COLOURS.of(CauseColour.DEADLINE_ONLY).label());
        assertEquals("Slow UI thread", CauseColour.COLOURS.of(JankType.SLOW_UI_THREAD).label());
    }
}
