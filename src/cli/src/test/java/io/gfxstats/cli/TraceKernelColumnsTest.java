package io.gfxstats.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The thread and process columns trace_streamer fills from kernel rows (sched_switch,
 * sched_process_exit, task_newtask), on the smallest traces that show each rule.
 */
class TraceKernelColumnsTest {
    @TempDir
    Path dir;

    private static String marker(String task, int tid, int cpu, String ts, String payload) {
        return task + "-" + tid + " (156) [" + cpu + "] .... " + ts + ": tracing_mark_write: " + payload + "\n";
    }

    private static String kernel(String task, int tid, int cpu, String ts, String event) {
        return task + "-" + tid + " (156) [" + cpu + "] d..2 " + ts + ": " + event + "\n";
    }

    private static String sw(String prev, int prevPid, String next, int nextPid) {
        return "sched_switch: prev_comm=" + prev + " prev_pid=" + prevPid + " prev_prio=120 prev_state=S ==> next_comm="
                + next + " next_pid=" + nextPid + " next_prio=120";
    }

    /** Rows of {@code sql} on the database `trace --format sqlite` writes for {@code text}, columns joined by '|'. */
    private List<String> query(String text, String sql) throws Exception {
        Path trace = dir.resolve("t.ftrace");
        Files.writeString(trace, text);
        Path db = dir.resolve("t.db");
        Files.deleteIfExists(db);
        CliRun r = CliRun.main("trace", trace.toString(), "--clock-offset", "none", "--format", "sqlite", "--out",
                db.toString());
        assertEquals(0, r.exit(), r.stderr());
        List<String> rows = new ArrayList<>();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery(sql)) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                StringBuilder row = new StringBuilder();
                for (int i = 1; i <= n; i++) {
                    row.append(i > 1 ? "|" : "").append(rs.getString(i));
                }
                rows.add(row.toString());
            }
        }
        return rows;
    }

    @Test
    void shouldSetSwitchCountOnceAThreadWithAnEarlierStateIsSwitchedOut() throws Exception {
        String text = marker("gallery", 156, 1, "500.000001", "B|156|H:draw|M62")
                + marker("worker", 157, 3, "500.000002", "B|156|H:load|M62")
                + marker("io", 158, 2, "500.000003", "B|156|H:read|M62")
                // 156: in, then out, then in and out again: 1, not 2 (upstream sets a flag).
                + kernel("<idle>", 0, 1, "500.000010", sw("swapper/1", 0, "gallery", 156))
                + kernel("gallery", 156, 1, "500.000020", sw("gallery", 156, "swapper/1", 0))
                + kernel("<idle>", 0, 1, "500.000030", sw("swapper/1", 0, "gallery", 156))
                + kernel("gallery", 156, 1, "500.000040", sw("gallery", 156, "swapper/1", 0))
                // 157: only switched out, with no state before: 0.
                + kernel("worker", 157, 3, "500.000050", sw("worker", 157, "swapper/3", 0))
                // 158: in on CPU 2 and out on CPU 0 at the same nanosecond: a migration, not a switch.
                + kernel("<idle>", 0, 2, "500.000060", sw("swapper/2", 0, "io", 158))
                + kernel("io", 158, 0, "500.000060", sw("io", 158, "swapper/0", 0))
                // A row whose pid is not a number is dropped: it would have set 157's flag.
                + kernel("worker", 157, 3, "500.000070", sw("worker", 157, "swapper/3", 0).replace("prev_pid=157",
                        "prev_pid=x"));
        assertEquals(List.of("0|0", "156|1", "157|0", "158|0"),
                query(text, "SELECT tid, switch_count FROM thread ORDER BY tid"));
        assertEquals(List.of("0|0", "156|1"), query(text, "SELECT pid, switch_count FROM process ORDER BY pid"));
    }

    @Test
    void shouldEndAThreadAtItsLastProcessExit() throws Exception {
        String text = marker("gallery", 156, 1, "600.000001", "B|156|H:draw|M62")
                + marker("worker", 157, 3, "600.000002", "B|156|H:load|M62")
                + kernel("worker", 157, 3, "600.000100", "sched_process_exit: comm=worker pid=157 prio=120")
                // A pid this trace's markers never named: no row of its own.
                + kernel("other", 900, 0, "600.000200", "sched_process_exit: comm=other pid=900 prio=120");
        assertEquals(List.of("0|null", "156|null", "157|600000100000"),
                query(text, "SELECT tid, end_ts FROM thread ORDER BY tid"));
    }

    @Test
    void shouldLeaveStartTimesUnsetForTaskNewtaskAsTraceStreamerDoes() throws Exception {
        // trace_streamer counts task_newtask in text traces as not supported (their clone flags are
        // hexadecimal or octal depending on the converter) and sets start_ts from nothing else.
        String text = kernel("gallery", 156, 1, "700.000001", "task_newtask: pid=157 comm=gallery clone_flags=3d0f00"
                + " oom_score_adj=0")
                + marker("worker", 157, 3, "700.000002", "B|156|H:load|M62");
        assertEquals(List.of("0|null", "157|null"), query(text, "SELECT tid, start_ts FROM thread ORDER BY tid"));
        assertEquals(List.of("0|null", "156|null"), query(text, "SELECT pid, start_ts FROM process ORDER BY pid"));
    }
}
