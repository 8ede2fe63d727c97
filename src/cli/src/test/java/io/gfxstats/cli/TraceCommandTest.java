package io.gfxstats.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gfxstats.proto.GraphicsStatsServiceDumpProto;
import io.gfxstats.testing.TestData;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code gfxstats trace} end to end through {@link Main#run}, on the real excerpt and small synthetic files. */
class TraceCommandTest {
    static final Path EXCERPT = TestData.file("openharmony-trace", "codrax-donghu-rs-excerpt.ftrace");

    @TempDir
    Path dir;

    /** One app frame, 100 % janky (its OnVsyncEvent ends at 17 ms of a 16 ms window), linked to an on-time RS frame. */
    static final String JANKY_APP = String.join("\n",
            "app-4000 (4000) [1] .... 100.000200: tracing_mark_write: B|4000|H:ReceiveVsync name:WM_4000 dataCount: 24bytes now: 100000000000 expectedEnd: 100016000000 vsyncId: 10, fd:30|M62",
            "app-4000 (4000) [1] .... 100.000300: tracing_mark_write: B|4000|H:OnVsyncEvent now:100000000000|M62",
            "app-4000 (4000) [1] .... 100.006000: tracing_mark_write: B|4000|H:MarshRSTransactionData cmdCount: 5, transactionFlag:[4000,7]|M62",
            "app-4000 (4000) [1] .... 100.006100: tracing_mark_write: E|4000|M62",
            "app-4000 (4000) [1] .... 100.017000: tracing_mark_write: E|4000|M62",
            "app-4000 (4000) [1] .... 100.017100: tracing_mark_write: E|4000|M62",
            "render_service-1000 (1000) [2] .... 100.017300: tracing_mark_write: B|1000|H:ReceiveVsync name:rs dataCount: 24bytes now: 100016000000 expectedEnd: 100043000000 vsyncId: 11, fd:17|M0538",
            "render_service-1000 (1000) [2] .... 100.017400: tracing_mark_write: B|1000|H:RSMainThread::DoComposition: 100016350000|I38",
            "render_service-1000 (1000) [2] .... 100.017500: tracing_mark_write: B|1000|H:RSMainThread::ProcessCommandUni [4000,7]|M0538",
            "render_service-1000 (1000) [2] .... 100.017600: tracing_mark_write: E|1000|M0538",
            "render_service-1000 (1000) [2] .... 100.020000: tracing_mark_write: E|1000|I38",
            "render_service-1000 (1000) [2] .... 100.021000: tracing_mark_write: E|1000|M0538", "");

    @Test
    void shouldPrintASummaryPerProcess() {
        CliRun r = CliRun.main("trace", EXCERPT.toString());
        assertEquals(0, r.exit(), r.stderr());
        String out = r.out();
        assertTrue(out.contains("Clock offset: 49434 ns (auto: min(line ts - now) over 39 'H:VSync now:' lines)"), out);
        assertTrue(out.contains("Process: render_service (pid 1864)\nFrames: 11 (linked 0, unlinked 11; empty 0, unfinished 0)\n"
                + "Janky frames: 0 (0.00%)\nAbnormal render start (flag 3): 0\n"), out);
        assertTrue(out.contains("Process: .ugc.aweme.lite (pid 37722)"), out);
        assertTrue(out.contains("(ohos+android, "), out);
        assertEquals("", r.stderr());
    }

    @Test
    void shouldWriteOneCsvRowPerFrame() {
        CliRun r = CliRun.main("trace", EXCERPT.toString(), "--format", "csv", "--process", "render_service");
        assertEquals(0, r.exit(), r.stderr());
        List<String> lines = r.out().lines().toList();
        assertEquals(12, lines.size());
        assertEquals("process,pid,tid,role,vsync_id,frame_index,app_start,app_end,expected_start,expected_end,render_start,"
                + "render_end,render_expected_start,render_expected_end,gpu_dur,timeline_start,timeline_end,frame_time,"
                + "period,flag,jank_reason,clock_offset_ns", lines.get(0));
        assertEquals("render_service,1864,1864,render,475870,,,,,,13762796290000,13762798944000,13762796011182,"
                + "13762813194540,,13762796290000,13762798944000,2654000,11091679,0,none,49434", lines.get(1));
    }

    @Test
    void shouldWriteJson() {
        CliRun r = CliRun.main("trace", EXCERPT.toString(), "--format", "json", "--clock-offset", "none", "--platform", "ohos");
        assertEquals(0, r.exit(), r.stderr());
        String out = r.out();
        assertTrue(out.startsWith("{\"trace\":{\"source\":"), out);
        assertTrue(out.contains("\"platform\":\"ohos\",\"clockOffsetNs\":0,"), out);
        assertTrue(out.contains("{\"process\":\"render_service\",\"pid\":1864,\"summary\":{\"totalFrames\":11,"), out);
        assertTrue(out.contains(",\"jankyFrames\":"), "janky counts in the pull's name: " + out);
        assertFalse(out.contains("\"role\":\"android\""), out);
        assertTrue(out.contains("\"vsyncId\":475870,\"frameIndex\":null,"), out);
        assertFalse(out.matches("(?s).*\"[a-z0-9]+_[a-z0-9_]+\":.*"), "camelCase keys only: " + out);
    }

    @Test
    void shouldWriteTraceStreamersTablesToSqlite() throws Exception {
        Path db = dir.resolve("frames.db");
        CliRun r = CliRun.main("trace", EXCERPT.toString(), "--format", "sqlite", "--out", db.toString());
        assertEquals(0, r.exit(), r.stderr());
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement s = c.createStatement()) {
            try (ResultSet rs = s.executeQuery("SELECT count(*), sum(type), sum(flag IS NULL) FROM frame_slice")) {
                assertEquals(22, rs.getInt(1));
                assertEquals(11, rs.getInt(2));
                assertEquals(11, rs.getInt(3), "expected rows have flag NULL");
            }
            try (ResultSet rs = s.executeQuery("SELECT f.ts, f.dur, f.vsync, f.type_desc, f.depth, t.tid, p.pid, p.name"
                    + " FROM frame_slice f JOIN thread t ON t.itid = f.itid JOIN process p ON p.ipid = f.ipid WHERE f.id = 0")) {
                assertEquals(13762796290000L, rs.getLong(1));
                assertEquals(2654000, rs.getLong(2));
                assertEquals(475870, rs.getLong(3));
                assertEquals("actural", rs.getString(4));
                assertEquals(0, rs.getInt(5));
                assertEquals(1864, rs.getInt(6));
                assertEquals(1864, rs.getInt(7));
                assertEquals("render_service", rs.getString(8));
            }
            try (ResultSet rs = s.executeQuery("SELECT count(*) FROM frame_maps")) {
                assertEquals(0, rs.getInt(1));
            }
            try (ResultSet rs = s.executeQuery("SELECT count(*) FROM gpu_slice")) {
                assertEquals(0, rs.getInt(1));
            }
            try (ResultSet rs = s.executeQuery("SELECT start_ts < end_ts FROM trace_range")) {
                assertEquals(1, rs.getInt(1));
            }
            try (ResultSet rs = s.executeQuery("SELECT value FROM meta WHERE name = 'clock_offset_ns'")) {
                assertEquals("49434", rs.getString(1));
            }
        }
        try (var files = Files.list(dir)) {
            assertEquals(List.of(db), files.toList(), "no temporary file left behind");
        }
    }

    @Test
    void shouldNeedAnOutputFileForSqlite() {
        CliRun r = CliRun.main("trace", EXCERPT.toString(), "--format", "sqlite");
        assertEquals(2, r.exit());
        assertEquals("gfxstats trace: --format sqlite needs --out PATH (a database file)", r.onlyErrorLine());
    }

    @Test
    void shouldReadGzipAndStdinAlike() throws Exception {
        Path gz = dir.resolve("excerpt.ftrace.gz");
        try (OutputStream o = new GZIPOutputStream(Files.newOutputStream(gz))) {
            Files.copy(EXCERPT, o);
        }
        String plain = CliRun.main("trace", EXCERPT.toString(), "--format", "csv").out();
        CliRun zipped = CliRun.main("trace", gz.toString(), "--format", "csv");
        assertEquals(0, zipped.exit(), zipped.stderr());
        assertEquals(plain, zipped.out());
        CliRun stdin = CliRun.command(new TraceCommand(), Files.readString(EXCERPT), "-", "--format", "csv");
        assertEquals(plain, stdin.out());
    }

    @Test
    void shouldNameFileAndLineOfBadInput() throws Exception {
        Path bad = dir.resolve("bad.ftrace");
        Files.writeString(bad, "# tracer: nop\n" + JANKY_APP.lines().findFirst().orElseThrow() + "\ngarbage tracing_mark_write: B|1|x\n");
        CliRun r = CliRun.main("trace", bad.toString());
        assertEquals(0, r.exit(), "a bad line is skipped, as trace_streamer skips it");
        assertEquals("gfxstats trace: " + bad + ": skipped 1 tracing_mark_write line without the ftrace row header"
                + " (the first is line 3); the rest of the trace is read", r.onlyErrorLine());
        assertEquals("gfxstats trace: cannot read " + dir.resolve("nope") + ": no such file",
                CliRun.main("trace", dir.resolve("nope").toString()).onlyErrorLine());
        Path text = dir.resolve("notes.txt");
        Files.writeString(text, "hello\nworld\n");
        assertEquals("gfxstats trace: " + text + ": no ftrace event lines ('<task>-<tid> (<tgid>) [<cpu>] <flags>"
                + " <sec>.<frac>: <event>: ...'): not a text trace", CliRun.main("trace", text.toString()).onlyErrorLine());
        Path gz = dir.resolve("cut.gz");
        Files.write(gz, new byte[] {0x1f, (byte) 0x8b, 8, 0, 0, 0});
        CliRun cut = CliRun.main("trace", gz.toString());
        assertEquals(2, cut.exit());
        assertTrue(cut.onlyErrorLine().startsWith("gfxstats trace: cannot read " + gz + ": "), cut.stderr());
    }

    @Test
    void shouldRejectBadOptions() {
        assertEquals("gfxstats trace: --format takes one of summary, csv, json, sqlite, dumpsys, proto, got 'xml'",
                CliRun.main("trace", EXCERPT.toString(), "--format", "xml").onlyErrorLine());
        assertEquals("gfxstats trace: --clock-offset takes auto, none or a whole number of nanoseconds, got 'later'",
                CliRun.main("trace", EXCERPT.toString(), "--clock-offset", "later").onlyErrorLine());
        assertEquals("gfxstats trace: --fail-on-janky-percent takes a number from 0 to 100, got '101'",
                CliRun.main("trace", EXCERPT.toString(), "--fail-on-janky-percent", "101").onlyErrorLine());
        assertEquals("gfxstats trace: missing input: FILE, or - for stdin (try: gfxstats trace --help)",
                CliRun.main("trace").onlyErrorLine());
        CliRun none = CliRun.main("trace", EXCERPT.toString(), "--process", "com.nothing");
        assertEquals(2, none.exit());
        assertTrue(none.onlyErrorLine().startsWith("gfxstats trace: no process with frames matches --process com.nothing;"
                + " processes with frames: render_service (1864), .ugc.aweme.lite (37722)"), none.stderr());
        assertEquals(0, CliRun.main("trace", "--help").exit());
        Path nowhere = dir.resolve("missing").resolve("x.db");
        assertEquals("gfxstats trace: cannot write " + nowhere + ": no such directory " + nowhere.getParent(),
                CliRun.main("trace", EXCERPT.toString(), "--format", "sqlite", "--out", nowhere.toString()).onlyErrorLine());
    }

    @Test
    void shouldSelectProcessesByNamePidOrKernelTgid() {
        String byTgid = CliRun.main("trace", EXCERPT.toString(), "--process", "17267").out();
        assertTrue(byTgid.contains("Process: .ugc.aweme.lite (pid 37722)"), byTgid);
        assertFalse(byTgid.contains("render_service"), byTgid);
        String android = CliRun.main("trace", EXCERPT.toString(), "--platform", "android").out();
        assertFalse(android.contains("render_service"), android);
        String both = CliRun.main("trace", EXCERPT.toString(), "--process", "1864", "--process", "aweme").out();
        assertTrue(both.contains("render_service") && both.contains("aweme"), both);
    }

    @Test
    void shouldExitThreeAboveTheJankyThreshold() throws Exception {
        Path trace = dir.resolve("janky.ftrace");
        Files.writeString(trace, JANKY_APP);
        CliRun fail = CliRun.main("trace", trace.toString(), "--clock-offset", "none", "--fail-on-janky-percent", "50",
                "--format", "csv");
        assertEquals(3, fail.exit());
        assertTrue(fail.out().contains(",16000000,1,app-late,0\n"), fail.out());
        assertEquals("gfxstats trace: app (pid 4000) has 100.00% janky frames, above 50%", fail.onlyErrorLine());
        assertEquals(0, CliRun.main("trace", trace.toString(), "--clock-offset", "none", "--fail-on-janky-percent", "100").exit());
        assertEquals(0, CliRun.main("trace", trace.toString(), "--clock-offset", "none", "--fail-on-janky-percent", "50",
                "--process", "1000").exit());
        assertEquals(0, CliRun.main("trace", trace.toString(), "--fail-on-janky-percent", "50").exit(),
                "auto: RenderService's ReceiveVsync puts the vsync 1.3 ms later on the trace clock: on time");
    }

    @Test
    void shouldWidenTheSortWindowOnRequest() throws Exception {
        StringBuilder text = new StringBuilder();
        // 1,026 lines after it, the E that belongs first: out of order by more than the default window.
        for (int i = 0; i <= 1025; i++) {
            text.append(String.format(java.util.Locale.ROOT,
                    "RenderThread-77 (77) [002] .... 20.%06d: tracing_mark_write: B|77|x%n", i + 10));
        }
        text.append("RenderThread-77 (77) [002] .... 20.000001: tracing_mark_write: E|77\n");
        Path file = dir.resolve("late.ftrace");
        Files.writeString(file, text);
        CliRun narrow = CliRun.main("trace", file.toString(), "--clock-offset", "none");
        assertTrue(narrow.stderr().contains("1 marker line is out of time order by more than 1024 lines; read where they"
                + " stand (widen with --sort-window N)"), narrow.stderr());
        CliRun wide = CliRun.main("trace", file.toString(), "--clock-offset", "none", "--sort-window", "4096");
        assertFalse(wide.stderr().contains("out of time order"), wide.stderr());
        assertEquals("gfxstats trace: --sort-window must be a whole number of lines from 1 to 1048576, got '0'",
                CliRun.main("trace", file.toString(), "--sort-window", "0").onlyErrorLine());
    }

    @Test
    void shouldWriteDumpsysAndProtoForTheSameFrames() throws Exception {
        CliRun text = CliRun.main("trace", EXCERPT.toString(), "--format", "dumpsys", "--process", "render_service");
        assertEquals(0, text.exit(), text.stderr());
        assertTrue(text.out().contains("\nPackage: render_service\n"), text.out());
        assertTrue(text.out().contains("\nTotal frames rendered: 11\n"), text.out());
        assertEquals("gfxstats trace: clock offset 49434 ns (auto: min(line ts - now) over 39 'H:VSync now:' lines)",
                text.onlyErrorLine());
        CliRun proto = CliRun.main("trace", EXCERPT.toString(), "--format", "proto");
        GraphicsStatsServiceDumpProto dump = GraphicsStatsServiceDumpProto.parseFrom(proto.stdout());
        assertEquals(List.of("render_service", ".ugc.aweme.lite"),
                dump.getStatsList().stream().map(s -> s.getPackageName()).toList());
        assertEquals(11, dump.getStats(0).getSummary().getTotalFrames());
        Path out = dir.resolve("dump.pb");
        assertEquals(0, CliRun.main("trace", EXCERPT.toString(), "--format", "proto", "--out", out.toString()).exit());
        assertEquals(dump, GraphicsStatsServiceDumpProto.parseFrom(Files.readAllBytes(out)));
        assertEquals(new String(proto.stdout(), StandardCharsets.ISO_8859_1),
                new String(Files.readAllBytes(out), StandardCharsets.ISO_8859_1));
    }
}
