package io.gfxstats.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gfxstats.cli.Main;
import io.gfxstats.client.SessionOptions;
import io.gfxstats.dayfile.StatsProtos;
import io.gfxstats.frame.DaveyListener;
import io.gfxstats.frame.ModernJankTracker;
import io.gfxstats.proto.GraphicsStatsProto;
import io.gfxstats.stats.ProfileData;
import io.gfxstats.testing.ExternalTool;
import io.gfxstats.testing.JavaProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code gfxstats record} fed by real non-Java processes: a Python renderer writing 120 lines a
 * second into its standard input, and a shell loop writing into a FIFO. The dump ends with
 * exactly the frames they wrote, counted as the Java library counts the same times, and frames
 * reach the daemon while the writer is still going.
 */
class RecordEndToEndTest {
    /**
     * 360 frames at 120 Hz, paced in real time; every 9th frame slow, every 40th very slow. After
     * the first 120 it waits (at most 60 s) for the file argv[2], which the test creates once the
     * daemon shows frames, so "while the writer runs" does not depend on how fast a loaded
     * machine starts the record JVM.
     */
    private static final String RENDERER = """
            import os, sys, time
            interval = 8333333
            t = 1_000_000_000
            out = open(sys.argv[1], "w")
            start = time.monotonic()
            for i in range(360):
                if i == 120:
                    deadline = time.monotonic() + 60
                    while not os.path.exists(sys.argv[2]) and time.monotonic() < deadline:
                        time.sleep(0.02)
                    start = time.monotonic() - i / 120
                d = 3_000_000 + (i % 5) * 400_000
                if i % 9 == 8: d = 12_000_000 + (i % 4) * 1_000_000
                if i % 40 == 39: d = 60_000_000
                line = "%d,%d,%d,%d,%d" % (t, t + 200_000, t + d, t + d + 1_500_000, interval)
                print(line, flush=True)
                out.write(line + "\\n")
                t += max(interval, -(-(d + 1_500_000) // interval) * interval)
                time.sleep(max(0, start + (i + 1) / 120 - time.monotonic()))
            """;

    @TempDir
    Path tmp;

    @Test
    void shouldRecordEveryLineOfAPythonRendererAt120LinesPerSecond() throws Exception {
        Path python = ExternalTool.require("python3", "python3");
        Path script = tmp.resolve("renderer.py");
        Files.writeString(script, RENDERER);
        Path written = tmp.resolve("written.csv");
        try (DaemonProcess daemon = new DaemonProcess(tmp.resolve("s")).start()) {
            Path go = tmp.resolve("go");
            ProcessBuilder writer = new ProcessBuilder(python.toString(), script.toString(), written.toString(),
                    go.toString())
                    .redirectError(ProcessBuilder.Redirect.appendTo(daemon.clientLog().toFile()));
            ProcessBuilder record = JavaProcess.builder(Main.class, "record", "--socket", daemon.socket().toString(),
                    "--package", "com.example.py", "--version-code", "3", "--pipeline", "vulkan")
                    .redirectError(ProcessBuilder.Redirect.appendTo(daemon.clientLog().toFile()));
            List<Process> pipeline = ProcessBuilder.startPipeline(List.of(writer, record));
            Process py = pipeline.get(0);
            Process rec = pipeline.get(1);
            // Lines are recorded as they arrive: the daemon sees frames while Python still writes.
            long seenWhileWriting = 0;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(50);
            while (py.isAlive() && seenWhileWriting == 0 && System.nanoTime() < deadline) {
                Thread.sleep(100);
                seenWhileWriting = daemon.totalFrames("com.example.py");
            }
            assertTrue(seenWhileWriting > 0 && py.isAlive(), "no frame reached the daemon while the writer ran");
            Files.writeString(go, "go");
            assertTrue(py.waitFor(60, TimeUnit.SECONDS));
            assertEquals(0, py.exitValue(), Files.readString(daemon.clientLog()));
            assertTrue(rec.waitFor(60, TimeUnit.SECONDS));
            String out = new String(rec.getInputStream().readAllBytes());
            assertEquals(0, rec.exitValue(), out + Files.readString(daemon.clientLog()));
            assertEquals("recorded 360 frames\n", out);

            GraphicsStatsProto entry = daemon.entry("com.example.py", 3).orElseThrow();
            assertEquals(GraphicsStatsProto.PipelineType.VULKAN, entry.getPipeline());
            org.junit.jupiter.api.Assertions.assertArrayEquals(expected(written), counters(entry));
            assertEquals(360, entry.getSummary().getTotalFrames());
            assertTrue(entry.getSummary().getJankyFrames() > 0, entry.toString());
        }
    }

