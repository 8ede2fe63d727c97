package io.gfxstats.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gfxstats.cli.Main;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Random synthetic OpenHarmony traces through {@code gfxstats trace --format sqlite} must give exactly
 * the rows and links of {@link SpecFrames}, an independent implementation of spec section 3, with
 * {@code --clock-offset none} and {@code auto}.
 */
class TraceSqliteDifferentialTest {
    static final int TRACES = 40;

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"none", "auto"})
    void shouldMatchTheIndependentImplementation(String clock) throws Exception {
        int frames = 0;
        int flagged = 0;
        for (long seed = 1; seed <= TRACES; seed++) {
            String text = RandomOhosTrace.generate(seed * 7919);
            Path trace = dir.resolve("t" + seed + ".ftrace");
            Files.writeString(trace, text);
            Path db = dir.resolve("t" + seed + "-" + clock + ".db");
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            int exit = Main.run(new String[] {"trace", trace.toString(), "--format", "sqlite", "--out", db.toString(),
                    "--clock-offset", clock}, new PrintStream(new ByteArrayOutputStream()), new PrintStream(err, true,
                    StandardCharsets.UTF_8));
            assertEquals(0, exit, err.toString(StandardCharsets.UTF_8));
            SpecFrames spec = SpecFrames.run(text, clock.equals("none") ? 0L : null);
            Db got = Db.read(db);
            String where = "seed " + (seed * 7919) + ", --clock-offset " + clock;
            assertEquals(spec.offset, got.offset, where);
            assertEquals(spec.describeRows(), got.rows, where);
            List<String> maps = new ArrayList<>();
            for (int[] m : spec.maps) {
                maps.add(m[0] + "->" + m[1]);
            }
            assertEquals(maps, got.maps, where);
            List<String> gpu = new ArrayList<>();
            for (long[] g : spec.gpu) {
                gpu.add(g[0] + ":" + g[1]);
            }
            assertEquals(gpu, got.gpu, where);
            frames += spec.rows.size();
            for (SpecFrames.Row r : spec.rows) {
                if (r.flag == 3 || r.flag == 1) {
                    flagged++;
                }
            }
        }
        assertTrue(frames > 1000 && flagged > 50, "the generator makes enough frames: " + frames + ", " + flagged);
    }

    /** What the database holds, in SpecFrames' notation. */
    record Db(List<String> rows, List<String> maps, List<String> gpu, long offset) {
        static Db read(Path db) throws Exception {
            try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement s = c.createStatement()) {
                List<String> rows = new ArrayList<>();
                try (ResultSet r = s.executeQuery("SELECT f.id, f.ts, f.dur, f.vsync, f.type, f.flag, f.src, f.dst, p.pid, t.tid"
                        + " FROM frame_slice f JOIN thread t ON t.itid = f.itid JOIN process p ON p.ipid = f.ipid ORDER BY f.id")) {
                    while (r.next()) {
                        rows.add(r.getLong(1) + " ts=" + n(r, 2) + " dur=" + n(r, 3) + " vsync=" + n(r, 4) + " type="
                                + r.getInt(5) + " flag=" + n(r, 6) + " src=" + r.getString(7) + " dst=" + n(r, 8)
                                + " pid=" + r.getInt(9) + " tid=" + r.getInt(10));
                    }
                }
                List<String> maps = new ArrayList<>();
                try (ResultSet r = s.executeQuery("SELECT src_row, dst_row FROM frame_maps ORDER BY id")) {
                    while (r.next()) {
                        maps.add(r.getLong(1) + "->" + r.getLong(2));
                    }
                }
                List<String> gpu = new ArrayList<>();
                try (ResultSet r = s.executeQuery("SELECT frame_row, dur FROM gpu_slice ORDER BY id")) {
                    while (r.next()) {
                        gpu.add(r.getLong(1) + ":" + r.getLong(2));
                    }
                }
                long offset;
                try (ResultSet r = s.executeQuery("SELECT value FROM meta WHERE name = 'clock_offset_ns'")) {
                    offset = Long.parseLong(r.getString(1));
                }
                return new Db(rows, maps, gpu, offset);
            }
        }

        private static String n(ResultSet r, int column) throws Exception {
            long v = r.getLong(column);
            return r.wasNull() ? "N" : Long.toString(v);
        }
    }
}
