package io.gfxstats.daemon;

import io.gfxstats.proto.GraphicsStatsProto;
import io.gfxstats.proto.GraphicsStatsServiceDumpProto;
import io.gfxstats.rpc.GfxStatsClient;
import io.gfxstats.rpc.GfxStatsClientException;
import io.gfxstats.rpc.v1.DumpRequest;
import io.gfxstats.rpc.v1.HealthResponse;
import io.gfxstats.testing.DaemonHealth;
import io.gfxstats.testing.JavaProcess;
import io.gfxstats.testing.OtherUser;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A real gfxstatsd process on a private state directory, for end-to-end and fault tests.
 * {@link #kill()} is SIGKILL; {@link #stop()} is SIGTERM (clean shutdown).
 */
public final class DaemonProcess implements AutoCloseable {
    private final Path stateDir;
    private final List<String> extraArgs;
    private final Path log;
    private final Path clockOffsetFile;
    private List<String> jvmOptions; // null: JavaProcess's defaults for a short-lived test JVM
    private OtherUser user; // null: this test's own uid
    private Process process;

    public DaemonProcess(Path stateDir, String... extraArgs) {
        this.stateDir = stateDir;
        this.extraArgs = List.of(extraArgs);
        this.log = stateDir.resolve("daemon.log");
        this.clockOffsetFile = stateDir.resolve("clock-offset");
    }

    /** Where test client processes write their stderr. */
    public Path clientLog() {
        return stateDir.resolve("clients.log");
    }

    public Path socket() {
        return stateDir.resolve("gfxstatsd.sock");
    }

    public Path dataDir() {
        return stateDir.resolve("data");
    }

    public Path bufferDir() {
        return stateDir.resolve("buffers");
    }

    /** The production JVM settings of scripts/gfxstatsd: its default heap, serial GC, exit on out-of-memory, the crash-loop guard's hook. */
    public DaemonProcess withProductionHeap() {
        jvmOptions = List.of("-Xmx64m", "-XX:+UseSerialGC", "-XX:+ExitOnOutOfMemoryError", OomGuard.JVM_HOOK);
        return this;
    }

    /** These JVM options instead of the test defaults (the production ones: {@link #withProductionHeap()}). */
    public DaemonProcess withJvmOptions(List<String> options) {
        jvmOptions = List.copyOf(options);
        return this;
    }

    /** Starts the daemon (with its JVM options) and waits up to {@code limit} for it to exit by itself. */
    public Refusal runUntilExit(Duration limit) throws IOException, InterruptedException {
        Files.createDirectories(stateDir);
        List<String> args = new ArrayList<>(List.of("--state-dir", stateDir.toString()));
        args.addAll(extraArgs);
        List<String> jvm = jvmOptions == null ? JavaProcess.SHORT_LIVED : jvmOptions;
        ProcessBuilder pb = new ProcessBuilder(JavaProcess.command(jvm, DaemonMain.class, args.toArray(String[]::new)));
        pb.environment().put(DaemonMain.CLOCK_OFFSET_ENV, clockOffsetFile.toString());
        pb.redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        process = pb.start();
        if (!process.waitFor(limit.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS)) {
            throw new AssertionError("the daemon did not exit within " + limit + ": " + logText());
        }
        return new Refusal(process.exitValue(), logText());
    }

    /** Runs the daemon as {@link OtherUser#UID} (its state directory must belong to that uid). */
    public DaemonProcess asOtherUser(OtherUser other) {
        this.user = other;
        return this;
    }

    /** Moves the daemon's clock: milliseconds added to the wall clock. */
    public void setClockOffset(long millis) throws IOException {
        Path tmp = clockOffsetFile.resolveSibling("clock-offset.tmp");
        Files.writeString(tmp, Long.toString(millis), StandardCharsets.US_ASCII);
        Files.move(tmp, clockOffsetFile, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    }

    public DaemonProcess start() throws IOException, InterruptedException {
        Files.createDirectories(stateDir);
        List<String> args = new ArrayList<>(List.of("--state-dir", stateDir.toString()));
        args.addAll(extraArgs);
        List<String> jvm = jvmOptions == null ? JavaProcess.SHORT_LIVED : jvmOptions;
        ProcessBuilder pb = new ProcessBuilder(user == null
                ? JavaProcess.command(jvm, DaemonMain.class, args.toArray(String[]::new))
                : user.command(jvm, DaemonMain.class, args.toArray(String[]::new)));
        pb.environment().put(DaemonMain.CLOCK_OFFSET_ENV, clockOffsetFile.toString());
        pb.redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        process = pb.start();
        DaemonHealth.await(process, socket(), Duration.ofSeconds(30), this::logText);
        return this;
    }

    /** A start that is expected to fail: the exit code and everything the daemon printed. */
    public record Refusal(int exitCode, String output) {
    }

    /** Starts the daemon expecting it to refuse: waits (up to 30 s) for it to exit. */
    public Refusal startExpectingRefusal() throws IOException, InterruptedException {
        Files.createDirectories(stateDir);
        List<String> args = new ArrayList<>(List.of("--state-dir", stateDir.toString()));
        args.addAll(extraArgs);
        ProcessBuilder pb = JavaProcess.builder(DaemonMain.class, args.toArray(String[]::new));
        pb.redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        process = pb.start();
        if (!process.waitFor(30, java.util.concurrent.TimeUnit.SECONDS)) {
            throw new AssertionError("the daemon did not refuse to start; it runs: " + logText());
        }
        return new Refusal(process.exitValue(), logText());
    }

    public HealthResponse health() throws GfxStatsClientException {
        return DaemonHealth.check(socket());
    }

    public String logText() throws IOException {
        return Files.exists(log) ? Files.readString(log) : "";
    }

    /** The port of the Prometheus exposition, from the last line a daemon logged when it started serving it. */
    public int metricsPort() throws IOException {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("metrics: https?://[^ ]*:(\\d+)/metrics")
                .matcher(logText());
        int port = -1;
        while (m.find()) {
            port = Integer.parseInt(m.group(1));
        }
        if (port < 0) {
            throw new IllegalStateException("the daemon logged no metrics address:\n" + logText());
        }
        return port;
    }

    public long pid() {
        return process.pid();
    }

    public boolean isAlive() {
        return process != null && process.isAlive();
    }

    /** SIGKILL, and wait for the process to be gone. */
    public void kill() throws InterruptedException {
        process.toHandle().destroyForcibly();
        process.waitFor();
    }

    /** SIGTERM, and wait for the clean shutdown; returns the exit code. */
    public int stop() throws InterruptedException {
        process.toHandle().destroy();
        return process.waitFor();
    }

    public GraphicsStatsServiceDumpProto dumpProto() throws GfxStatsClientException, IOException {
        try (GfxStatsClient c = GfxStatsClient.unix(socket())) {
            return GraphicsStatsServiceDumpProto.parseFrom(c.dumpBytes(DumpRequest.newBuilder().setProto(true).build()));
        }
    }

    public String dumpText() throws GfxStatsClientException {
        try (GfxStatsClient c = GfxStatsClient.unix(socket())) {
            return new String(c.dumpBytes(DumpRequest.getDefaultInstance()), StandardCharsets.UTF_8);
        }
    }

    /** Sum of total frames over every dump entry of a package. */
    public long totalFrames(String packageName) throws GfxStatsClientException, IOException {
        long sum = 0;
        for (GraphicsStatsProto p : dumpProto().getStatsList()) {
            if (p.getPackageName().equals(packageName)) {
                sum += p.getSummary().getTotalFrames();
            }
        }
        return sum;
    }

    public Optional<GraphicsStatsProto> entry(String packageName, long versionCode) throws GfxStatsClientException, IOException {
        return dumpProto().getStatsList().stream()
                .filter(p -> p.getPackageName().equals(packageName) && p.getVersionCode() == versionCode)
                .findFirst();
    }

    @Override
    public void close() {
        if (isAlive()) {
            process.toHandle().destroyForcibly();
            process.onExit().join();
        }
        // The attach socket of a daemon jcmd looked at outlives its SIGKILL.
        try {
            Files.deleteIfExists(Path.of(System.getProperty("java.io.tmpdir"), ".java_pid" + process.pid()));
        } catch (java.io.IOException e) {
            // left behind, as before
        }
    }
}
