package io.gfxstats.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.Descriptors.FieldDescriptor;
import io.gfxstats.daemon.DaemonProcess;
import io.gfxstats.dayfile.StatsProtos;
import io.gfxstats.dump.DumpFormat;
import io.gfxstats.dump.TextDumpWriter;
import io.gfxstats.proto.GraphicsStatsJankSummaryProto;
import io.gfxstats.proto.GraphicsStatsProto;
import io.gfxstats.proto.GraphicsStatsServiceDumpProto;
import io.gfxstats.stats.Counters;
import io.gfxstats.stats.JankType;
import io.gfxstats.stats.ProfileData;
import io.gfxstats.framestats.FramestatsBlock;
import io.gfxstats.framestats.FramestatsReader;
import io.gfxstats.framestats.FramestatsReplay;
import io.gfxstats.testing.Await;
import io.gfxstats.testing.TestData;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code gfxstats replay} as a real process against a real daemon over its Unix socket: the
 * package's dump entry must hold exactly the sum over windows of what the offline
 * {@code gfxstats framestats} command computes for the same capture, also when the daemon is
 * SIGKILLed mid-replay, starts late, or never comes back.
 */
class ReplayCommandEndToEndTest {
    static final Path CAPTURE = TestData.androidGfxinfo("aNavMode-gfxinfo-framestats.txt");
    static final String PACKAGE = "com.example.replay";
    static final long VERSION = 3;
    /** About 3 s for the capture's 1075 frames. */
    static final String RATE = "350";

    static GraphicsStatsProto expected;
    static long expectedFrames;

    private Path state;
    private DaemonProcess daemon;

    @BeforeAll
    static void computeExpectedFromTheOfflineCommand() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = Main.run(new String[] {"framestats", "--proto", CAPTURE.toString()},
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(0, code, err.toString(StandardCharsets.UTF_8));
        GraphicsStatsServiceDumpProto windows = GraphicsStatsServiceDumpProto.parseFrom(out.toByteArray());
        assertEquals(13, windows.getStatsCount(), "one offline entry per window");
        GraphicsStatsProto.Builder sum = GraphicsStatsProto.newBuilder();
        for (GraphicsStatsProto window : windows.getStatsList()) {
            StatsProtos.merge(sum, window);
        }
        expected = sum.setPackageName(PACKAGE).setVersionCode(VERSION).build();
        expectedFrames = 0;
        for (FramestatsBlock b : FramestatsReader.read(CAPTURE)) {
            expectedFrames += b.frameCount();
        }
        assertEquals(expectedFrames, expected.getSummary().getTotalFrames(), "every replayed row is a counted frame");
    }

    @BeforeEach
    void setUp() throws IOException {
        // Short path: a Unix socket path has a ~108-byte limit.
        state = Files.createTempDirectory(Path.of("/tmp"), "gfxrp");
    }

    @AfterEach
    void tearDown() throws Exception {
        if (daemon != null) {
            daemon.close();
        }
        deleteTree(state);
    }

    private DaemonProcess newDaemon() {
        // Frequent saves, so a kill can land after part of the replay was saved (exactly-once marks).
        return new DaemonProcess(state, "--set", "flush.interval=150ms");
    }

    private ReplayProcess replay(String... extra) throws IOException {
        List<String> args = new ArrayList<>(List.of("replay", "--package", PACKAGE, "--version-code",
                Long.toString(VERSION), "--socket", state.resolve("gfxstatsd.sock").toString()));
        args.addAll(Arrays.asList(extra));
        args.add(CAPTURE.toString());
        return ReplayProcess.start(args.toArray(String[]::new));
    }

    @Test
    void shouldLeaveExactlyTheOfflineFramestatsSumsInTheDaemon() throws Exception {
        daemon = newDaemon().start();
        try (ReplayProcess r = replay()) {
            assertEquals(0, r.waitFor(60), "stderr: " + r.err());
            assertEquals("recorded " + expectedFrames + " frames", lastProgressLine(r.out()));
            // On a loaded machine the first registration may take long enough for a "waiting" note.
            assertTrue(r.err().stream().allMatch(l -> l.startsWith("gfxstats replay: all " + expectedFrames
                    + " frames recorded; waiting up to ")), "no problem to report on stderr: " + r.err());
        }
        assertDaemonHoldsExpected();
    }

