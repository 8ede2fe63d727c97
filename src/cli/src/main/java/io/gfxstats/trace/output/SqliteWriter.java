package io.gfxstats.trace.output;

import io.gfxstats.trace.CallSlice;
import io.gfxstats.trace.FrameTable;
import io.gfxstats.trace.ProcessInfo;
import io.gfxstats.trace.ThreadInfo;
import io.gfxstats.trace.Trace;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;

/**
 * A database with trace_streamer's frame tables (spec 3.6) in trace_streamer's row order, so
 * SmartPerf-Host users' SQL keeps working: {@code frame_slice}, {@code frame_maps}, {@code gpu_slice},
 * {@code thread}, {@code process}, {@code callstack} (the slices frames name), {@code trace_range}, plus {@code meta} (clock offset, source).
 * Unknown values (trace_streamer's all-ones) are NULL. The database is written to a temporary file
 * beside {@code path} and renamed over it when complete, so a failed run leaves no half database.
 *
 * <p>This is the only class that touches sqlite-jdbc; the driver (and its native library) loads
 * only when this format is asked for.
 */
public final class SqliteWriter {
    private SqliteWriter() {
    }

    public static void write(Trace trace, String source, Path path) throws IOException, SQLException {
        Path dir = path.toAbsolutePath().getParent();
        // Not Files.createTempFile: its owner-only permissions would stay on the database.
        Path tmp = dir.resolve("." + path.getFileName() + "." + ProcessHandle.current().pid() + "."
                + Long.toHexString(System.nanoTime()) + ".tmp");
        Files.createFile(tmp);
        try {
            try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + tmp)) {
                c.setAutoCommit(false);
                create(c);
                frameSlice(c, trace.table());
                frameMaps(c, trace.table());
                gpuSlice(c, trace.table());
                threadsAndProcesses(c, trace);
                callstack(c, trace);
                try (PreparedStatement p = c.prepareStatement("INSERT INTO trace_range VALUES (?, ?)")) {
                    p.setLong(1, trace.stats().firstTs());
                    p.setLong(2, trace.stats().lastTs());
                    p.executeUpdate();
                }
                try (PreparedStatement p = c.prepareStatement("INSERT INTO meta VALUES (?, ?)")) {
                    meta(p, "source", source);
                    meta(p, "parser", "gfxstats trace");
                    meta(p, "clock_offset_ns", Long.toString(trace.clockOffset().nanos()));
                    meta(p, "clock_offset_source", trace.clockOffset().source());
                }
                c.commit();
            }
            Files.move(tmp, path, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    private static void meta(PreparedStatement p, String name, String value) throws SQLException {
        p.setString(1, name);
        p.setString(2, value);
        p.executeUpdate();
    }

    /**
     * trace_streamer exports with {@code CREATE TABLE ... AS SELECT * FROM <table>}, which declares
     * every integer column {@code INT} and every text column {@code TEXT}, with no primary key; the
     * same declarations here make {@code PRAGMA table_info} and {@code .schema} read alike.
     */
    private static void create(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.executeUpdate("CREATE TABLE frame_slice (id INT, ts INT, vsync INT, ipid INT, itid INT, callstack_id INT,"
                    + " dur INT, src TEXT, dst INT, type INT, type_desc TEXT, flag INT, depth INT, frame_no INT)");
            s.executeUpdate("CREATE TABLE frame_maps (id INT, src_row INT, dst_row INT)");
            s.executeUpdate("CREATE TABLE gpu_slice (id INT, frame_row INT, dur INT)");
            s.executeUpdate("CREATE TABLE thread (id INT, itid INT, tid INT, name TEXT, start_ts INT, end_ts INT,"
                    + " ipid INT, is_main_thread INT, switch_count INT)");
            s.executeUpdate("CREATE TABLE process (id INT, ipid INT, pid INT, name TEXT, start_ts INT,"
                    + " switch_count INT, thread_count INT, slice_count INT, mem_count INT)");
            s.executeUpdate("CREATE TABLE callstack (id INT, ts INT, dur INT, callid INT, cat TEXT, name TEXT,"
                    + " depth INT, cookie INT, parent_id INT, argsetid INT, chainId TEXT, spanId TEXT,"
                    + " parentSpanId TEXT, flag TEXT, trace_level TEXT, trace_tag TEXT, custom_category TEXT,"
                    + " custom_args TEXT, child_callid INT)");
            s.executeUpdate("CREATE TABLE trace_range (start_ts INT, end_ts INT)");
            s.executeUpdate("CREATE TABLE meta (name TEXT, value TEXT)");
        }
    }

    private static void setUnsigned(PreparedStatement p, int index, long v, long invalid) throws SQLException {
        if (v == invalid) {
            p.setNull(index, Types.INTEGER);
        } else {
            p.setLong(index, v);
        }
    }

