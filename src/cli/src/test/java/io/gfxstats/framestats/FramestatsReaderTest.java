package io.gfxstats.framestats;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gfxstats.frame.FrameInfo;
import io.gfxstats.stats.JankType;
import io.gfxstats.stats.Pipeline;
import io.gfxstats.stats.ProfileData;
import io.gfxstats.testing.TestData;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FramestatsReaderTest {
    private static final String MODERN_HEADER_AS_PRINTED = "Flags,FrameTimelineVsyncId,IntendedVsync,Vsync,"
            + "InputEventId,HandleInputStart,AnimationStart,PerformTraversalsStart,DrawStart,FrameDeadline,"
            + "FrameInterval,FrameStartTime,SyncQueued,SyncStart,IssueDrawCommandsStart,SwapBuffers,FrameCompleted,"
            + "DequeueBufferDuration,QueueBufferDuration,GpuCompleted,SwapBuffersCompleted,DisplayPresentTime,"
            + "CommandSubmissionCompleted,";
    private static final String ANDROID9_HEADER = "Flags,IntendedVsync,Vsync,OldestInputEvent,NewestInputEvent,"
            + "HandleInputStart,AnimationStart,PerformTraversalsStart,DrawStart,SyncQueued,SyncStart,"
            + "IssueDrawCommandsStart,SwapBuffers,FrameCompleted,DequeueBufferDuration,QueueBufferDuration,";
    private static final long MS = 1_000_000L;

    @TempDir
    Path dir;

    private static List<FramestatsBlock> read(String text) throws Exception {
        return FramestatsReader.read(new StringReader(text), "test.txt");
    }

    private static FramestatsFormatException readFails(String text) {
        return assertThrows(FramestatsFormatException.class, () -> read(text));
    }

    /** An Android 9 row: values by old column name. */
    private static String android9Row(long flags, long intended, long syncQueued, long completed) {
        long[] v = {flags, intended, intended, intended - 5 * MS, intended - MS, intended + MS, intended + 2 * MS,
            intended + 3 * MS, intended + 4 * MS, syncQueued, syncQueued + 100_000, syncQueued + MS,
            completed - MS, completed, 40_000, 300_000};
        StringBuilder sb = new StringBuilder();
        for (long x : v) {
            sb.append(x).append(',');
        }
        return sb.toString();
    }

    private static String modernRow(long intended, long completed, long gpuCompleted) {
        long[] v = new long[23];
        v[2] = intended;
        v[3] = intended;
        v[5] = intended + MS;
        v[9] = intended + 16_666_667;
        v[10] = intended + MS / 2; // printed under "FrameInterval": really the start time
        v[11] = 16_666_667;        // printed under "FrameStartTime": really the interval
        v[12] = intended + 4 * MS;
        v[13] = intended + 4 * MS;
        v[14] = intended + 5 * MS;
        v[15] = completed - MS;
        v[16] = completed;
        v[19] = gpuCompleted;
        v[20] = completed;
        StringBuilder sb = new StringBuilder();
        for (long x : v) {
            sb.append(x).append(',');
        }
        return sb.toString();
    }

    @Test
    void shouldReadABareCsvAsOneBlockNamedByItsFile() throws Exception {
        Path csv = dir.resolve("subsettings.csv");
        Files.write(csv, Capture.section(Capture.SUB_SETTINGS));
        List<FramestatsBlock> blocks = FramestatsReader.read(csv);
        assertEquals(1, blocks.size());
        FramestatsBlock b = blocks.get(0);
        assertEquals("subsettings.csv", b.name());
        assertEquals(ColumnSet.MODERN, b.columnSet());
        assertEquals(1, b.headerLine());
        assertEquals(80, b.rowCount());
        assertEquals(79, b.frameCount());
        assertFalse(b.deviceStats().isPresent());

        // The same rows, read from the full dump, reproduce the device's statistics for the window.
        FramestatsBlock fromDump = FramestatsReader.read(Capture.FILE).stream()
                .filter(x -> x.name().equals(Capture.SUB_SETTINGS)).findFirst().orElseThrow();
        ProfileData replay = FramestatsReplay.replay(b, FramestatsReplay.DEFAULT_REFRESH_INTERVAL_NANOS);
        assertEquals(List.of(), fromDump.deviceStats().orElseThrow().differencesFrom(replay));
    }

    @Test
    void shouldTakeTheIntervalFromTheColumnWhoseValuesAreIntervalsWhateverItsName() throws Exception {
        String row = modernRow(1_000_000 * MS, 1_000_000 * MS + 10 * MS, 1_000_000 * MS + 11 * MS);
        FrameInfo asPrinted = read(MODERN_HEADER_AS_PRINTED + "\n" + row + "\n").get(0).frame(0);
        assertEquals(16_666_667, asPrinted.get(FrameInfo.FRAME_INTERVAL));
        assertEquals(1_000_000 * MS + MS / 2, asPrinted.get(FrameInfo.FRAME_START_TIME));

        // A producer that names the columns correctly gets the same frame.
        String correctHeader = MODERN_HEADER_AS_PRINTED.replace("FrameInterval,FrameStartTime",
                "FrameStartTime,FrameInterval");
        FrameInfo named = read(correctHeader + "\n" + row + "\n").get(0).frame(0);
        assertEquals(asPrinted.describe(), named.describe());
    }

    @Test
    void shouldMapColumnsByNameInAnyOrder() throws Exception {
        List<String> section = Capture.section(Capture.SUB_SETTINGS);
        FramestatsBlock original = read(String.join("\n", section)).get(0);
        // Shuffle the columns, header and rows alike.
        String[] header = ColumnMapping.split(section.get(0));
        Integer[] order = new Integer[header.length];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        SplittableRandom random = new SplittableRandom(7);
        for (int i = order.length - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            Integer t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
        StringBuilder shuffled = new StringBuilder();
        for (String line : section) {
            String[] cells = ColumnMapping.split(line);
            for (Integer c : order) {
                shuffled.append(cells[c]).append(',');
            }
            shuffled.append('\n');
        }
        FramestatsBlock reordered = read(shuffled.toString()).get(0);
        assertEquals(original.frameCount(), reordered.frameCount());
        for (int i = 0; i < original.frameCount(); i++) {
            assertEquals(original.frame(i).describe(), reordered.frame(i).describe(), "frame " + i);
        }
    }

    @Test
    void shouldLeaveOutRowsOfFramesStillInFlight() throws Exception {
        long t = 1_000_000 * MS;
        long hour = 3_600_000 * MS;
        String text = MODERN_HEADER_AS_PRINTED + "\n"
                + modernRow(t, t + 10 * MS, t + 11 * MS) + "\n"                       // kept
                + modernRow(t, 0, t + 11 * MS) + "\n"                                 // not completed
                + modernRow(t, 288_234_774_265_332_736L, 2_693_762_300_187_781L) + "\n" // garbage (as in the capture)
                + modernRow(t, t + 10 * MS, 0) + "\n"                                 // GPU not done
                + modernRow(t, t, t + 11 * MS) + "\n"                                 // zero span
                + modernRow(t, t - MS, t + 11 * MS) + "\n"                            // negative span
                + modernRow(t, t + hour, t + hour) + "\n"                             // an hour: not a frame
                + modernRow(t, t + hour - 1, t + hour) + "\n"                         // just under: kept
                + modernRow(t, Long.MIN_VALUE, t) + "\n";                             // overflowing span
        FramestatsBlock b = read(text).get(0);
        assertEquals(9, b.rowCount());
        assertEquals(2, b.frameCount());
        assertEquals(7, b.inFlightRows());
        assertEquals(t + 10 * MS, b.frame(0).get(FrameInfo.FRAME_COMPLETED));
        assertEquals(t + hour - 1, b.frame(1).get(FrameInfo.FRAME_COMPLETED));
    }

    @Test
    void shouldReadSixteenColumnRowsByName() throws Exception {
        long t = 2_000_000 * MS;
        String text = ANDROID9_HEADER + "\n"
                + android9Row(0, t, t + 6 * MS, t + 12 * MS) + "\n"
                + android9Row(4, t + 16_666_667, t + 16_666_667 + 6 * MS, 0) + "\n";
        FramestatsBlock b = read(text).get(0);
        assertEquals(ColumnSet.ANDROID9, b.columnSet());
        assertEquals(2, b.rowCount());
        assertEquals(1, b.frameCount(), "no GpuCompleted column, so only FrameCompleted decides");
        FrameInfo f = b.frame(0);
        assertEquals(t, f.get(FrameInfo.INTENDED_VSYNC));
        assertEquals(t + 6 * MS, f.get(FrameInfo.SYNC_QUEUED));
        assertEquals(t + 6 * MS + 100_000, f.get(FrameInfo.SYNC_START));
        assertEquals(t + 7 * MS, f.get(FrameInfo.ISSUE_DRAW_COMMANDS_START));
        assertEquals(t + 11 * MS, f.get(FrameInfo.SWAP_BUFFERS));
        assertEquals(t + 12 * MS, f.get(FrameInfo.FRAME_COMPLETED));
        assertEquals(40_000, f.get(FrameInfo.DEQUEUE_BUFFER_DURATION));
        assertEquals(t + MS, f.get(FrameInfo.HANDLE_INPUT_START));
        // OldestInputEvent/NewestInputEvent have no modern slot; nothing else is filled.
        assertEquals(0, f.get(FrameInfo.INPUT_EVENT_ID));
        assertEquals(0, f.get(FrameInfo.FRAME_DEADLINE));
        assertEquals(0, f.get(FrameInfo.FRAME_INTERVAL));
        assertEquals(0, f.get(FrameInfo.GPU_COMPLETED));

        ProfileData d = FramestatsReplay.replay(b, 16_666_667);
        assertEquals(1, d.totalFrames());
        assertEquals(0, d.jankyFrames());
        ProfileData at120 = FramestatsReplay.replay(b, 8_333_333);
        assertEquals(1, at120.jankyFrames(), "a 12 ms frame is janky at 120 Hz");
    }

    @Test
    void shouldNameBlocksByWindowThenViewRootThenProcessThenSource() throws Exception {
        long t = 3_000_000 * MS;
        String section = "---PROFILEDATA---\n" + ANDROID9_HEADER + "\n" + android9Row(0, t, t + 6 * MS, t + 12 * MS)
                + "\n---PROFILEDATA---\n";
        String text = "Applications Graphics Acceleration Info:\n"
                + "** Graphics info for pid 31148 [com.example.app] **\n"
                + "\nStats since: 524615985046231ns\nTotal frames rendered: 8325\n"
                + "Pipeline=Skia (Vulkan)\n"
                + "Profile data in ms:\n\n"
                + "\tcom.example.app/com.example.app.MainActivity/android.view.ViewRootImpl@4eb6e3 (visibility=0)\n"
                + "\tDraw\tPrepare\tProcess\tExecute\n"
                + section
                + "\n\tPopupWindow:4a0ecd2 (visibility=8)\n"
                + section
                + "\n" + section
                + "** Graphics info for pid 1 [other] **\n"
                + "Window: StatusBar\nStats since: 1ns\nTotal frames rendered: 1\n"
                + "\tStatusBar/android.view.ViewRootImpl@1 (visibility=0)\n"
                + section;
        List<FramestatsBlock> blocks = read(text);
        assertEquals(List.of("com.example.app/com.example.app.MainActivity", "PopupWindow:4a0ecd2", "com.example.app",
                "StatusBar"), blocks.stream().map(FramestatsBlock::name).toList());
        assertEquals(Pipeline.VULKAN, blocks.get(0).pipeline());
        assertEquals(Pipeline.UNKNOWN, blocks.get(3).pipeline());
        assertEquals("com.example.app", blocks.get(1).process().orElseThrow());
        // The process-level statistics belong to no window.
        assertFalse(blocks.get(0).deviceStats().isPresent());
        assertEquals(1, blocks.get(3).deviceStats().orElseThrow().totalFrames());

        String anonymous = section;
        assertEquals("test.txt", read(anonymous).get(0).name());
        assertEquals("p", read("** Graphics info for pid 1 [p] **\nWindow:  \n" + section).get(0).name(),
                "a blank window name is no name");
    }

    @Test
    void shouldAttachEachWindowItsOwnPrintedStatistics() throws Exception {
        List<FramestatsBlock> blocks = FramestatsReader.read(Capture.FILE);
        FramestatsBlock first = blocks.get(0);
        DeviceStats stats = first.deviceStats().orElseThrow();
        assertEquals(72, stats.line(), "the window's block, not the process block at line 21");
        assertEquals(15949039742641L, stats.statsSince().orElseThrow());
        assertEquals(363, stats.jankyFrames().orElseThrow());
        assertEquals(1614, stats.jankyFramesLegacy().orElseThrow());
        assertEquals(5160, stats.count(JankType.HIGH_INPUT_LATENCY).orElseThrow());
        assertEquals(335, stats.count(JankType.MISSED_DEADLINE_LEGACY).orElseThrow());
        assertEquals(150, stats.percentile(99).orElseThrow());
        assertEquals(9, stats.gpuPercentile(99).orElseThrow());
        assertEquals(2, stats.cpuHistogram()[0]);
        assertEquals(1, stats.gpuHistogram()[25]);
        assertEquals(Pipeline.GL, first.pipeline());
        assertEquals("de.codevoid.andronavibar", first.process().orElseThrow());
        assertEquals(97, first.headerLine());
    }

    @Test
    void shouldStreamTheSameWindowsAndFramesAsTheWholeFileRead() throws Exception {
        List<FramestatsBlock> blocks = FramestatsReader.read(Capture.FILE);
        List<String> names = new ArrayList<>();
        List<List<long[]>> frames = new ArrayList<>();
        int sections;
        try (var in = Files.newInputStream(Capture.FILE)) {
            sections = FramestatsReader.stream(in, "capture", new FramestatsReader.FrameListener() {
                @Override
                public void sectionStarted(String name, ColumnSet columnSet, Pipeline pipeline) {
                    names.add(name + " " + columnSet + " " + pipeline);
                    frames.add(new ArrayList<>());
                }

                @Override
                public void frame(long[] fields) {
                    frames.get(frames.size() - 1).add(fields.clone());
                }

                @Override
                public void sectionFinished() {
                }
            });
        }
        assertEquals(blocks.size(), sections);
        for (int b = 0; b < blocks.size(); b++) {
            FramestatsBlock block = blocks.get(b);
            assertEquals(block.name() + " " + block.columnSet() + " " + block.pipeline(), names.get(b));
            assertEquals(block.frameCount(), frames.get(b).size(), block.name());
            for (int i = 0; i < block.frameCount(); i++) {
                long[] expected = new long[FrameInfo.FIELD_COUNT];
                FrameInfo f = block.frame(i);
                for (int k = 0; k < expected.length; k++) {
                    expected[k] = f.get(k);
                }
                assertArrayEquals(expected, frames.get(b).get(i), block.name() + " frame " + i);
            }
        }
    }

    @Test
    void shouldReturnNoBlocksForADumpWithoutFramestats() throws Exception {
        assertEquals(List.of(), FramestatsReader.read(TestData.androidGfxinfo("NuvioTV-gfxinfo.txt")));
        assertEquals(List.of(), read(""));
        assertEquals(List.of(), read("hello\nworld\n"));
    }

    @Test
    void shouldTolerateWindowsLineEndingsAndAByteOrderMark() throws Exception {
        List<String> section = Capture.section(Capture.SUB_SETTINGS);
        String crlf = "\uFEFF" + String.join("\r\n", section) + "\r\n";
        Path file = dir.resolve("crlf.csv");
        Files.write(file, crlf.getBytes(StandardCharsets.UTF_8));
        FramestatsBlock b = FramestatsReader.read(file).get(0);
        assertEquals(79, b.frameCount());
    }

    @Test
    void shouldRejectARowThatIsNotANumberWithItsLineNumber() {
        String row = modernRow(1_000_000 * MS, 1_000_000 * MS + 10 * MS, 1_000_000 * MS + 11 * MS);
        FramestatsFormatException e = readFails("\n\n" + MODERN_HEADER_AS_PRINTED + "\n" + row + "\n"
                + row.replaceFirst("^0,", "0x1,") + "\n");
        assertEquals(5, e.line());
        assertEquals("test.txt", e.source());
        assertTrue(e.getMessage().startsWith("test.txt:5: column Flags holds '0x1'"), e.getMessage());
    }

    @Test
    void shouldRejectARowWithTheWrongNumberOfValues() {
        String row = modernRow(1_000_000 * MS, 1_000_000 * MS + 10 * MS, 1_000_000 * MS + 11 * MS);
        FramestatsFormatException shortRow = readFails("---PROFILEDATA---\n" + MODERN_HEADER_AS_PRINTED + "\n"
                + row.substring(0, row.lastIndexOf(',', row.length() - 2)) + "\n---PROFILEDATA---\n");
        assertEquals(3, shortRow.line());
        assertEquals("row has 22 values, the header (line 2) has 23 columns", shortRow.detail());
        FramestatsFormatException longRow = readFails(MODERN_HEADER_AS_PRINTED + "\n" + row + "5,\n");
        assertEquals(2, longRow.line());
        assertEquals("row has 24 values, the header (line 1) has 23 columns", longRow.detail());
    }

    @Test
    void shouldRejectASectionThatIsNeverClosed() {
        FramestatsFormatException e = readFails("Window: X\n\n---PROFILEDATA---\n" + ANDROID9_HEADER + "\n");
        assertEquals(3, e.line());
        assertTrue(e.detail().contains("never closed"), e.detail());
    }

    @Test
    void shouldRejectASectionWithoutAHeader() {
        FramestatsFormatException e = readFails("---PROFILEDATA---\n0,1,2,3\n---PROFILEDATA---\n");
        assertEquals(2, e.line());
        assertTrue(e.detail().startsWith("expected the framestats header"), e.detail());
    }

    @Test
    void shouldRejectAHeaderWithoutTheColumnsTheTrackerNeeds() {
        FramestatsFormatException modern = readFails(MODERN_HEADER_AS_PRINTED.replace("GpuCompleted,", "")
                .replace("SyncStart,", "") + "\n");
        assertEquals("framestats header lacks columns SyncStart, GpuCompleted", modern.detail());
        FramestatsFormatException noInterval = readFails(MODERN_HEADER_AS_PRINTED.replace("FrameInterval,", "")
                .replace("FrameStartTime,", "") + "\n");
        assertEquals("framestats header lacks column FrameInterval", noInterval.detail());
        FramestatsFormatException old = readFails(ANDROID9_HEADER.replace(",Vsync,", ",") + "\n");
        assertEquals("framestats header lacks column Vsync", old.detail());
        FramestatsFormatException twice = readFails(ANDROID9_HEADER + "Vsync,\n");
        assertEquals("header names column Vsync twice", twice.detail());
    }

    @Test
    void shouldIgnoreColumnsItDoesNotKnow() throws Exception {
        long t = 1_000_000 * MS;
        String row = modernRow(t, t + 10 * MS, t + 11 * MS);
        FramestatsBlock b = read(MODERN_HEADER_AS_PRINTED + "FutureColumn,\n" + row + "123,\n").get(0);
        assertEquals(1, b.frameCount());
        assertEquals(t + 10 * MS, b.frame(0).get(FrameInfo.FRAME_COMPLETED));
    }

    @Test
    void shouldRejectAMalformedStatisticsLineWithItsLineNumber() {
        String section = "---PROFILEDATA---\n" + ANDROID9_HEADER + "\n---PROFILEDATA---\n";
        FramestatsFormatException total = readFails("Window: W\nTotal frames rendered: many\n" + section);
        assertEquals(2, total.line());
        FramestatsFormatException histogram = readFails("Window: W\nTotal frames rendered: 1\nHISTOGRAM: 5ms=1 6ms=0\n"
                + section);
        assertEquals(3, histogram.line());
        assertEquals("HISTOGRAM has 2 buckets, expected 154", histogram.detail());
        FramestatsFormatException label = readFails("Window: W\nTotal frames rendered: 1\nGPU HISTOGRAM: "
                + "2ms=0 ".repeat(26) + "\n" + section);
        assertEquals("GPU HISTOGRAM bucket 1 is '2ms=0', expected 1ms=<count>", label.detail());
    }

    @Test
    void shouldGiveEveryFrameAsACopy() throws Exception {
        FramestatsBlock b = read(String.join("\n", Capture.section(Capture.SUB_SETTINGS))).get(0);
        FrameInfo f = b.frame(0);
        long before = f.get(FrameInfo.FRAME_COMPLETED);
        f.set(FrameInfo.FRAME_COMPLETED, 0);
        assertEquals(before, b.frame(0).get(FrameInfo.FRAME_COMPLETED));
        List<Long> seen = new ArrayList<>();
        b.replay((frame, sink) -> seen.add(frame.get(FrameInfo.INTENDED_VSYNC)), counter -> { });
        assertEquals(b.frameCount(), seen.size());
        long[] intended = new long[b.frameCount()];
        for (int i = 0; i < intended.length; i++) {
            intended[i] = b.frame(i).get(FrameInfo.INTENDED_VSYNC);
        }
        assertArrayEquals(intended, seen.stream().mapToLong(Long::longValue).toArray());
        assertTrue(Arrays.stream(intended).allMatch(v -> v > 0));
    }
}
