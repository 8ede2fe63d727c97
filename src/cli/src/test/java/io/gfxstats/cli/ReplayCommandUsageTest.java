package io.gfxstats.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gfxstats.store.PackageNames;
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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Bad invocations of {@code gfxstats replay}: exit code 2, one line on stderr, nothing recorded. */
class ReplayCommandUsageTest {
    static final String CAPTURE = TestData.androidGfxinfo("aNavMode-gfxinfo-framestats.txt").toString();
    /** A real gfxinfo dump taken without the framestats argument. */
    static final String NO_FRAMESTATS = TestData.androidGfxinfo("Frontend-Native-gfxinfo.txt").toString();

    @TempDir
    Path dir;

    record Result(int code, String out, List<String> err) {
    }

    /** As a real process, so that anything else the JVM or a library prints would show. */
    static Result runProcess(String... args) throws Exception {
        List<String> all = new ArrayList<>(List.of("replay"));
        all.addAll(List.of(args));
        ProcessBuilder pb = JavaProcess.builder(Main.class, all.toArray(String[]::new));
        pb.environment().remove("GFXSTATS_SOCKET");
        Process p = pb.start();
        p.getOutputStream().close();
        byte[] out = p.getInputStream().readAllBytes();
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        return new Result(p.exitValue(), new String(out, StandardCharsets.UTF_8), err.lines().toList());
    }

    static Result runInProcess(String... args) {
        List<String> all = new ArrayList<>(List.of("replay"));
        all.addAll(List.of(args));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = Main.run(all.toArray(String[]::new), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Result(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8).lines().toList());
    }

    static void assertUsageError(Result r, String expectedLine) {
        assertEquals(2, r.code(), "exit code; stderr: " + r.err());
        assertEquals("", r.out(), "nothing on stdout");
        assertEquals(List.of(expectedLine), r.err());
    }

    @Test
    void shouldRejectAMissingFile() throws Exception {
        assertUsageError(runProcess("--package", "com.example.replay", "--version-code", "3", "/nonexistent/capture.txt"),
                "gfxstats replay: cannot read /nonexistent/capture.txt: no such file");
    }

    @Test
    void shouldRejectAFileWithoutFramestats() throws Exception {
        assertUsageError(runProcess("--package", "com.example.replay", "--version-code", "3", NO_FRAMESTATS),
                "gfxstats replay: no framestats found in " + NO_FRAMESTATS
                        + " (capture with: adb shell dumpsys gfxinfo <package> framestats)");
    }

    @Test
    void shouldRejectABadRate() throws Exception {
        assertUsageError(runProcess("--package", "com.example.replay", "--version-code", "3", "--rate", "fast", CAPTURE),
                "gfxstats replay: --rate needs frames per second, a number above 0 and at most 1000000, got 'fast'");
    }