    @Test
    void shouldRecordEachFrameOfStandardInputAsItsLineArrives() throws Exception {
        daemon = newDaemon().start();
        // The SubSettings window's section as a bare CSV: its header, then its rows one by one.
        List<String> lines = Files.readAllLines(CAPTURE);
        int header = lines.indexOf("Window: com.android.settings/com.android.settings.SubSettings");
        while (!lines.get(header).equals("---PROFILEDATA---")) {
            header++;
        }
        header++;
        int end = header + 1;
        while (!lines.get(end).equals("---PROFILEDATA---")) {
            end++;
        }
        List<String> rows = lines.subList(header + 1, end);
        String csvHeader = lines.get(header);
        try (ReplayProcess r = ReplayProcess.start("replay", "--package", PACKAGE, "--version-code",
                Long.toString(VERSION), "--socket", state.resolve("gfxstatsd.sock").toString(), "-")) {
            java.io.OutputStream in = r.stdin();
            in.write((csvHeader + "\n").getBytes(StandardCharsets.UTF_8));
            int fed = 0;
            long counted = 0;
            while (counted == 0) {
                in.write((rows.get(fed++) + "\n").getBytes(StandardCharsets.UTF_8));
                in.flush();
                counted = framesOf(csvHeader, rows.subList(0, fed));
            }
            await(() -> {
                try {
                    return daemon.totalFrames(PACKAGE) == 1;
                } catch (Exception e) {
                    return false;
                }
            }, "the first frame is in the daemon while standard input is still open");
            assertTrue(r.isAlive(), "the replay still reads its input");
            for (int i = fed; i < rows.size(); i++) {
                in.write((rows.get(i) + "\n").getBytes(StandardCharsets.UTF_8));
            }
            in.close();
            assertEquals(0, r.waitFor(60), "stderr: " + r.err());
        }
        long all = framesOf(csvHeader, rows);
        assertEquals(79, all, "the window's finished frames");
        await(() -> {
            try {
                return daemon.totalFrames(PACKAGE) == all;
            } catch (Exception e) {
                return false;
            }
        }, "every frame of the window in the daemon");
    }

    /** Finished frames of a bare CSV, by the offline reader. */
    private static long framesOf(String header, List<String> rows) throws Exception {
        String csv = header + "\n" + String.join("\n", rows) + "\n";
        long n = 0;
        for (FramestatsBlock b : FramestatsReader.read(new java.io.StringReader(csv), "prefix")) {
            n += b.frameCount();
        }
        return n;
    }

    @Test
    void shouldReplayACaptureSavedByWindowsPowerShell() throws Exception {
        daemon = newDaemon().start();
        // Windows PowerShell 5's "adb shell dumpsys gfxinfo ... > file": UTF-16LE, a byte-order mark, CRLF.
        Path saved = state.resolve("capture-utf16.txt");
        Files.write(saved, FramestatsCommandTest.resaved(StandardCharsets.UTF_16LE,
                new byte[] {(byte) 0xFF, (byte) 0xFE}));
        try (ReplayProcess r = ReplayProcess.start("replay", "--package", PACKAGE, "--version-code",
                Long.toString(VERSION), "--socket", state.resolve("gfxstatsd.sock").toString(), saved.toString())) {
            assertEquals(0, r.waitFor(60), "stderr: " + r.err());
            assertEquals("recorded " + expectedFrames + " frames", lastProgressLine(r.out()));
        }
        assertDaemonHoldsExpected();
    }

    @Test
    void shouldRegisterThePipelineAskedForElseTheCapturesOwn() throws Exception {
        daemon = newDaemon().start();
        assertEquals(io.gfxstats.proto.GraphicsStatsProto.PipelineType.GL, expected.getPipeline(),
                "the capture says Skia (OpenGL)");
        try (ReplayProcess r = replay("--pipeline", "vulkan")) {
            assertEquals(0, r.waitFor(60), "stderr: " + r.err());
        }
        GraphicsStatsProto entry = daemon.entry(PACKAGE, VERSION).orElseThrow();
        assertEquals(io.gfxstats.proto.GraphicsStatsProto.PipelineType.VULKAN, entry.getPipeline());
        assertEquals(expectedFrames, entry.getSummary().getTotalFrames());
    }

