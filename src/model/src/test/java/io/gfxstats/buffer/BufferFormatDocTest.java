package io.gfxstats.buffer;

import io.gfxstats.testing.SourceTree;

import io.gfxstats.stats.Counters;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.gfxstats.buffer.BufferDescriptor.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * docs/buffer-format.md against {@link BufferDescriptor}, as ShippedConfigFileTest does for the
 * configuration file: every row of the layout tables names a field the descriptor defines, at the
 * descriptor's offset and size; the worked lengths are the descriptor's; and the version 1
 * diagram is the same text in the doc and in the descriptor's Javadoc (they once disagreed on
 * "ordered" and "plain" stores).
 */
class BufferFormatDocTest {
    private static final Path DOC = Path.of("docs", "buffer-format.md");
    private static final Path DESCRIPTOR = SourceTree.mainSource("io/gfxstats/buffer/BufferDescriptor.java");

    private record Field(long offset, String size) {
    }

    private static Map<String, Field> version1() {
        Map<String, Field> f = new LinkedHashMap<>();
        f.put("magic", new Field(MAGIC_OFFSET, "4"));
        f.put("layout version", new Field(LAYOUT_VERSION_OFFSET, "4"));
        f.put("state", new Field(STATE_OFFSET, "4"));
        f.put("header length", new Field(HEADER_LENGTH_OFFSET, "4"));
        f.put("total length", new Field(TOTAL_LENGTH_OFFSET, "8"));
        f.put("writer stripe count N", new Field(STRIPE_COUNT_OFFSET, "4"));
        f.put("counters per stripe", new Field(COUNTERS_PER_STRIPE_OFFSET, "4"));
        f.put("stripe length", new Field(STRIPE_LENGTH_OFFSET, "4"));
        f.put("pipeline", new Field(PIPELINE_OFFSET, "4"));
        f.put("pid", new Field(PID_OFFSET, "4"));
        f.put("uid", new Field(UID_OFFSET, "4"));
        f.put("version code", new Field(VERSION_CODE_OFFSET, "8"));
        f.put("stats start", new Field(STATS_START_OFFSET, "8"));
        f.put("heartbeat", new Field(HEARTBEAT_OFFSET, "8"));
        f.put("package name", new Field(PACKAGE_NAME_OFFSET, "4 + " + PACKAGE_NAME_MAX_BYTES));
        f.put("registration id", new Field(REGISTRATION_ID_OFFSET, "4 + " + REGISTRATION_ID_MAX_BYTES));
        f.put("predecessor id", new Field(PREDECESSOR_ID_OFFSET, "4 + " + REGISTRATION_ID_MAX_BYTES));
        f.put("successor id", new Field(SUCCESSOR_ID_OFFSET, "4 + " + REGISTRATION_ID_MAX_BYTES));
        f.put("claim words", new Field(claimsOffset(LAYOUT_VERSION_1), "4 N"));
        return f;
    }

    private static Map<String, Field> version2() {
        Map<String, Field> f = new LinkedHashMap<>();
        f.put("group directory offset D", new Field(GROUP_DIRECTORY_OFFSET_OFFSET, "4"));
        f.put("group count G", new Field(GROUP_COUNT_OFFSET, "4"));
        f.put("claim words", new Field(claimsOffset(LAYOUT_VERSION_2), "4 N"));
        return f;
    }

    /** The rows "| offset | size | field | ..." of the table under the given heading. */
    private static Map<String, Field> table(String doc, String heading) {
        int start = doc.indexOf("\n## " + heading);
        assertTrue(start >= 0, heading);
        int end = doc.indexOf("\n## ", start + 1);
        String section = doc.substring(start, end < 0 ? doc.length() : end);
        // The ring group's checkpoint table is not a header table (RingGroupDocTest checks it).
        int ring = section.indexOf("\n### Ring group");
        section = ring < 0 ? section : section.substring(0, ring);
        Map<String, Field> rows = new LinkedHashMap<>();
        Matcher row = Pattern.compile("(?m)^\\| (\\d+) \\| ([^|]+?) \\| ([^|]+?) \\|").matcher(section);
        while (row.find()) {
            rows.put(row.group(3).strip(), new Field(Long.parseLong(row.group(1)), row.group(2).strip()));
        }
        return rows;
    }

