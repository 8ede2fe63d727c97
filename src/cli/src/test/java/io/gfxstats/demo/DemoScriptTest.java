package io.gfxstats.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gfxstats.cli.Main;
import io.gfxstats.testing.TestData;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code scripts/demo} as a user runs it (from the test classpath instead of the jar, and for 3
 * seconds instead of 10): its output, and that it leaves no process and no file behind.
 */
class DemoScriptTest {
    private static final String SYNTH_PACKAGE = "com.example.synth";
    private static final String REPLAY_PACKAGE = "de.codevoid.anavmode";

    /** TMPDIR of the demos: it must be empty again when they are done. */
    private Path tmp;

    @BeforeEach
    void setUp() throws IOException {
        tmp = Files.createTempDirectory(Path.of("/tmp"), "demotest");
    }

    @AfterEach
    void tearDown() throws IOException {
        try (Stream<Path> s = Files.walk(tmp)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    /** A running demo whose output is collected as it comes. */
    private static final class Demo {
        final Process process;
        final List<String> lines = new ArrayList<>();
        final Thread reader;

        Demo(Process process) {
            this.process = process;
            this.reader = new Thread(() -> {
                try (BufferedReader r = new BufferedReader(
                        new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                    String line;
                    while ((line = r.readLine()) != null) {
                        synchronized (lines) {
                            lines.add(line);
                            lines.notifyAll();
                        }
                    }
                } catch (IOException ignored) {
                    // the stream ends with the process
                }
            });
            reader.setDaemon(true);
            reader.start();
        }

        void awaitLine(String prefix, long seconds) throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
            synchronized (lines) {
                while (lines.stream().noneMatch(l -> l.startsWith(prefix))) {
                    long left = deadline - System.nanoTime();
                    assertTrue(left > 0, "no line starting with '" + prefix + "' in:\n" + String.join("\n", lines));
                    TimeUnit.NANOSECONDS.timedWait(lines, left);
                }
            }
        }

        int finish() throws InterruptedException {
            if (!process.waitFor(120, TimeUnit.SECONDS)) {
                process.toHandle().destroyForcibly();
                throw new AssertionError("demo did not finish:\n" + text());
            }
            reader.join(5_000);
            return process.exitValue();
        }

        String text() {
            synchronized (lines) {
                return String.join("\n", lines) + "\n";
            }
        }
    }

    private Demo start() throws IOException {
        return start(List.of("bash", Path.of("scripts", "demo").toString()));
    }

    /**
     * A demo in a process group of its own, as a terminal runs a foreground job, with SIGINT at
     * its default disposition whatever this JVM inherited: Ctrl-C can then be simulated exactly
     * by sending SIGINT to the whole group.
     */
    private Demo startInOwnGroup() throws IOException {
        return start(List.of("setsid", "env", "--default-signal=INT", "bash", Path.of("scripts", "demo").toString()));
    }

    private Demo start(List<String> command) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        Map<String, String> env = pb.environment();
        env.put("GFXSTATS_DEMO_SECONDS", "3");
        env.put("GFXSTATS_CLASSPATH", System.getProperty("java.class.path"));
        env.put("GFXSTATS_JAVA_OPTS", "-XX:TieredStopAtLevel=1");
        env.put("GFXSTATSD_JAVA_OPTS", "-XX:TieredStopAtLevel=1");
        env.put("TMPDIR", tmp.toString());
        env.remove("GFXSTATS_SOCKET");
        return new Demo(pb.start());
    }

    private static List<Long> pids(String text) {
        List<Long> pids = new ArrayList<>();
        Matcher daemon = Pattern.compile("gfxstatsd pid (\\d+)").matcher(text);
        assertTrue(daemon.find(), text);
        pids.add(Long.parseLong(daemon.group(1)));
        Matcher clients = Pattern.compile("client pids ([\\d ]+)").matcher(text);
        assertTrue(clients.find(), text);
        for (String pid : clients.group(1).trim().split(" ")) {
            pids.add(Long.parseLong(pid));
        }
        assertEquals(4, pids.size(), "a daemon and three clients");
        return pids;
    }

    private void assertNothingLeftBehind(String text) throws IOException {
        for (long pid : pids(text)) {
            assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "pid " + pid + " still alive");
        }
        try (Stream<Path> left = Files.list(tmp)) {
            assertEquals(List.of(), left.toList(), "the demo's temporary directory is removed");
        }
    }

    /** Total frames rendered of the dump block of a package. */
    private static long dumpedTotal(String text, String pkg) {
        Matcher m = Pattern.compile("\nPackage: " + Pattern.quote(pkg) + "\nVersion: \\d+\nStats since: \\d+ns\n"
                + "Stats end: \\d+ns\nTotal frames rendered: (\\d+)\n").matcher(text);
        assertTrue(m.find(), "dump block of " + pkg + " in:\n" + text);
        long total = Long.parseLong(m.group(1));
        assertFalse(m.find(), "one entry for " + pkg);
        return total;
    }

    private static long synthFrames(String text, String label) {
        Matcher m = Pattern.compile(Pattern.quote(label) + " +done: (\\d+) frames").matcher(text);
        assertTrue(m.find(), label + " summary in:\n" + text);
        return Long.parseLong(m.group(1));
    }

    /** What the offline `gfxstats framestats` command counts for the whole capture. */
    private static long captureFrames() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        String capture = TestData.androidGfxinfo("aNavMode-gfxinfo-framestats.txt").toString();
        assertEquals(0, Main.run(new String[] {"framestats", capture},
                new PrintStream(out, true, StandardCharsets.UTF_8), System.err));
        Matcher m = Pattern.compile("\nTotal frames rendered: (\\d+)").matcher(out.toString(StandardCharsets.UTF_8));
        long sum = 0;
        while (m.find()) {
            sum += Long.parseLong(m.group(1));
        }
        return sum;
    }

    @Test
    void shouldRunTwoDemosSideBySideAndLeaveNothingBehind() throws Exception {
        Demo first = start();
        Demo second = start();
        int firstExit = first.finish();
        int secondExit = second.finish();
        String a = first.text();
        String b = second.text();
        assertEquals(0, firstExit, a);
        assertEquals(0, secondExit, b);

        long replayed = captureFrames();
        for (String text : List.of(a, b)) {
            assertTrue(text.contains("=== gfxstats dump"), text);
            assertEquals(synthFrames(text, "[synth1]") + synthFrames(text, "[synth2]"),
                    dumpedTotal(text, SYNTH_PACKAGE), "two processes of one package, each frame once");
            assertEquals(replayed, dumpedTotal(text, REPLAY_PACKAGE), "the replayed capture");
            assertTrue(text.contains("gfxstatsd exited cleanly"), text);
            assertNothingLeftBehind(text);
        }
        assertFalse(pids(a).equals(pids(b)));
    }

    @Test
    void shouldStopEverythingOnCtrlC() throws Exception {
        Demo demo = startInOwnGroup();
        demo.awaitLine("demo: client pids", 60);
        demo.awaitLine("[synth1] recorded", 30);
        // Ctrl-C: the terminal sends SIGINT to every process of the foreground job's group.
        Process kill = new ProcessBuilder("kill", "-INT", "--", "-" + demo.process.pid()).inheritIO().start();
        assertEquals(0, kill.waitFor());
        int exit = demo.finish();
        String text = demo.text();
        assertEquals(130, exit, text);
        assertTrue(text.contains("demo: interrupted; stopping everything"), text);
        assertFalse(text.contains("=== gfxstats dump"), text);
        assertNothingLeftBehind(text);
    }
}
