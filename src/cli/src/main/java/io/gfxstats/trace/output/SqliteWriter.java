package io.gfxstats.trace.output;

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
 * {@code thread}, {@code process}, {@code trace_range}, plus {@code meta} (clock offset, source).
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

    private static void create(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.executeUpdate("CREATE TABLE frame_slice (id INTEGER PRIMARY KEY, ts INTEGER, vsync INTEGER, ipid INTEGER,"
                    + " itid INTEGER, callstack_id INTEGER, dur INTEGER, src TEXT, dst INTEGER, type INTEGER,"
                    + " type_desc TEXT, flag INTEGER, depth INTEGER, frame_no INTEGER)");
            s.executeUpdate("CREATE TABLE frame_maps (id INTEGER PRIMARY KEY, src_row INTEGER, dst_row INTEGER)");
            s.executeUpdate("CREATE TABLE gpu_slice (id INTEGER PRIMARY KEY, frame_row INTEGER, dur INTEGER)");
            s.executeUpdate("CREATE TABLE thread (id INTEGER PRIMARY KEY, itid INTEGER, tid INTEGER, name TEXT,"
                    + " ipid INTEGER, is_main_thread INTEGER)");
            s.executeUpdate("CREATE TABLE process (id INTEGER PRIMARY KEY, ipid INTEGER, pid INTEGER, name TEXT)");
            s.executeUpdate("CREATE TABLE trace_range (start_ts INTEGER, end_ts INTEGER)");
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

    private static void threadsAndProcesses(Connection c, Trace trace) throws SQLException {
        try (PreparedStatement p = c.prepareStatement("INSERT INTO thread VALUES (?, ?, ?, ?, ?, ?)")) {
            p.setInt(1, 0);
            p.setInt(2, 0);
            p.setInt(3, 0);
            p.setNull(4, Types.VARCHAR);
            p.setInt(5, 0);
            p.setInt(6, 0);
            p.addBatch();
            for (ThreadInfo t : trace.threads()) {
                p.setInt(1, t.itid());
                p.setInt(2, t.itid());
                p.setInt(3, t.tid());
                p.setString(4, t.name());
                p.setInt(5, t.ipid());
                p.setInt(6, trace.process(t.ipid()).pid() == t.tid() ? 1 : 0);
                p.addBatch();
            }
            p.executeBatch();
        }
        try (PreparedStatement p = c.prepareStatement("INSERT INTO process VALUES (?, ?, ?, ?)")) {
            p.setInt(1, 0);
            p.setInt(2, 0);
            p.setInt(3, 0);
            p.setNull(4, Types.VARCHAR);
            p.addBatch();
            for (ProcessInfo pr : trace.processes()) {
                p.setInt(1, pr.ipid());
                p.setInt(2, pr.ipid());
                p.setInt(3, pr.pid());
                p.setString(4, pr.name());
                p.addBatch();
            }
            p.executeBatch();
        }
    }
}