    private static void frameSlice(Connection c, FrameTable t) throws SQLException {
        try (PreparedStatement p = c.prepareStatement(
                "INSERT INTO frame_slice VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
            for (int r = 0; r < t.size(); r++) {
                p.setInt(1, r);
                setUnsigned(p, 2, t.ts(r), FrameTable.INVALID);
                setUnsigned(p, 3, t.vsync(r), FrameTable.INVALID32);
                p.setInt(4, t.ipid(r));
                p.setInt(5, t.itid(r));
                setUnsigned(p, 6, t.callstack(r), FrameTable.INVALID);
                long dur = t.ts(r) == FrameTable.INVALID ? FrameTable.INVALID : t.dur(r);
                if (t.type(r) == FrameTable.TYPE_EXPECTED && t.end(r) == FrameTable.INVALID) {
                    dur = FrameTable.INVALID;
                }
                setUnsigned(p, 7, dur, FrameTable.INVALID);
                p.setString(8, t.src(r));
                setUnsigned(p, 9, t.dst(r), FrameTable.INVALID);
                p.setInt(10, t.type(r));
                p.setString(11, t.type(r) == FrameTable.TYPE_EXPECTED ? "expect" : "actural");
                setUnsigned(p, 12, t.flag(r), FrameTable.FLAG_NONE);
                p.setInt(13, t.depth(r));
                p.setInt(14, 0);
                p.addBatch();
                if (r % 4096 == 4095) {
                    p.executeBatch();
                }
            }
            p.executeBatch();
        }
    }

    private static void frameMaps(Connection c, FrameTable t) throws SQLException {
        try (PreparedStatement p = c.prepareStatement("INSERT INTO frame_maps VALUES (?, ?, ?)")) {
            for (int i = 0; i < t.mapCount(); i++) {
                p.setInt(1, i);
                p.setLong(2, t.mapSrc(i));
                p.setLong(3, t.mapDst(i));
                p.addBatch();
            }
            p.executeBatch();
        }
    }

    private static void gpuSlice(Connection c, FrameTable t) throws SQLException {
        try (PreparedStatement p = c.prepareStatement("INSERT INTO gpu_slice VALUES (?, ?, ?)")) {
            for (int i = 0; i < t.gpuCount(); i++) {
                p.setInt(1, i);
                p.setLong(2, t.gpuRow(i));
                p.setLong(3, t.gpuDur(i));
                p.addBatch();
            }
            p.executeBatch();
        }
    }

    /**
     * trace_streamer's thread and process rows. A thread's end_ts and switch_count come from
     * sched_process_exit and sched_switch rows as trace_streamer takes them ({@link ThreadInfo#endTs},
     * {@link ThreadInfo#switchCount}), a process's switch_count is the sum of its threads'; start_ts
     * stays NULL for both, since trace_streamer ignores task_newtask in text traces (their clone flags
     * are hexadecimal or octal depending on the converter) and sets it from nothing else. The counts follow trace_streamer's rules: a process's thread_count
     * starts at -1 and adds each of its threads, slice_count adds each of its threads an E closed a
     * slice on, and mem_count is 1 when counter (C) markers of the process were seen.
     */
    private static void threadsAndProcesses(Connection c, Trace trace) throws SQLException {
        try (PreparedStatement p = c.prepareStatement("INSERT INTO thread VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
            p.setInt(1, 0);
            p.setInt(2, 0);
            p.setInt(3, 0);
            p.setNull(4, Types.VARCHAR);
            p.setNull(5, Types.INTEGER);
            p.setNull(6, Types.INTEGER);
            p.setInt(7, 0);
            p.setInt(8, 0);
            p.setInt(9, 0);
            p.addBatch();
            for (ThreadInfo t : trace.threads()) {
                p.setInt(1, t.itid());
                p.setInt(2, t.itid());
                p.setInt(3, t.tid());
                p.setString(4, t.name());
                p.setNull(5, Types.INTEGER);
                setUnsigned(p, 6, t.endTs(), -1);
                p.setInt(7, t.ipid());
                p.setInt(8, trace.process(t.ipid()).pid() == t.tid() ? 1 : 0);
                p.setInt(9, t.switchCount());
                p.addBatch();
            }
            p.executeBatch();
        }
        int[] threadCount = new int[trace.processes().size() + 1];
        int[] sliceCount = new int[threadCount.length];
        int[] switchCount = new int[threadCount.length];
        for (ThreadInfo t : trace.threads()) {
            threadCount[t.ipid()]++;
            sliceCount[t.ipid()] += t.closedSlice() ? 1 : 0;
            switchCount[t.ipid()] += t.switchCount();
        }
        try (PreparedStatement p = c.prepareStatement("INSERT INTO process VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
            process(p, 0, 0, null, 0, -1, 0, false);
            for (ProcessInfo pr : trace.processes()) {
                process(p, pr.ipid(), pr.pid(), pr.name(), switchCount[pr.ipid()], threadCount[pr.ipid()] - 1,
                        sliceCount[pr.ipid()], pr.counters());
            }
            p.executeBatch();
        }
    }

    private static void process(PreparedStatement p, int ipid, int pid, String name, int switches, int threads,
            int slices, boolean counters) throws SQLException {
        p.setInt(1, ipid);
        p.setInt(2, ipid);
        p.setInt(3, pid);
        p.setString(4, name);
        p.setNull(5, Types.INTEGER);
        p.setInt(6, switches);
        p.setInt(7, threads);
        p.setInt(8, slices);
        p.setInt(9, counters ? 1 : 0);
        p.addBatch();
    }

    /**
     * The slices {@code frame_slice.callstack_id} names, as trace_streamer's {@code callstack} rows:
     * thread slices, so {@code callid} is the thread's itid and the async, chain and HiTrace columns
     * are NULL; an E that never came leaves {@code dur} NULL.
     */
    private static void callstack(Connection c, Trace trace) throws SQLException {
        try (PreparedStatement p = c.prepareStatement(
                "INSERT INTO callstack VALUES (?, ?, ?, ?, NULL, ?, ?, NULL, ?, NULL, NULL, NULL, NULL, NULL,"
                        + " NULL, NULL, NULL, NULL, NULL)")) {
            for (CallSlice s : trace.callSlices()) {
                p.setLong(1, s.id());
                p.setLong(2, s.ts());
                setUnsigned(p, 3, s.dur(), -1);
                p.setInt(4, s.itid());
                p.setString(5, s.name());
                p.setInt(6, s.depth());
                setUnsigned(p, 7, s.parentId(), -1);
                p.addBatch();
            }
            p.executeBatch();
        }
    }
}