    @Test
    void shouldRideOutADaemonKilledInTheMiddleOfAPacedReplay() throws Exception {
        daemon = newDaemon().start();
        try (ReplayProcess r = replay("--rate", RATE)) {
            await(() -> attached() && r.recorded() >= 200, "replay attached and recording");
            assertTrue(r.isAlive() && r.recorded() < expectedFrames, "kill lands mid-replay");
            daemon.kill();
            long atKill = r.recorded();
            await(() -> r.recorded() > atKill, "the replay recording on while the daemon is away");
            daemon = newDaemon().start();
            assertEquals(0, r.waitFor(60), "stderr: " + r.err() + "\n" + daemon.logText());
            assertTrue(r.err().stream().anyMatch(l -> l.contains("lost the daemon")), "stderr: " + r.err());
            assertTrue(r.err().stream().anyMatch(l -> l.contains("registered with the daemon") && l.contains("adopted")),
                    "the new daemon adopted the buffer; stderr: " + r.err());
        }
        assertDaemonHoldsExpected();
    }

    @Test
    void shouldWaitForADaemonThatStartsAfterTheReplay() throws Exception {
        try (ReplayProcess r = replay()) {
            await(() -> r.err().stream().anyMatch(l -> l.contains("cannot register with the daemon")),
                    "a note that the daemon is not there");
            // Every frame recorded and the process still there: it is waiting for the daemon.
            await(() -> r.recorded() == expectedFrames, "the replay recording every frame without a daemon");
            assertTrue(r.isAlive(), "the replay waits for the daemon; stderr: " + r.err());
            daemon = newDaemon().start();
            assertEquals(0, r.waitFor(60), "stderr: " + r.err());
            assertTrue(r.err().stream().anyMatch(l -> l.contains("registered with the daemon")), "stderr: " + r.err());
        }
        assertDaemonHoldsExpected();
    }

    @Test
    void shouldLeaveTheBufferForTheNextDaemonWhenTheDaemonDoesNotComeBack() throws Exception {
        daemon = newDaemon().start();
        List<String> err;
        // Slower than RATE: the replay must still be recording when it is seen attached, however
        // long a loaded machine takes to start it (at RATE it could end first and exit, never attached).
        try (ReplayProcess r = replay("--rate", "100", "--attach-timeout", "0.5")) {
            await(() -> attached() && r.recorded() >= 200, "replay attached and recording");
            daemon.kill();
            assertEquals(2, r.waitFor(60), "stderr: " + r.err());
            err = r.err();
        }
        String last = err.get(err.size() - 1);
        assertTrue(last.startsWith("gfxstats replay: the daemon at ") && last.contains("did not come back within 0.5 s")
                && last.contains("the " + expectedFrames + " frames are kept in "), last);
        Path buffer = Path.of(last.substring(last.indexOf(" are kept in ") + " are kept in ".length(),
                last.indexOf(", which ")));
        assertTrue(Files.isRegularFile(buffer), "buffer file stays: " + buffer);

        daemon = newDaemon().start();
        assertDaemonHoldsExpected();
        assertFalse(Files.exists(buffer), "the next daemon saved and removed the buffer");
    }

    @Test
    void shouldFailWithExitTwoWhenNoDaemonEverComes() throws Exception {
        try (ReplayProcess r = replay("--attach-timeout", "0.3")) {
            assertEquals(2, r.waitFor(60));
            List<String> err = r.err();
            assertTrue(err.stream().anyMatch(l -> l.contains("cannot register with the daemon")), err.toString());
            assertTrue(err.get(err.size() - 1).endsWith("the " + expectedFrames + " frames were not stored"),
                    err.toString());
            assertFalse(r.out().stream().anyMatch(l -> l.startsWith("done")), r.out().toString());
        }
    }

    // ------------------------------------------------------------------ checks