    @Test
    void shouldRejectABadPackageName() throws Exception {
        assertUsageError(runProcess("--package", "com..replay", "--version-code", "3", CAPTURE),
                "gfxstats replay: invalid package name: \"com..replay\" has an empty segment ('..') at index 4");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "--rate 0           | --rate needs frames per second, a number above 0 and at most 1000000, got '0'",
        "--rate -30         | --rate needs frames per second, a number above 0 and at most 1000000, got '-30'",
        "--rate NaN         | --rate needs frames per second, a number above 0 and at most 1000000, got 'NaN'",
        "--rate Infinity    | --rate needs frames per second, a number above 0 and at most 1000000, got 'Infinity'",
        "--refresh-interval 0 | --refresh-interval needs a positive whole number of nanoseconds, got '0'",
        "--attach-timeout -1  | --attach-timeout needs seconds, 0 to 86400, got '-1'",
        "--attach-timeout soon | --attach-timeout needs seconds, 0 to 86400, got 'soon'",
        "--socket=            | option --socket needs a non-empty value (PATH)",
        "--verbose=yes        | option --verbose takes no value",
        "--bogus              | unknown option '--bogus' (try: gfxstats replay --help)",
    })
    void shouldRejectBadOptions(String option, String message) {
        List<String> args = new ArrayList<>(List.of("--package", "com.example.replay", "--version-code", "3"));
        args.addAll(List.of(option.split(" ")));
        args.add(CAPTURE);
        assertUsageError(runInProcess(args.toArray(String[]::new)), "gfxstats replay: " + message);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "--version-code 3 CAPTURE                     | --package is required (the package to count the frames for)",
        "--package com.example.replay CAPTURE         | --version-code is required",
        "--package com.example.replay --version-code  | option --version-code needs a value (V)",
        "--package com.example.replay --version-code -1 CAPTURE | --version-code needs a whole number, 0 or more, got '-1'",
        "--package com.example.replay --version-code x CAPTURE  | --version-code needs a whole number, 0 or more, got 'x'",
        "--package com.example.replay --version-code 3          | missing input: FILE, or - for stdin (try: gfxstats replay --help)",
        "--package com.example.replay --version-code 3 CAPTURE CAPTURE | one input only, got 'CAPTURE' and 'CAPTURE'",
    })
    void shouldRejectIncompleteOrInvalidInvocations(String argLine, String message) {
        String[] args = argLine.replace("CAPTURE", CAPTURE).split(" ");
        assertUsageError(runInProcess(args), "gfxstats replay: " + message.replace("CAPTURE", CAPTURE));
    }

    @Test
    void shouldRejectAProcessNameAsPackageWithTheDaemonsRule() {
        assertUsageError(runInProcess("--package", "com.example:remote", "--version-code", "3", CAPTURE),
                "gfxstats replay: invalid package name: " + PackageNames.problem("com.example:remote").orElseThrow());
    }

    @Test
    void shouldRejectADirectory() {
        assertUsageError(runInProcess("--package", "com.example.replay", "--version-code", "3", dir.toString()),
                "gfxstats replay: cannot read " + dir + ": is a directory");
    }

    @Test
    void shouldRejectAnUnreadableCaptureWithItsLine() throws Exception {
        Path csv = dir.resolve("bad.csv");
        List<String> lines = new ArrayList<>(Files.readAllLines(Path.of(CAPTURE)).stream()
                .filter(l -> l.startsWith("Flags,") || l.startsWith("0,")).limit(3).toList());
        lines.set(2, lines.get(2).replaceFirst(",\\d+,", ",twelve,"));
        Files.write(csv, lines);
        Result r = runInProcess("--package", "com.example.replay", "--version-code", "3", csv.toString());
        assertEquals(2, r.code());
        assertEquals(1, r.err().size(), r.err().toString());
        assertTrue(r.err().get(0).startsWith("gfxstats replay: bad.csv:3: ") && r.err().get(0).contains("'twelve'"),
                r.err().get(0));
    }

    @Test
    void shouldPrintHelpWithExitZero() {
        Result r = runInProcess("--help");
        assertEquals(0, r.code());
        assertTrue(r.out().startsWith("usage: gfxstats replay --package P --version-code V"), r.out());
        assertTrue(r.err().isEmpty());
    }

    @Test
    void shouldReadTheCaptureFromStdinAndSayWhenNoDaemonTookIt() throws Exception {
        Path socket = dir.resolve("none.sock");
        ProcessBuilder pb = JavaProcess.builder(Main.class, "replay", "--package", "com.example.replay",
                "--version-code", "3", "--socket", socket.toString(), "--attach-timeout", "0", "-");
        Process p = pb.start();
        try (OutputStream stdin = p.getOutputStream()) {
            Files.copy(Path.of(CAPTURE), stdin);
        }
        List<String> out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        List<String> err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(2, p.exitValue(), err.toString());
        assertEquals("recorded 1075 frames", out.get(out.size() - 1));
        assertEquals("gfxstats replay: no daemon at " + socket + " within 0 s; the 1075 frames were not stored",
                err.get(err.size() - 1).replaceFirst(" \\(last error: .*\\)", ""));
    }
}
