package io.gfxstats.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.gfxstats.testing.TestData;
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
 * trace_streamer's frame-filter unit cases (its test/unittest/filter/frame_filter_test.cpp) and the
 * slice-filter and line-reader cases that decide where a frame ends (slice_filter_test.cpp,
 * ptreader_parser_test.cpp), each rebuilt as a small
 * text trace of our own ({@code testdata/trace-streamer/cases/NAME.ftrace}) with the
 * {@code frame_slice} rows those cases assert ({@code NAME.rows}, whose comments name the case).
 */
class TraceStreamerCasesTest {
    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"app-vsync-no-frame-num", "rs-gpu-cross", "app-to-rs", "rs-vsync-no-frame-num",
        "rs-vsync-frame-num-not-matched", "rs-gpu-inner", "rs-gpu-two-slices", "slice-stack", "line-formats"})
    void shouldGiveTheFrameRowsTraceStreamersCaseAsserts(String name) throws Exception {
        Path trace = TestData.file("trace-streamer/cases", name + ".ftrace");
        List<String> expected = new ArrayList<>();
        for (String line : Files.readAllLines(TestData.file("trace-streamer/cases", name + ".rows"))) {
            if (!line.startsWith("#") && !line.isBlank()) {
                expected.add(line);
            }
        }
        Path db = dir.resolve(name + ".db");
        CliRun r = CliRun.main("trace", trace.toString(), "--clock-offset", "none", "--format", "sqlite",
                "--out", db.toString());
        assertEquals(0, r.exit(), r.stderr());
        List<String> actual = new ArrayList<>();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT id, type, ts, dur, flag, src, dst FROM frame_slice ORDER BY id")) {
            while (rs.next()) {
                actual.add(rs.getString(1) + "|" + rs.getString(2) + "|" + rs.getString(3) + "|" + rs.getString(4)
                        + "|" + rs.getString(5) + "|" + rs.getString(6) + "|" + rs.getString(7));
            }
        }
        assertEquals(expected, actual);
    }
}