    private void assertDaemonHoldsExpected() throws Exception {
        await(() -> liveBuffers() == 0, "buffer saved");
        List<GraphicsStatsProto> entries = daemon.dumpProto().getStatsList().stream()
                .filter(p -> p.getPackageName().equals(PACKAGE)).toList();
        assertEquals(1, entries.size(), "one entry for the package: " + entries);
        GraphicsStatsProto actual = entries.get(0);
        assertEquals(VERSION, actual.getVersionCode());
        assertEquals(expected.getPipeline(), actual.getPipeline());

        GraphicsStatsJankSummaryProto want = expected.getSummary();
        GraphicsStatsJankSummaryProto got = actual.getSummary();
        for (FieldDescriptor f : GraphicsStatsJankSummaryProto.getDescriptor().getFields()) {
            assertTrue(got.hasField(f), f.getName() + " present");
            assertEquals(want.getField(f), got.getField(f), f.getName());
        }
        // The offline tracker counts High input latency in the legacy accounting too (as Android
        // does); the client's tracker must do the same, and the daemon must not drop it with the
        // legacy counters.
        assertEquals(offlineHighInputLatency(), got.getHighInputLatencyCount(), "High input latency incl. legacy");
        assertEquals(expected.getHistogramCount(), actual.getHistogramCount());
        for (int i = 0; i < expected.getHistogramCount(); i++) {
            assertEquals(expected.getHistogram(i), actual.getHistogram(i), "CPU bucket " + i);
        }
        assertEquals(expected.getGpuHistogramCount(), actual.getGpuHistogramCount());
        for (int i = 0; i < expected.getGpuHistogramCount(); i++) {
            assertEquals(expected.getGpuHistogram(i), actual.getGpuHistogram(i), "GPU bucket " + i);
        }

        ByteArrayOutputStream rendered = new ByteArrayOutputStream();
        new TextDumpWriter(DumpFormat.ANDROID14).write(List.of(expected), rendered);
        assertEquals(comparableLines(rendered.toString(StandardCharsets.UTF_8)),
                comparableLines(daemon.dumpText()));
    }

    /** High input latency of the capture from the trackers directly, summed over windows. */
    private static long offlineHighInputLatency() throws Exception {
        long sum = 0;
        long legacyJanky = 0;
        for (FramestatsBlock b : FramestatsReader.read(CAPTURE)) {
            ProfileData d = FramestatsReplay.replay(b, FramestatsReplay.DEFAULT_REFRESH_INTERVAL_NANOS);
            sum += d.jankCount(JankType.HIGH_INPUT_LATENCY);
            legacyJanky += d.get(Counters.JANKY_FRAMES_LEGACY);
        }
        assertTrue(legacyJanky > 0, "the legacy accounting ran on the capture");
        return sum;
    }

    /** The package's text block without the lines a capture cannot know (UID, Stats since, Stats end). */
    private static List<String> comparableLines(String dump) {
        List<String> lines = dump.lines().toList();
        int pkg = lines.indexOf("Package: " + PACKAGE);
        assertTrue(pkg > 0, "block for " + PACKAGE + " in:\n" + dump);
        int start = pkg - 1;
        assertTrue(lines.get(start).startsWith("UID: "), lines.get(start));
        int end = pkg;
        while (!lines.get(end).startsWith("GPU HISTOGRAM:")) {
            end++;
        }
        return lines.subList(start, end + 1).stream()
                .filter(l -> !l.startsWith("UID: ") && !l.startsWith("Stats since: ") && !l.startsWith("Stats end: "))
                .toList();
    }

    private static String lastProgressLine(List<String> out) {
        String last = null;
        for (String l : out) {
            if (l.startsWith("recorded ")) {
                last = l;
            }
        }
        return last;
    }

    /**
     * The replay counts into a daemon buffer: counts show in the dump only once the session
     * received its buffer and moved what it had counted in memory there.
     */
    private boolean attached() {
        try {
            return daemon.totalFrames(PACKAGE) > 0;
        } catch (Exception e) {
            return false;
        }
    }

    private int liveBuffers() {
        try {
            return daemon.health().getLiveBuffers();
        } catch (Exception e) {
            return -1;
        }
    }

    private void await(BooleanSupplier condition, String what) throws Exception {
        Await.until(condition::getAsBoolean, Duration.ofSeconds(30),
                () -> "waiting for: " + what + (daemon != null ? "\n" + daemon.logText() : ""));
    }

    private static void deleteTree(Path root) throws IOException {
        if (root == null || !Files.exists(root)) {
            return;
        }
        try (Stream<Path> s = Files.walk(root)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
