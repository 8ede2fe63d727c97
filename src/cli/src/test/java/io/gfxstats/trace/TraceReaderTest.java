package io.gfxstats.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;

/** Every example line of spec section 2 through the tokenizer and the marker decoder. */
class TraceReaderTest {
    /** A decoded marker line, copied out of the reused {@link MarkerLine}. */
    record Decoded(String task, int tid, int rowTgid, long ts, char phase, int pid, String name, long value) {
    }

    static List<Decoded> decode(String text) throws Exception {
        return decode(text.getBytes(StandardCharsets.UTF_8));
    }

    static List<Decoded> decode(byte[] bytes) throws Exception {
        List<Decoded> out = new ArrayList<>();
        TraceReader.read(new ByteArrayInputStream(bytes), "test", m -> out.add(new Decoded(m.task(), m.tid(), m.rowTgid(),
                m.ts(), m.phase(), m.pid(), m.name(), m.value())), null);
        return out;
    }

    static Decoded one(String line) throws Exception {
        List<Decoded> d = decode(line + "\n");
        assertEquals(1, d.size(), "decoded lines of: " + line);
        return d.get(0);
    }

    @Test
    void shouldDecodeTheRealLinesOfSpecSection22() throws Exception {
        assertEquals(new Decoded("org.servo.servo", 46512, 46512, 7230472274412000L, 'B', 46512,
                        "H:on_surface_created_cb", 0),
                one(" org.servo.servo-46512   (  46512) [010] .... 7230472.274412: tracing_mark_write: B|46512|H:on_surface_created_cb "));
        assertEquals(new Decoded("<...>", 58089, -1, 510490313834000L, 'C', 57783, "H:servo_memory_profiling:resident", 403623936),
                one("           <...>-58089   (-------) [010] .... 510490.313834: tracing_mark_write: C|57783|H:servo_memory_profiling:resident|403623936|M62"));
        assertEquals(new Decoded("render_service", 1864, 1864, 13762797447000L, 'B', 1864,
                        "H:RSMainThread::ProcessCommandUni|M0538", 0),
                one("render_service-1864  ( 1864) [007] .... 13762.797447: print: B|1864|H:RSMainThread::ProcessCommandUni|M0538"));
        assertEquals(new Decoded("render_service", 1864, 1864, 13762797449000L, 'E', 1864, "", 0),
                one("render_service-1864  ( 1864) [007] .... 13762.797449: print: E|1864|M0538"));
    }

    @Test
    void shouldDecodeTheApi19FormsOfTheTable() throws Exception {
        String head = "app-1234 (1234) [001] .... 100.000001: tracing_mark_write: ";
        assertEquals('B', one(head + "B|1234|H:tracename|M62|user=root,type=2").phase());
        assertEquals("H:tracename|M62|user=root,type=2", one(head + "B|1234|H:tracename|M62|user=root,type=2").name());
        Decoded e = one(head + "E|1864|M0538");
        assertEquals('E', e.phase());
        assertEquals(1864, e.pid());
        Decoded s = one(head + "S|49837|H:myTestAsyncTrace|1001|M62|categoryTest|key=value");
        assertEquals("H:myTestAsyncTrace", s.name());
        assertEquals(1001, s.value());
        assertEquals(49837, s.pid());
        Decoded f = one(head + "F|49837|H:myTestAsyncTrace|1001|M62");
        assertEquals('F', f.phase());
        assertEquals(1001, f.value());
        Decoded c = one(head + "C|1252|H:VSync-rs|0|I38");
        assertEquals("H:VSync-rs", c.name());
        assertEquals(0, c.value());
    }

    @Test
    void shouldDecodeTheOlderSpaceSeparatedForms() throws Exception {
        String head = "app-1234 (1234) [001] .... 100.000001: tracing_mark_write: ";
        assertEquals("H:tracename", one(head + "B|1234|H:tracename ").name());
        assertEquals('E', one(head + "E|1234|").phase());
        assertEquals(1234, one(head + "E|1234").pid());
        Decoded s = one(head + "S|1234|H:tracename 428");
        assertEquals("H:tracename", s.name());
        assertEquals(428, s.value());
        Decoded c = one(head + "C|1234|H:tracename 5678");
        assertEquals("H:tracename", c.name());
        assertEquals(5678, c.value());
        Decoded q = one(head + "S|1000|H:M: Frame queued 7");
        assertEquals("H:M: Frame queued", q.name());
        assertEquals(7, q.value());
        Decoded real = one(" org.servo.servo-46888   (  46512) [010] .... 7230474.327149: tracing_mark_write: C|46512|H:servo_memory_profiling:system-fonts 28896");
        assertEquals(28896, real.value());
        assertEquals(46888, real.tid());
    }

