package io.gfxstats.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gfxstats.cli.Main;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Text traces as files come: systrace HTML, damaged lines, other line ends, a byte order mark. */
class TraceFilesTest {
    private static final String HEAD = "RenderThread-77 (77) [002] .... ";

    private static String row(String ts, String payload) {
        return HEAD + ts + ": tracing_mark_write: " + payload;
    }

    /** Two slices of pid 77: B/E, B/E. */
    private static List<String> rows() {
        return List.of(row("10.000100", "B|77|first"), row("10.000200", "E|77"), row("10.000300", "B|77|second"),
                row("10.000400", "E|77"));
    }

    private static List<TraceReaderTest.Decoded> decode(String text) throws Exception {
        return TraceReaderTest.decode(text.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void shouldReadTheRowsOfSystraceHtmlAndIgnoreItsViewer() throws Exception {
        String html = "<!DOCTYPE html>\n<html>\n<head><script>\n"
                + "  if (line.indexOf('tracing_mark_write') >= 0) { parseMarker(line); }\n"
                + "</script></head>\n<body>\n<!-- BEGIN TRACE -->\n"
                + "  <script class=\"trace-data\" type=\"application/text\">\n"
                + "# tracer: nop\n" + String.join("\n", rows()) + "\n"
                + "  </script>\n<!-- END TRACE -->\n<script>var x = 'B|1|tracing_mark_write';</script>\n</body>\n</html>\n";
        TraceReader.Stats stats = TraceReader.read(new ByteArrayInputStream(html.getBytes(StandardCharsets.UTF_8)), "t",
                m -> { }, null);
        assertEquals(4, stats.markerLines());
        assertEquals(0, stats.skippedLines(), "the viewer's JavaScript is not trace text");
        assertEquals("first", decode(html).get(0).name());
    }

    @Test
    void shouldSkipAndCountAMarkerLineWithoutARowHeader(@TempDir Path dir) throws Exception {
        String text = "# tracer: nop\n" + rows().get(0) + "\nnot a row: tracing_mark_write: B|1|x\n" + rows().get(1) + "\n";
        TraceReader.Stats stats = TraceReader.read(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)), "t",
                m -> { }, null);
        assertEquals(2, stats.markerLines());
        assertEquals(1, stats.skippedLines());
        assertEquals(3, stats.firstSkippedLine());
        Path file = dir.resolve("bad-line.systrace");
        Files.writeString(file, text);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = Main.run(new String[] {"trace", file.toString(), "--format", "csv"}, new PrintStream(out, true),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(0, exit, err.toString(StandardCharsets.UTF_8));
        assertEquals("gfxstats trace: " + file + ": skipped 1 tracing_mark_write line without the ftrace row header"
                + " (the first is line 3); the rest of the trace is read\n", err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void shouldReadCrCrLfAndCrOnlyLineEnds() throws Exception {
        for (String end : List.of("\r\r\n", "\r")) {
            List<TraceReaderTest.Decoded> d = decode(String.join(end, rows()) + end);
            assertEquals(4, d.size(), "line end " + end.replace("\r", "CR").replace("\n", "LF"));
            assertEquals("second", d.get(2).name());
            assertEquals('E', d.get(3).phase());
        }
    }

    @Test
    void shouldNotTakeAByteOrderMarkIntoTheFirstTaskName() throws Exception {
        TraceReaderTest.Decoded first = decode("\ufeff" + String.join("\n", rows()) + "\n").get(0);
        assertEquals("RenderThread", first.task());
        assertEquals(77, first.tid());
    }

    @Test
    void shouldEndASliceWhoseEndHasABlankAfterThePid() throws Exception {
        List<TraceReaderTest.Decoded> d = decode(row("10.000100", "B|77|first") + "\n" + row("10.000200", "E|77 ") + "\n");
        assertEquals(2, d.size());
        assertEquals('E', d.get(1).phase());
        assertEquals(77, d.get(1).pid());
    }

    @Test
    void shouldTruncateTimestampsAsTraceStreamerDoes() throws Exception {
        // stod("1.000001") is 1.00000099999999991773..., times 1e9 is below 1000001000: truncated to ...999.
        assertEquals(1_000_000_999L, TraceReaderTest.one(row("1.000001", "B|77|x")).ts());
        assertEquals(1_000_000_006L, TraceReaderTest.one(row("1.000000007", "B|77|x")).ts());
        assertEquals(13_762_796_290_000L, TraceReaderTest.one(row("13762.796290", "B|77|x")).ts());
        assertEquals(5_123_456_789L, TraceReaderTest.one(row("5.123456789", "B|77|x")).ts());
    }

    @Test
    void shouldPutSwappedLinesBackInTimeOrder() throws Exception {
        List<String> r = rows();
        // The second B is printed before the first E, by another CPU's buffer.
        String swapped = String.join("\n", List.of(r.get(0), r.get(2), r.get(1), r.get(3))) + "\n";
        List<TraceReaderTest.Decoded> d = decode(swapped);
        assertEquals(List.of('B', 'E', 'B', 'E'), d.stream().map(TraceReaderTest.Decoded::phase).toList());
        assertEquals(List.of(10_000_100_000L, 10_000_200_000L, 10_000_300_000L, 10_000_400_000L),
                d.stream().map(TraceReaderTest.Decoded::ts).toList());
        TraceReader.Stats stats = TraceReader.read(new ByteArrayInputStream(swapped.getBytes(StandardCharsets.UTF_8)),
                "t", m -> { }, null);
        assertEquals(0, stats.unsortedLines());
    }

    @Test
    void shouldSortLinesFartherOutOfOrderInAWiderWindow() throws Exception {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i <= TraceReader.SORT_WINDOW + 1; i++) {
            text.append(row(String.format(java.util.Locale.ROOT, "20.%06d", i + 10), "B|77|x")).append('\n');
        }
        text.append(row("20.000001", "E|77")).append('\n');
        byte[] bytes = text.toString().getBytes(StandardCharsets.UTF_8);
        assertEquals(1, TraceReader.read(new ByteArrayInputStream(bytes), "t", m -> { }, null).unsortedLines());
        assertEquals(0, TraceReader.read(new ByteArrayInputStream(bytes), "t", m -> { }, null, 2 * TraceReader.SORT_WINDOW)
                .unsortedLines());
    }

    @Test
    void shouldCountLinesOutOfOrderByMoreThanTheWindow() throws Exception {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i <= TraceReader.SORT_WINDOW + 1; i++) {
            text.append(row(String.format(java.util.Locale.ROOT, "20.%06d", i + 10), "B|77|x")).append('\n');
        }
        text.append(row("20.000001", "E|77")).append('\n');
        TraceReader.Stats stats = TraceReader.read(new ByteArrayInputStream(text.toString().getBytes(StandardCharsets.UTF_8)),
                "t", m -> { }, null);
        assertEquals(1, stats.unsortedLines());
    }

    @Test
    void shouldDropASecondOpenFrameQueuedAsTraceStreamerDoes() throws Exception {
        TraceText t = DumpsysMappingTest.trace();
        // Frame C's Frame queued (cookie 3) opened at 100.0995 s and finished at 100.105 s: a second S
        // of the same cookie in between must not restart the interval.
        String second = new TraceText().s(100_102_000_000L, DumpsysMappingTest.RS, DumpsysMappingTest.RS,
                TraceText.FRAME_QUEUED, 3).text();
        StringBuilder twice = new StringBuilder();
        for (String line : t.text().split("\n")) {
            twice.append(line).append('\n');
            if (line.contains(" 100.099500: ") && line.contains("S|")) {
                twice.append(second);
            }
        }
        assertTrue(twice.length() > t.text().length(), "the second S was placed after the first");
        FrameTable once = TraceParser.parse(new ByteArrayInputStream(t.text().getBytes(StandardCharsets.UTF_8)), "t",
                ClockOffset.NONE, null).table();
        FrameTable again = TraceParser.parse(new ByteArrayInputStream(twice.toString().getBytes(StandardCharsets.UTF_8)),
                "t", ClockOffset.NONE, null).table();
        assertEquals(1, once.gpuCount());
        assertEquals(5_500_000L, once.gpuDur(0));
        assertEquals(once.gpuCount(), again.gpuCount());
        assertEquals(once.gpuDur(0), again.gpuDur(0));
    }
}
