package io.gfxstats.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gfxstats.testing.TestData;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The tables {@code trace --format sqlite} shares with trace_streamer's export have its columns, in its
 * order, with the types its {@code CREATE TABLE ... AS SELECT} export declares (the golden list is
 * {@code testdata/trace-streamer/sqlite-schema.txt}), and the rows of the columns added for it.
 */
class TraceSqliteShapeTest {
    @TempDir
    Path dir;

    private static final String COUNTER =
            "RenderThread-4001 (4000) [1] .... 100.000250: tracing_mark_write: C|4000|H:queued|3|M62\n";

    private Path database() throws Exception {
        Path trace = dir.resolve("t.ftrace");
        Files.writeString(trace, COUNTER + TraceCommandTest.JANKY_APP, StandardCharsets.UTF_8);
        Path db = dir.resolve("t.db");
        CliRun r = CliRun.main("trace", trace.toString(), "--format", "sqlite", "--out", db.toString());
        assertEquals(0, r.exit(), r.stderr());
        return db;
    }

    @Test
    void shouldDeclareTraceStreamersExportColumnsInItsOrderAndTypes() throws Exception {
        List<String> golden = new ArrayList<>();
        Set<String> tables = new LinkedHashSet<>();
        for (String line : Files.readAllLines(TestData.file("trace-streamer", "sqlite-schema.txt"))) {
            if (!line.startsWith("#") && !line.isBlank()) {
                golden.add(line);
                tables.add(line.substring(0, line.indexOf('|')));
            }
        }
        List<String> actual = new ArrayList<>();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + database()); Statement s = c.createStatement()) {
            for (String table : tables) {
                try (ResultSet rs = s.executeQuery("PRAGMA table_info(" + table + ")")) {
                    while (rs.next()) {
                        assertEquals(0, rs.getInt("pk"), table + "." + rs.getString("name") + " is no primary key");
                        actual.add(table + "|" + rs.getString("name") + "|" + rs.getString("type"));
                    }
                }
            }
        }
        assertEquals(golden, actual);
    }

    @Test
    void shouldCountThreadsSlicesAndCountersPerProcessAsTraceStreamerDoes() throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + database()); Statement s = c.createStatement()) {
            List<String> rows = new ArrayList<>();
            try (ResultSet rs = s.executeQuery("SELECT pid, name, start_ts IS NULL, switch_count, thread_count, slice_count,"
                    + " mem_count FROM process ORDER BY ipid")) {
                while (rs.next()) {
                    rows.add(rs.getInt(1) + " " + rs.getString(2) + " " + rs.getInt(3) + " " + rs.getInt(4) + " "
                            + rs.getInt(5) + " " + rs.getInt(6) + " " + rs.getInt(7));
                }
            }
            // 4000 has two threads (count starts at -1), one of which closed a slice, and a counter;
            // render_service one thread that closed slices and no counter.
            assertEquals(List.of("0 null 1 0 -1 0 0", "4000 app 1 0 1 1 1",
                    "1000 render_service 1 0 0 1 0"), rows);
            try (ResultSet rs = s.executeQuery("SELECT count(*), sum(start_ts IS NULL AND end_ts IS NULL), sum(switch_count)"
                    + " FROM thread")) {
                assertEquals(4, rs.getInt(1), "placeholder, RenderThread, app, render_service");
                assertEquals(4, rs.getInt(2));
                assertEquals(0, rs.getInt(3));
            }
        }
    }

    @Test
    void shouldGiveTheCallstackRowEveryFrameNames() throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + database()); Statement s = c.createStatement()) {
            try (ResultSet rs = s.executeQuery("SELECT count(*), sum(k.id IS NULL) FROM frame_slice f"
                    + " LEFT JOIN callstack k ON k.id = f.callstack_id")) {
                assertEquals(4, rs.getInt(1), "two frames, each an actual and an expected row");
                assertEquals(0, rs.getInt(2), "every callstack_id names a callstack row");
            }
            List<String> rows = new ArrayList<>();
            try (ResultSet rs = s.executeQuery("SELECT k.id, k.ts, k.dur, t.tid, k.depth, k.parent_id IS NULL, k.cookie IS NULL,"
                    + " k.name FROM callstack k JOIN thread t ON t.itid = k.callid ORDER BY k.id")) {
                while (rs.next()) {
                    rows.add(rs.getLong(1) + " " + rs.getLong(2) + " " + rs.getLong(3) + " " + rs.getInt(4) + " "
                            + rs.getInt(5) + " " + rs.getInt(6) + " " + rs.getInt(7) + " " + rs.getString(8));
                }
            }
            assertEquals(2, rows.size(), rows.toString());
            assertTrue(rows.get(0).startsWith("0 100000200000 16900000 4000 0 1 1 H:ReceiveVsync name:WM_4000 "), rows.get(0));
            assertTrue(rows.get(1).startsWith("3 100017300000 3700000 1000 0 1 1 H:ReceiveVsync name:rs "), rows.get(1));
        }
    }
}