    @Test
    void shouldDecodeAndroidAtracePayloads() throws Exception {
        String head = "RenderThread-17597 (17267) [002] .... 13762.793959: tracing_mark_write: ";
        Decoded b = one(head + "B|37722|DrawFrames 641493");
        assertEquals("DrawFrames 641493", b.name());
        assertEquals(37722, b.pid());
        assertEquals(17267, b.rowTgid());
        assertEquals(17597, b.tid());
        assertEquals(37722, one(head + "E|37722").pid());
        Decoded bare = one(head + "E");
        assertEquals('E', bare.phase());
        assertEquals(17267, bare.pid(), "no payload pid: the row TGID");
        assertEquals(60, one(head + "C|37722|RenderRate|60").value());
        assertEquals(5, one(head + "S|37722|launching: com.example|5").value());
        assertEquals(5, one(head + "F|37722|launching: com.example|5").value());
        assertEquals('G', one(head + "G|37722|track|name|5").phase());
        assertTrue(decode(head + "I|227|vsync in 48.62ms\n").isEmpty(), "instants are dropped, as upstream");
        assertTrue(decode(head + "trace_event_clock_sync: parent_ts=1.0\n").isEmpty());
        assertTrue(decode(head + "X|1|what\n").isEmpty());
        assertTrue(decode(head + "B\n").isEmpty(), "only E may be bare");
        assertTrue(decode(head + "S|1|name|notanumber\n").isEmpty());
    }

    @Test
    void shouldReadTabsNineDigitFractionsNoTgidColumnAndCrlf() throws Exception {
        Decoded tab = one("\tapp-77 (77) [001] .... 5.123456789: print: B|77|H:x|M62");
        assertEquals(5_123_456_789L, tab.ts());
        assertEquals(77, tab.tid());
        Decoded noTgid = one("  surfaceflinger-601   [002] ...1 12.5: tracing_mark_write: B|601|onMessageReceived");
        assertEquals(-1, noTgid.rowTgid());
        assertEquals(601, noTgid.pid());
        assertEquals(12_500_000_000L, noTgid.ts());
        Decoded noFlags = one("app-9 (9) [000] 1.000001: tracing_mark_write: B|9|x");
        assertEquals(1_000_000_999L, noFlags.ts(), "truncated as trace_streamer does (TraceFilesTest)");
        List<Decoded> crlf = decode("app-9 (9) [000] .... 1.000001: tracing_mark_write: B|9|H:x|M62\r\n"
                + "app-9 (9) [000] .... 1.000002: tracing_mark_write: E|9|M62\r\n");
        assertEquals("H:x|M62", crlf.get(0).name());
        assertEquals('E', crlf.get(1).phase());
        assertEquals(2, crlf.size());
        Decoded dashes = one("OS_IPC_14_45174-45174 (-----) [003] .... 2.000000: print: B|45000|H:ReceiveVsync a|M62");
        assertEquals("OS_IPC_14_45174", dashes.task());
        assertEquals(45174, dashes.tid());
        assertEquals(45000, dashes.pid());
    }

    @Test
    void shouldDecodeTheFrameMarkerExamplesOfSpecSection23() throws Exception {
        Decoded rv = one("render_service-1864  ( 1864) [007] .... 13762.796290: print: B|1864|H:ReceiveVsync name:rs dataCount: 24bytes now:13762795961748 expectedEnd: 13762813145106 vsyncId:475870, fd:17|M0538");
        assertTrue(rv.name().startsWith("H:ReceiveVsync name:rs"));
        assertTrue(one("render_service-1864  ( 1864) [007] .... 13762.796300: print: B|1864|H:RSMainThread::DoComposition: 13762796309688|I38").name()
                .startsWith("H:RSMainThread::DoComposition: "));
        assertEquals("H:VSync now:13762795961748, period:11091679, refreshRate:90, isDVSyncController:0|M0538",
                one("VSyncGenerator-1900 ( 1864) [007] .... 13762.796000: print: B|1864|H:VSync now:13762795961748, period:11091679, refreshRate:90, isDVSyncController:0|M0538").name());
    }

