package io.gfxstats.bench;

import io.gfxstats.daemon.DaemonMain;
import io.gfxstats.rpc.GfxStatsClientException;
import io.gfxstats.rpc.v1.HealthResponse;
import io.gfxstats.testing.DaemonHealth;
import io.gfxstats.testing.JavaProcess;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A gfxstatsd process started the way {@code scripts/gfxstatsd} starts it: the same JVM flags,
 * {@code -Xmx} from {@code GFXSTATSD_HEAP} (default {@value #DEFAULT_HEAP}, the script's default)
 * and the serial collector; the classpath is the benchmark's (classes are the same as the jar's).
 */
final class ExternalDaemon implements AutoCloseable {
    /** Keep in step with scripts/gfxstatsd. */
    static final String DEFAULT_HEAP = "64m";

    private final Process process;
    private final Path stateDir;
    private final Path log;
    private final String heap;

    private ExternalDaemon(Process process, Path stateDir, Path log, String heap) {
        this.process = process;
        this.stateDir = stateDir;
        this.log = log;
        this.heap = heap;
    }

    static String configuredHeap() {
        String h = System.getenv("GFXSTATSD_HEAP");
        return h == null || h.isBlank() ? DEFAULT_HEAP : h.trim();
    }

    static ExternalDaemon start(Path stateDir, String heap, String... settings) throws IOException,
            InterruptedException {
        Files.createDirectories(stateDir);
        List<String> args = new ArrayList<>(List.of("--state-dir", stateDir.toString()));
        for (String s : settings) {
            args.add("--set");
            args.add(s);
        }
        List<String> cmd = JavaProcess.command(List.of("-Xmx" + heap, "-XX:+UseSerialGC", "-XX:+ExitOnOutOfMemoryError"), DaemonMain.class,
                args.toArray(String[]::new));
        Path log = stateDir.resolve("daemon.log");
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        ExternalDaemon d = new ExternalDaemon(p, stateDir, log, heap);
        try {
            DaemonHealth.await(p, d.socket(), Duration.ofSeconds(60), d::logText);
        } catch (IOException | InterruptedException | RuntimeException e) {
            d.close();
            throw e;
        }
        return d;
    }

    Path socket() {
        return stateDir.resolve("gfxstatsd.sock");
    }

    Path dataDir() {
        return stateDir.resolve("data");
    }

    String heap() {
        return heap;
    }

    long pid() {
        return process.pid();
    }

    HealthResponse health() throws GfxStatsClientException {
        return DaemonHealth.check(socket());
    }

    /** Waits until the daemon has released every live buffer (clients gone and saved). */
    void awaitNoLiveBuffers(Duration timeout) throws GfxStatsClientException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (health().getLiveBuffers() > 0) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the daemon still has " + health().getLiveBuffers()
                        + " live buffers after " + timeout);
            }
            Thread.sleep(100);
        }
    }

    /** Resident set size from /proc/PID/status (VmRSS), in KiB. */
    long rssKib() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid()), "status"))) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        }
        throw new IOException("no VmRSS in /proc/" + pid() + "/status");
    }

    /** CPU time (user + system) the process used so far, in ms, from /proc/PID/stat. */
    long cpuMillis() throws IOException {
        String stat = Files.readString(Path.of("/proc", Long.toString(pid()), "stat"));
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        long ticks = Long.parseLong(f[11]) + Long.parseLong(f[12]); // utime, stime (fields 14 and 15)
        return ticks * 1000 / CLOCK_TICKS;
    }

    /** USER_HZ; 100 on every Linux this runs on (getconf CLK_TCK). */
    private static final long CLOCK_TICKS = 100;

    /** Share of one CPU the process uses over {@code millis} of wall time, in percent. */
    double cpuPercentOver(long millis) throws IOException, InterruptedException {
        long c0 = cpuMillis();
        long t0 = System.nanoTime();
        Thread.sleep(millis);
        long c1 = cpuMillis();
        return 100.0 * (c1 - c0) / ((System.nanoTime() - t0) / 1e6);
    }

    /**
     * Java heap in use right after a full collection (jcmd GC.run, then GC.heap_info), in KiB:
     * what the data itself needs, to compare with -Xmx. -1 if jcmd is unavailable.
     */
    long liveHeapKib() {
        try {
            String jcmd = System.getProperty("java.home") + File.separator + "bin" + File.separator + "jcmd";
            run(jcmd, Long.toString(pid()), "GC.run");
            String info = run(jcmd, Long.toString(pid()), "GC.heap_info");
            Matcher m = Pattern.compile("(?:def new generation|tenured generation)\\s+total \\d+K, used (\\d+)K")
                    .matcher(info);
            long used = 0;
            boolean found = false;
            while (m.find()) {
                used += Long.parseLong(m.group(1));
                found = true;
            }
            return found ? used : -1;
        } catch (IOException | InterruptedException e) {
            return -1;
        }
    }

    private static String run(String... cmd) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        if (!p.waitFor(30, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IOException("jcmd did not finish");
        }
        return out;
    }

    String logText() throws IOException {
        return Files.exists(log) ? Files.readString(log) : "";
    }

    /** Log lines at WARN or ERROR level (slf4j-simple, levels in brackets or not), and exceptions. */
    List<String> problems() throws IOException {
        List<String> out = new ArrayList<>();
        for (String line : logText().split("\n")) {
            if (line.contains("[WARN]") || line.contains("[ERROR]") || line.contains(" WARN ")
                    || line.contains(" ERROR ") || line.contains("Exception")) {
                out.add(line);
            }
        }
        return out;
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /** 0, or 143: the JVM's status after SIGTERM when the shutdown hook (the daemon's clean stop) ran. */
    static boolean cleanExit(int code) {
        return code == 0 || code == 128 + 15;
    }

    /** SIGTERM (clean shutdown: saves everything); returns the exit code. */
    int stop() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            process.waitFor();
            return -1;
        }
        return process.exitValue();
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroyForcibly();
            process.onExit().join();
        }
        // jcmd's attach socket outlives a JVM killed with SIGKILL.
        try {
            java.nio.file.Files.deleteIfExists(java.nio.file.Path.of(System.getProperty("java.io.tmpdir"),
                    ".java_pid" + process.pid()));
        } catch (java.io.IOException e) {
            // nothing else to do: the file is left, as before
        }
    }
}
