package io.gfxstats.dump;

import static io.gfxstats.dump.TestProtos.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class DumpFormatTest {

    private static final List<String> ANDROID14_KEYS = List.of(
            "UID", "Package", "Version", "Stats since", "Stats end", "Total frames rendered", "Janky frames",
            "50th percentile", "90th percentile", "95th percentile", "99th percentile",
            "Number Missed Vsync", "Number High input latency", "Number Slow UI thread",
            "Number Slow bitmap uploads", "Number Slow issue draw commands", "Number Frame deadline missed",
            "HISTOGRAM",
            "50th gpu percentile", "90th gpu percentile", "95th gpu percentile", "99th gpu percentile",
            "GPU HISTOGRAM");

    /** The line keys (text before the first ':') of a one-entry dump, checking the block's framing. */
    private static List<String> keys(DumpFormat format) {
        String block = text(format, List.of(TextDumpWriterTest.goldenProto()));
        assertTrue(block.startsWith("\n") && block.endsWith("\n"), block);
        String[] lines = block.substring(1, block.length() - 1).split("\n", -1);
        List<String> keys = new ArrayList<>();
        for (String line : lines) {
            keys.add(line.substring(0, line.indexOf(':')));
        }
        return keys;
    }

    private static List<String> without(List<String> keys, String... removed) {
        List<String> out = new ArrayList<>(keys);
        out.removeAll(List.of(removed));
        return out;
    }

    @Test
    void shouldPrintTheFullLineSetForAndroid14() {
        assertEquals(ANDROID14_KEYS, keys(DumpFormat.ANDROID14));
    }

    @Test
    void shouldOmitOnlyTheUidLineForAndroid11() {
        assertEquals(without(ANDROID14_KEYS, "UID"), keys(DumpFormat.ANDROID11));
    }

    @Test
    void shouldOmitUidAndGpuLinesForAndroid9() {
        assertEquals(without(ANDROID14_KEYS, "UID", "50th gpu percentile", "90th gpu percentile",
                "95th gpu percentile", "99th gpu percentile", "GPU HISTOGRAM"), keys(DumpFormat.ANDROID9));
    }

    @Test
    void shouldAlsoOmitTheDeadlineLineForAndroid8() {
        assertEquals(without(ANDROID14_KEYS, "UID", "Number Frame deadline missed", "50th gpu percentile",
                "90th gpu percentile", "95th gpu percentile", "99th gpu percentile", "GPU HISTOGRAM"),
                keys(DumpFormat.ANDROID8));
    }

    @Test
    void shouldPrintSharedLinesIdenticallyInEveryFormat() {
        String full = text(DumpFormat.ANDROID14, List.of(TextDumpWriterTest.goldenProto()));
        for (DumpFormat f : DumpFormat.values()) {
            String block = text(f, List.of(TextDumpWriterTest.goldenProto()));
            for (String line : block.split("\n")) {
                if (line.isEmpty()) {
                    continue;
                }
                assertTrue(full.contains("\n" + line + "\n"), f + ": " + line);
            }
        }
    }

    @Test
    void shouldParseEveryCliName() {
        assertEquals(DumpFormat.ANDROID14, DumpFormat.parse("android14"));
        assertEquals(DumpFormat.ANDROID11, DumpFormat.parse("android11"));
        assertEquals(DumpFormat.ANDROID9, DumpFormat.parse("android9"));
        assertEquals(DumpFormat.ANDROID8, DumpFormat.parse("android8"));
        assertEquals(DumpFormat.ANDROID11, DumpFormat.parse(" Android11 "));
        for (DumpFormat f : DumpFormat.values()) {
            assertEquals(f, DumpFormat.parse(f.cliName()));
        }
    }

    @Test
    void shouldRejectAnUnknownNameListingTheAcceptedOnes() {
        for (String bad : new String[] {"android12", "", "ANDROID_14", "14"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> DumpFormat.parse(bad));
            assertEquals("unknown dump format '" + bad + "': expected one of android14|android11|android9|android8",
                    e.getMessage());
        }
        assertThrows(IllegalArgumentException.class, () -> DumpFormat.parse(null));
    }
}