    @Test
    void shouldSkipKernelEventsAndHeaders() throws Exception {
        TraceText t = new TraceText().header().sched(1_000_000, 5).b(2_000_000_000L, 9, 9, "H:x").sched(3_000_000, 5);
        assertEquals(1, decode(t.text()).size());
        TraceReader.Stats stats = TraceReader.read(t.stream(), "t", m -> { }, null);
        assertEquals(3, stats.eventLines());
        assertEquals(1, stats.markerLines());
    }

    @Test
    void shouldReadGzip() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(bytes)) {
            gz.write(new TraceText().b(1_000_000_000L, 9, 9, "H:x").e(2_000_000_000L, 9, 9).text()
                    .getBytes(StandardCharsets.UTF_8));
        }
        assertEquals(2, decode(bytes.toByteArray()).size());
    }

    @Test
    void shouldRefuseBinaryInput() {
        TraceFormatException e = assertThrows(TraceFormatException.class, () -> decode(new byte[] {8, 0, 1, 2, 3}));
        assertTrue(e.getMessage().startsWith("test: binary data, not trace text"), e.getMessage());
    }

    @Test
    void shouldFindEveryNewlineEightBytesAtATime() {
        java.util.Random rnd = new java.util.Random(42);
        for (int round = 0; round < 2000; round++) {
            byte[] b = new byte[1 + rnd.nextInt(40)];
            for (int i = 0; i < b.length; i++) {
                int kind = rnd.nextInt(6);
                b[i] = (byte) (kind == 0 ? '\n' : kind == 1 ? 0x0B : kind == 2 ? 0x8A : kind == 3 ? 0x09 : rnd.nextInt(256));
            }
            int from = rnd.nextInt(b.length);
            int expected = -1;
            for (int i = from; i < b.length; i++) {
                if (b[i] == '\n') {
                    expected = i;
                    break;
                }
            }
            assertEquals(expected, LineScanner.indexOfNewline(b, from, b.length), java.util.Arrays.toString(b) + " from " + from);
        }
    }

    @Test
    void shouldReadLinesLongerThanABlock() throws Exception {
        String name = "H:" + "x".repeat(LineScanner.BLOCK_BYTES + 10);
        Decoded d = one("app-9 (9) [000] .... 1.000001: tracing_mark_write: B|9|" + name);
        assertEquals(name, d.name());
    }

    /**
     * The per-line path allocates nothing (row header, payload and MarkerLine are reused): reading
     * ten times the lines costs no more than a constant more. The lines are kernel events and B/E
     * markers, what a trace is mostly made of; a per-line allocation of 16 bytes would add ~1.4 MB.
     */
    @Test
    void shouldAllocateNothingPerLine() throws Exception {
        byte[] small = linesForAllocation(10_000);
        byte[] large = linesForAllocation(100_000);
        for (int round = 0; round < 3; round++) {
            allocatedReading(small); // warm-up, lets the JIT compile the path
            allocatedReading(large);
        }
        long extra = allocatedReading(large) - allocatedReading(small);
        assertTrue(extra < 64 * 1024, extra + " bytes more for 90000 more lines");
    }

    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
    private static volatile long markers;

    private static long allocatedReading(byte[] text) throws Exception {
        ByteArrayInputStream in = new ByteArrayInputStream(text);
        long before = THREADS.getCurrentThreadAllocatedBytes();
        TraceReader.Stats stats = TraceReader.read(in, "t", m -> markers += m.tid(), null);
        long bytes = THREADS.getCurrentThreadAllocatedBytes() - before;
        assertTrue(stats.markerLines() > 0);
        return bytes;
    }

    private static byte[] linesForAllocation(int lines) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < lines; i++) {
            String ts = (1000 + i / 1000) + "." + String.format(java.util.Locale.ROOT, "%06d", i % 1000 * 1000);
            b.append(switch (i % 3) {
                case 0 -> "          <idle>-0     (-----) [003] d..2 " + ts + ": sched_switch: prev_comm=swapper/3 prev_pid=0\n";
                case 1 -> "   render_service-1864  ( 1864) [007] .... " + ts + ": tracing_mark_write: B|1864|H:RSMainThread::DoComposition\n";
                default -> "   render_service-1864  ( 1864) [007] .... " + ts + ": tracing_mark_write: E|1864|\n";
            });
        }
        return b.toString().getBytes(StandardCharsets.US_ASCII);
    }
}
