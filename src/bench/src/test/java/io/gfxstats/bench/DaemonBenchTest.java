package io.gfxstats.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the benchmark drivers at a tiny size, so CI proves they work end to end. No timing is
 * asserted: performance is judged from the full runs of {@code scripts/bench}.
 */
class DaemonBenchTest {
    @TempDir
    Path dir;

    @Test
    void shouldMeasureEveryPartOfTheDaemonBenchmarkAndWriteItsSectionAtTinySize() throws Exception {
        Path doc = dir.resolve("benchmarks.md");
        Files.writeString(doc, "# Benchmarks\n\n## Client recording cost\n\nkept as it is\n");
        BenchOptions o = BenchOptions.parse("--live", "2,3", "--files", "0,6", "--runs", "1", "--warmups", "1", "--min-measured-ms", "0", "--idle-ms", "200",
                "--frames", "20", "--save-repeats", "1", "--memory-buffers", "3", "--memory-files", "6",
                "--memory-dumps", "10", "--memory-peer-heap", "128m", "--fleet-daemons", "2", "--fleet-packages", "3",
                "--doc", doc.toString(), "--work", dir.resolve("work").toString());

        DaemonBench.Report report = DaemonBench.run(o);
        BenchDoc.update(doc, BenchDoc.DAEMON, report.markdown());

        // cached: 2 live x 2 files x 2 formats; naive only where there are files: 2 x 1 x 2
        assertEquals(12, report.points().size());
        DumpScale.Point largest = report.point(true, 3, 6, DumpScale.Format.PROTO).orElseThrow();
        // 2 packages x 3 days of files (live buffers 0 and 1 merge into today's), plus live buffer 2
        assertEquals(7, largest.entries());
        assertEquals(3, report.save().files());
        assertEquals(3, report.memory().buffers());
        assertEquals("128m", report.memoryPeer().heap());
        assertEquals(0, report.memory().problems());
        assertTrue(report.memory().afterDumpsKib() > 0);

        String text = Files.readString(doc);
        assertTrue(text.contains("kept as it is"), "other sections are left alone");
        assertTrue(text.contains("## Daemon scale"));
        assertTrue(text.contains("### Dump cost against live buffers and day files"));
        assertTrue(text.contains("### Harvest: one flush saving every live buffer"));
        assertTrue(text.contains("### Daemon resident memory"));
        assertTrue(text.contains("### Fleet pull"));
        assertTrue(text.contains("<!-- load-bench:start -->"), "room for the load test's block");
        assertTrue(!Files.exists(dir.resolve("work")) || Files.list(dir.resolve("work")).findAny().isEmpty(),
                "the work directory is cleaned up");
    }

    @Test
    void shouldCountEveryFrameRecordedWhileDumpingAtTinyLoad() throws Exception {
        LoadTest.Options o = LoadTest.Options.parse("--duration", "2", "--quiet", "1", "--warmup", "500ms",
                "--sessions", "4", "--jvms", "2", "--flush", "500ms", "--doc", "-");

        LoadTest.Result r = LoadTest.run(o);

        assertEquals(r.framesRecorded(), r.framesDumped(), LoadTest.markdown(r));
        assertTrue(r.framesRecorded() > 0);
        assertTrue(r.dumps() >= 10, "dumps ran: " + r.dumps());
        assertTrue(r.passed(), LoadTest.markdown(r));
    }
}