    @Test
    void shouldLeaveNoEntryWhenNoLineIsAFrame() throws Exception {
        Path input = tmp.resolve("garbage.csv");
        Files.writeString(input, "# only a comment\n1,2,oops,4,5\nnot a frame\n");
        try (DaemonProcess daemon = new DaemonProcess(tmp.resolve("g")).start()) {
            Process rec = JavaProcess.builder(Main.class, "record", "--socket", daemon.socket().toString(),
                    "--package", "com.example.none", "--version-code", "1", input.toString())
                    .redirectError(ProcessBuilder.Redirect.appendTo(tmp.resolve("none.err").toFile())).start();
            assertTrue(rec.waitFor(60, TimeUnit.SECONDS));
            String out = new String(rec.getInputStream().readAllBytes());
            String err = Files.readString(tmp.resolve("none.err"));
            assertEquals(1, rec.exitValue(), out + err);
            assertEquals("recorded 0 frames, 2 malformed lines skipped\n", out);
            assertTrue(err.contains("gfxstats record: no frame in the input: nothing was sent to the daemon"), err);
            assertTrue(daemon.entry("com.example.none", 1).isEmpty(), daemon.dumpText());
            // Stop the daemon so that anything it held is saved: no day file names the package.
            assertEquals(0, daemon.stop());
            try (java.util.stream.Stream<Path> files = Files.walk(daemon.dataDir())) {
                List<Path> kept = files.filter(f -> f.toString().contains("com.example.none")).toList();
                assertTrue(kept.isEmpty(), "a 0-frame entry was kept: " + kept);
            }
        }
    }

    @Test
    void shouldRecordAShellLoopWritingIntoAFifoAndReportMalformedLines() throws Exception {
        Path fifo = tmp.resolve("frames.fifo");
        Process mk = new ProcessBuilder("mkfifo", fifo.toString()).start();
        assertEquals(0, mk.waitFor());
        try (DaemonProcess daemon = new DaemonProcess(tmp.resolve("f")).start()) {
            Process rec = JavaProcess.builder(Main.class, "record", "--socket", daemon.socket().toString(),
                    "--package", "com.example.sh", "--version-code", "1", fifo.toString())
                    .redirectError(ProcessBuilder.Redirect.appendTo(tmp.resolve("record.err").toFile())).start();
            String loop = """
                    t=1000000000
                    for i in $(seq 0 239); do
                      d=$(( 4000000 + (i % 3) * 1000000 ))
                      if [ $(( i % 10 )) -eq 9 ]; then d=30000000; fi
                      echo "$t,$t,$(( t + d )),$(( t + d + 1000000 )),16666667"
                      if [ $i -eq 100 ]; then echo "# a comment"; echo "1,2,oops,4,5"; echo; fi
                      t=$(( t + 33333334 ))
                    done > "$1"
                    """;
            Process sh = new ProcessBuilder("bash", "-c", loop, "loop", fifo.toString()).start();
            assertTrue(sh.waitFor(60, TimeUnit.SECONDS));
            assertEquals(0, sh.exitValue());
            assertTrue(rec.waitFor(60, TimeUnit.SECONDS));
            String out = new String(rec.getInputStream().readAllBytes());
            String err = Files.readString(tmp.resolve("record.err"));
            assertEquals(1, rec.exitValue(), out + err);
            assertEquals("recorded 240 frames, 1 malformed lines skipped\n", out);
            assertTrue(err.contains("gfxstats record: line 103: field 3 ('oops') is not a whole number of 64 bits (skipped)"), err);
            assertEquals(240, daemon.totalFrames("com.example.sh"));
            GraphicsStatsProto entry = daemon.entry("com.example.sh", 1).orElseThrow();
            assertEquals(24, entry.getSummary().getJankyFrames(), entry.toString());
            assertEquals(GraphicsStatsProto.PipelineType.GL, entry.getPipeline(), "GL unless told, like synth");
        }
    }