    @Test
    void shouldListVersion1FieldsAtTheDescriptorsOffsets() throws IOException {
        assertEquals(version1(), table(doc(), "Layout version 1"));
    }

    @Test
    void shouldListVersion2HeaderWordsAtTheDescriptorsOffsets() throws IOException {
        Map<String, Field> rows = table(doc(), "Layout version 2");
        Map<String, Field> header = new LinkedHashMap<>();
        rows.forEach((name, field) -> {
            if (!name.startsWith("group id") && !name.startsWith("group version") && !name.startsWith("area ")) {
                header.put(name, field);
            }
        });
        assertEquals(version2(), header);
        assertTrue(doc().contains("| D + 16 i | 4 | group id |") && GROUP_ENTRY_ID == 0);
        assertTrue(doc().contains("| D + 16 i + 4 | 4 | group version |") && GROUP_ENTRY_VERSION == 4);
        assertTrue(doc().contains("| D + 16 i + 8 | 4 | area offset |") && GROUP_ENTRY_OFFSET == 8);
        assertTrue(doc().contains("| D + 16 i + 12 | 4 | area length |") && GROUP_ENTRY_LENGTH_FIELD == 12);
        assertEquals(16, GROUP_ENTRY_LENGTH);
    }

    @Test
    void shouldStateTheDescriptorsLengths() throws IOException {
        String doc = doc();
        int claims = claimsOffset(LAYOUT_VERSION_1);
        assertTrue(doc.contains("header length = `align64(" + claims + " + 4 N)`"), "v1 header length rule");
        assertTrue(doc.contains("stripe length = `align64(" + Counters.COUNT + " * 4)` = " + stripeLength(LAYOUT_VERSION_1)),
                "stripe length");
        assertTrue(doc.contains("With the default N = " + DEFAULT_STRIPES + ": header "
                + headerLength(LAYOUT_VERSION_1, DEFAULT_STRIPES) + " bytes,"), "default header length");
        assertTrue(doc.contains(String.format(java.util.Locale.ROOT, "file %,d bytes",
                totalLength(LAYOUT_VERSION_1, DEFAULT_STRIPES))), "default file length");
        assertTrue(doc.contains("N is " + MIN_STRIPES + ".." + MAX_STRIPES), "stripe count range");
        assertTrue(doc.contains("header length = `align64(" + claimsOffset(LAYOUT_VERSION_2) + " + 4 N)` ("
                + headerLength(LAYOUT_VERSION_2, DEFAULT_STRIPES) + " for N = " + DEFAULT_STRIPES + ")"), "v2 header length");
        assertTrue(doc.contains("Magic 'GFXS' (0x" + Integer.toHexString(MAGIC) + ")"));
    }

    @Test
    void shouldDrawTheSameVersion1DiagramInTheDocAndTheDescriptor() throws IOException {
        List<String> inDoc = diagram(doc().lines().toList(), "## Layout version 1", "");
        List<String> inCode = diagram(Files.readAllLines(DESCRIPTOR, StandardCharsets.UTF_8), " * Layout version 1", " * ");
        assertTrue(inDoc.size() > 40, "the doc's diagram: " + inDoc.size() + " lines");
        assertEquals(inDoc, inCode);
        for (String line : inDoc) {
            Matcher offset = Pattern.compile("\\|\\s+(\\d+)$").matcher(line);
            if (offset.find()) {
                long at = Long.parseLong(offset.group(1));
                assertTrue(version1().values().stream().anyMatch(f -> f.offset() == at), "diagram offset " + at);
            }
        }
    }

    /** The lines of the first diagram after {@code marker}, from its first "+---" line to its last. */
    private static List<String> diagram(List<String> lines, String marker, String prefix) {
        List<String> out = new ArrayList<>();
        boolean seen = false;
        for (String raw : lines) {
            if (!seen) {
                seen = raw.startsWith(marker);
                continue;
            }
            String line = raw.startsWith(prefix) ? raw.substring(prefix.length()) : raw;
            line = line.strip();
            if (line.startsWith("+") || line.startsWith("|")) {
                out.add(line);
            } else if (!out.isEmpty()) {
                break;
            }
        }
        return out;
    }

    private static String doc() throws IOException {
        return Files.readString(DOC, StandardCharsets.UTF_8);
    }
}
