package io.gfxstats.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gfxstats.proto.GraphicsStatsProto;
import io.gfxstats.proto.GraphicsStatsServiceDumpProto;
import io.gfxstats.testing.JavaProcess;
import io.gfxstats.testing.TestData;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code gfxstats framestats} end to end through {@link Main#run}, on real files. */
class FramestatsCommandTest {
    static final Path CAPTURE = TestData.androidGfxinfo("aNavMode-gfxinfo-framestats.txt");
    static final List<String> REPRODUCIBLE_NON_EMPTY = List.of(
            "com.android.settings/com.android.settings.homepage.SettingsHomepageActivity",
            "com.android.settings/com.android.settings.SubSettings",
            "InputMethod",
            "com.google.android.apps.docs/com.google.android.apps.docs.drive.app.navigation.NavigationActivity",
            "ScreenDecorOverlay");
    static final List<String> REPRODUCIBLE_EMPTY = List.of("ShellDropTarget", "ScreenDecorOverlayBottom");

    @TempDir
    Path dir;

    record Result(int code, byte[] out, String err) {
        String text() {
            return new String(out, StandardCharsets.UTF_8);
        }
    }

    static Result run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = Main.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Result(code, out.toByteArray(), err.toString(StandardCharsets.UTF_8));
    }

    /** The device's own lines for a window, "Stats since" through "GPU HISTOGRAM". */
    static List<String> deviceLines(String window) throws Exception {
        List<String> lines = Files.readAllLines(CAPTURE);
        int i = lines.indexOf("Window: " + window);
        List<String> out = new ArrayList<>();
        for (i++; ; i++) {
            out.add(lines.get(i));
            if (lines.get(i).startsWith("GPU HISTOGRAM:")) {
                return out;
            }
        }
    }

    /** Our block for a package, "Total frames rendered" through "GPU HISTOGRAM". */
    static List<String> outputLines(String text, String packageName) {
        List<String> lines = List.of(text.split("\n", -1));
        int i = lines.indexOf("Package: " + packageName);
        assertTrue(i >= 0, "no block for " + packageName);
        while (!lines.get(i).startsWith("Total frames rendered:")) {
            i++;
        }
        List<String> out = new ArrayList<>();
        for (; ; i++) {
            out.add(lines.get(i));
            if (lines.get(i).startsWith("GPU HISTOGRAM:")) {
                return out;
            }
        }
    }

    @Test
    void shouldPrintWhatTheDevicePrintedForEveryWindowWhoseFramesAllFit() throws Exception {
        Result r = run("framestats", CAPTURE.toString());
        assertEquals(0, r.code(), r.err());
        assertEquals("", r.err());
        String text = r.text();
        assertEquals(13, text.split("\nPackage: ", -1).length - 1);
        assertTrue(text.startsWith("\nUID: 0\nPackage: de.codevoid.andronavibar/de.codevoid.andronavibar.MainActivity"
                + "\nVersion: 0\nStats since: 0ns\nStats end: 0ns\nTotal frames rendered: 120\n"), text);
        for (String window : REPRODUCIBLE_NON_EMPTY) {
            // gfxinfo prints the graphicsstats block plus "Stats since" and two "(legacy)" lines.
            List<String> expected = new ArrayList<>(deviceLines(window));
            expected.removeIf(l -> l.startsWith("Stats since:") || l.contains("(legacy)"));
            assertEquals(expected, outputLines(text, window), window);
        }
        for (String window : REPRODUCIBLE_EMPTY) {
            List<String> expected = new ArrayList<>(deviceLines(window));
            expected.removeIf(l -> l.startsWith("Stats since:") || l.contains("(legacy)"));
            List<String> ours = outputLines(text, window);
            // graphicsstats prints 0/0 as nan where gfxinfo prints 0.00.
            assertEquals("Janky frames: 0 (0.00%)", expected.set(1, "Janky frames: 0 (nan%)"));
            assertEquals(expected, ours, window);
        }
    }

    @Test
    void shouldWriteOneServiceDumpProtoWithEveryWindow() throws Exception {
        Result r = run("framestats", "--proto", CAPTURE.toString());
        assertEquals(0, r.code(), r.err());
        GraphicsStatsServiceDumpProto dump = GraphicsStatsServiceDumpProto.parseFrom(r.out());
        assertEquals(13, dump.getStatsCount());
        GraphicsStatsProto sub = dump.getStatsList().stream()
                .filter(p -> p.getPackageName().equals("com.android.settings/com.android.settings.SubSettings"))
                .findFirst().orElseThrow();
        assertEquals(79, sub.getSummary().getTotalFrames());
        assertEquals(10, sub.getSummary().getJankyFrames());
        assertEquals(0, sub.getUid());
        assertEquals(0, sub.getVersionCode());
        assertEquals(0, sub.getStatsStart());
        assertEquals(0, sub.getStatsEnd());
        assertEquals(GraphicsStatsProto.PipelineType.GL, sub.getPipeline());
        assertEquals(154, sub.getHistogramCount());
        assertEquals(26, sub.getGpuHistogramCount());
        assertTrue(sub.getUnknownFields().asMap().isEmpty());
    }

    @Test
    void shouldConfirmTheReplayAgainstTheDeviceWithCheck() throws Exception {
        Result r = run("framestats", "--check", CAPTURE.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.text().contains("match    com.android.settings/com.android.settings.SubSettings (line 408): 79 frames\n"),
                r.text());
        assertTrue(r.text().contains("skip     StatusBar (line 2300): the device counted 4696 frames, "
                + "the dump holds only 120 rows\n"), r.text());
        assertTrue(r.text().endsWith("7 matched, 0 differed, 6 skipped\n"), r.text());

        // A capture whose printed counts disagree with its rows fails the check with exit code 1.
        String tampered = Files.readString(CAPTURE).replace("Total frames rendered: 79\nJanky frames: 10 (12.66%)",
                "Total frames rendered: 79\nJanky frames: 11 (13.92%)");
        Path copy = dir.resolve("tampered.txt");
        Files.writeString(copy, tampered);
        Result bad = run("framestats", "--check", copy.toString());
        assertEquals(1, bad.code());
        assertTrue(bad.text().contains("MISMATCH com.android.settings/com.android.settings.SubSettings (line 408):\n"
                + "           Janky frames: device 11, replay 10\n"), bad.text());
        assertTrue(bad.text().endsWith("6 matched, 1 differed, 6 skipped\n"), bad.text());
    }

    @Test
    void shouldNameABareCsvByItsFileAndPrintAndroid9BlocksForSixteenColumns() throws Exception {
        Path csv = dir.resolve("old-device.csv");
        long t = 5_000_000_000_000L;
        StringBuilder sb = new StringBuilder("Flags,IntendedVsync,Vsync,OldestInputEvent,NewestInputEvent,"
                + "HandleInputStart,AnimationStart,PerformTraversalsStart,DrawStart,SyncQueued,SyncStart,"
                + "IssueDrawCommandsStart,SwapBuffers,FrameCompleted,DequeueBufferDuration,QueueBufferDuration,\n");
        for (int k = 0; k < 4; k++) {
            long iv = t + k * 16_666_667L;
            long ms = 1_000_000L;
            long work = k == 3 ? 14 * ms : 2 * ms; // the last frame takes 20 ms: janky at 60 Hz
            sb.append(String.format("0,%d,%d,0,0,%d,%d,%d,%d,%d,%d,%d,%d,%d,40000,300000,%n", iv, iv, iv + ms,
                    iv + ms, iv + 2 * ms, iv + 2 * ms, iv + 2 * ms + work, iv + 2 * ms + work, iv + 3 * ms + work,
                    iv + 5 * ms + work, iv + 6 * ms + work));
        }
        Files.writeString(csv, sb.toString());
        Result r = run("framestats", csv.toString());
        assertEquals(0, r.code(), r.err());
        String text = r.text();
        assertTrue(text.startsWith("\nPackage: old-device.csv\nVersion: 0\nStats since: 0ns\nStats end: 0ns\n"
                + "Total frames rendered: 4\nJanky frames: 1 (25.00%)\n"), text);
        assertFalse(text.contains("UID"), "Android 9 blocks have no UID line");
        assertFalse(text.contains("GPU HISTOGRAM"), "nor GPU lines");
        assertTrue(text.contains("\nNumber Frame deadline missed: 1\n"), text);

        // At 240 Hz every frame is janky.
        Result fast = run("framestats", "--refresh-interval", "4166667", csv.toString());
        assertTrue(fast.text().contains("\nJanky frames: 4 (100.00%)\n"), fast.text());
        Result fastEq = run("framestats", "--refresh-interval=4166667", csv.toString());
        assertArrayEquals(fast.out(), fastEq.out());

        // The layout can be chosen.
        Result android14 = run("framestats", "--format", "android14", csv.toString());
        assertTrue(android14.text().startsWith("\nUID: 0\nPackage: old-device.csv\n"), android14.text());
    }

    /** The capture as another tool saved it: CRLF line ends, then {@code charset}, then {@code mark}. */
    static byte[] resaved(java.nio.charset.Charset charset, byte[] mark) throws Exception {
        String crlf = Files.readString(CAPTURE).replace("\n", "\r\n");
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        b.write(mark);
        b.write(crlf.getBytes(charset));
        return b.toByteArray();
    }

    static final Object[][] SAVED_AS = {
        {"utf8-bom", StandardCharsets.UTF_8, new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF}},
        {"utf8", StandardCharsets.UTF_8, new byte[0]},
        {"utf16le-bom", StandardCharsets.UTF_16LE, new byte[] {(byte) 0xFF, (byte) 0xFE}},
        {"utf16be-bom", StandardCharsets.UTF_16BE, new byte[] {(byte) 0xFE, (byte) 0xFF}},
        {"utf16le", StandardCharsets.UTF_16LE, new byte[0]},
    };

    @Test
    void shouldReadAndCheckCapturesSavedByWindowsToolsInEveryEncoding() throws Exception {
        Result reference = run("framestats", CAPTURE.toString());
        Result referenceCheck = run("framestats", "--check", CAPTURE.toString());
        assertEquals(0, referenceCheck.code(), referenceCheck.err());
        for (Object[] saved : SAVED_AS) {
            Path file = dir.resolve("capture-" + saved[0] + ".txt");
            Files.write(file, resaved((java.nio.charset.Charset) saved[1], (byte[]) saved[2]));
            Result text = run("framestats", file.toString());
            assertEquals(0, text.code(), saved[0] + ": " + text.err());
            assertEquals(reference.text(), text.text(), saved[0] + ": the same dump as from the UTF-8 original");
            Result check = run("framestats", "--check", file.toString());
            assertEquals(0, check.code(), saved[0] + ": " + check.err());
            assertEquals(referenceCheck.text().replace(CAPTURE.getFileName().toString(), "X"),
                    check.text().replace(file.getFileName().toString(), "X"), saved[0].toString());
        }
        // Standard input, as "Get-Content capture.txt | gfxstats framestats -" would feed it.
        Process p = JavaProcess.builder(Main.class, "framestats", "--check", "-").redirectErrorStream(false).start();
        try (OutputStream stdin = p.getOutputStream()) {
            stdin.write(resaved(StandardCharsets.UTF_16LE, new byte[] {(byte) 0xFF, (byte) 0xFE}));
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), err);
        assertTrue(out.endsWith("7 matched, 0 differed, 6 skipped\n"), out);
    }

    @Test
    void shouldReadStdinInARealProcess() throws Exception {
        Process p = JavaProcess.builder(Main.class, "framestats", "-").redirectErrorStream(false).start();
        try (OutputStream stdin = p.getOutputStream()) {
            List<String> lines = Files.readAllLines(CAPTURE);
            int start = lines.indexOf("Window: InputMethod");
            for (int i = start; i < lines.size(); i++) {
                stdin.write((lines.get(i) + "\n").getBytes(StandardCharsets.UTF_8));
                if (i > start && lines.get(i).equals("---PROFILEDATA---") && lines.get(i - 1).startsWith("0,")) {
                    break;
                }
            }
        }
        byte[] out = p.getInputStream().readAllBytes();
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), err);
        String text = new String(out, StandardCharsets.UTF_8);
        assertTrue(text.startsWith("\nUID: 0\nPackage: InputMethod\n"), text);
        List<String> expected = new ArrayList<>(deviceLines("InputMethod"));
        expected.removeIf(l -> l.startsWith("Stats since:") || l.contains("(legacy)"));
        assertEquals(expected, outputLines(text, "InputMethod"));

        Process csv = JavaProcess.builder(Main.class, "framestats", "-").start();
        try (OutputStream stdin = csv.getOutputStream()) {
            stdin.write("no framestats here\n".getBytes(StandardCharsets.UTF_8));
        }
        String csvErr = new String(csv.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(csv.waitFor(60, TimeUnit.SECONDS));
        assertEquals(2, csv.exitValue());
        assertEquals("gfxstats framestats: no framestats found in stdin "
                + "(capture with: adb shell dumpsys gfxinfo <package> framestats)\n", csvErr);
    }

    private void assertError(String expectedMessage, String... args) {
        Result r = run(args);
        assertEquals(2, r.code(), r.err());
        assertEquals(0, r.out().length, "nothing on stdout");
        assertEquals("gfxstats framestats: " + expectedMessage + "\n", r.err());
    }

    @Test
    void shouldFailWithExitTwoForAMissingFile() {
        Path missing = dir.resolve("missing.txt");
        assertError("cannot read " + missing + ": no such file", "framestats", missing.toString());
        assertError("cannot read " + dir + ": is a directory", "framestats", dir.toString());
    }

    @Test
    void shouldFailWithExitTwoWhenTheInputHoldsNoFramestats() {
        Path nuvio = TestData.androidGfxinfo("NuvioTV-gfxinfo.txt");
        assertError("no framestats found in " + nuvio
                + " (capture with: adb shell dumpsys gfxinfo <package> framestats)", "framestats", nuvio.toString());
    }

    @Test
    void shouldFailWithExitTwoAndTheLineNumberForAMalformedRow() throws Exception {
        List<String> lines = new ArrayList<>(Files.readAllLines(CAPTURE));
        // Line 600 (1-based) is a framestats row of the SpaActivity window.
        assertTrue(lines.get(599).matches("\\d+,\\d+,.*"));
        lines.set(599, lines.get(599).replaceFirst(",", ",x"));
        Path broken = dir.resolve("broken.txt");
        Files.write(broken, lines);
        assertError("broken.txt:600: column FrameTimelineVsyncId holds 'x" + lines.get(599).split(",")[1].substring(1)
                + "', not an integer", "framestats", broken.toString());
        Result proto = run("framestats", "--proto", broken.toString());
        assertEquals(2, proto.code());
        assertEquals(0, proto.out().length, "no partial dump");
    }

    @Test
    void shouldFailWithExitTwoForBadFlags() {
        String file = CAPTURE.toString();
        assertError("unknown option '--frobnicate' (try: gfxstats framestats --help)", "framestats", "--frobnicate", file);
        assertError("--refresh-interval needs a positive whole number of nanoseconds, got 'abc'",
                "framestats", "--refresh-interval", "abc", file);
        assertError("--refresh-interval needs a positive whole number of nanoseconds, got '0'",
                "framestats", "--refresh-interval=0", file);
        assertError("option --refresh-interval needs a value (NS)", "framestats", file, "--refresh-interval");
        assertError("--proto, --check and --matrix exclude each other", "framestats", "--proto", "--check", file);
        assertError("--format applies to text output only", "framestats", "--proto", "--format", "android9", file);
        assertError("unknown dump format 'android7': expected one of android14|android11|android9|android8",
                "framestats", "--format", "android7", file);
        assertError("one input only, got '" + file + "' and 'other'", "framestats", file, "other");
        assertError("missing input: FILE, or - for stdin (try: gfxstats framestats --help)", "framestats");
        assertError("option --proto takes no value", "framestats", "--proto=yes", file);
    }

    @Test
    void shouldPrintHelpAndListTheCommand() {
        Result help = run("framestats", "--help");
        assertEquals(0, help.code());
        assertTrue(help.text().startsWith("usage: gfxstats framestats [--proto|--check|--matrix]"), help.text());
        Result usage = run("--help");
        assertTrue(usage.text().contains("framestats [--proto|--check|--matrix]"), usage.text());
    }
}