    @Test
    void shouldCountFramestatsRowsAsTheOfflineReplayDoes() throws Exception {
        // The PROFILEDATA sections of a real capture, with their headers, nothing else: every
        // header starts a new window, as the capture's windows are.
        List<String> capture = Files.readAllLines(io.gfxstats.testing.TestData.file("android-gfxinfo",
                "aNavMode-gfxinfo-framestats.txt"));
        StringBuilder rows = new StringBuilder();
        boolean inside = false;
        for (String line : capture) {
            if (line.strip().equals("---PROFILEDATA---")) {
                inside = !inside;
                rows.append(line).append('\n');
            } else if (inside) {
                rows.append(line).append('\n');
            }
        }
        Path input = tmp.resolve("rows.txt");
        Files.writeString(input, rows);
        ProfileData offline = new ProfileData();
        long frames = 0;
        for (io.gfxstats.framestats.FramestatsBlock b : io.gfxstats.framestats.FramestatsReader.read(input)) {
            offline.merge(io.gfxstats.framestats.FramestatsReplay.replay(b, 16_666_667L));
            frames += b.frameCount();
        }
        assertTrue(frames > 100, "frames " + frames);
        try (DaemonProcess daemon = new DaemonProcess(tmp.resolve("r")).start()) {
            Process rec = JavaProcess.builder(Main.class, "record", "--socket", daemon.socket().toString(),
                    "--package", "com.example.rows", "--version-code", "2", "--format", "framestats", "-")
                    .redirectInput(input.toFile())
                    .redirectError(ProcessBuilder.Redirect.appendTo(daemon.clientLog().toFile())).start();
            assertTrue(rec.waitFor(60, TimeUnit.SECONDS));
            String out = new String(rec.getInputStream().readAllBytes());
            assertEquals(0, rec.exitValue(), out + Files.readString(daemon.clientLog()));
            assertTrue(out.startsWith("recorded " + frames + " frames"), out);
            long[] want = offline.toArray();
            want[io.gfxstats.stats.Counters.JANKY_FRAMES_LEGACY] = 0;
            want[io.gfxstats.stats.JankType.MISSED_DEADLINE_LEGACY.counter()] = 0;
            org.junit.jupiter.api.Assertions.assertArrayEquals(want,
                    counters(daemon.entry("com.example.rows", 2).orElseThrow()));
        }
    }

    /** What the Java library counts for the same times, with the same rules as a session's tracker. */
    private static long[] expected(Path written) throws Exception {
        ModernJankTracker tracker = new ModernJankTracker(
                SessionOptions.builder("com.example.py", 3).build().trackerConfig(), DaveyListener.ignoring());
        ProfileData data = new ProfileData();
        for (String line : Files.readAllLines(written)) {
            String[] v = line.split(",");
            tracker.finishFrame(Long.parseLong(v[0]), Long.parseLong(v[1]), Long.parseLong(v[2]),
                    Long.parseLong(v[3]), Long.parseLong(v[4]), data);
        }
        assertEquals(360, data.totalFrames());
        long[] persisted = data.toArray();
        // Android persists no legacy counter; the day file holds the rest.
        persisted[io.gfxstats.stats.Counters.JANKY_FRAMES_LEGACY] = 0;
        persisted[io.gfxstats.stats.JankType.MISSED_DEADLINE_LEGACY.counter()] = 0;
        return persisted;
    }

    private static long[] counters(GraphicsStatsProto entry) throws Exception {
        return StatsProtos.toProfileData(entry).toArray();
    }
}
