package io.gfxstats.bench;

import io.gfxstats.daemon.Daemon;
import io.gfxstats.daemon.config.DaemonConfig;
import io.gfxstats.daemon.config.Setting;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One {@code gfxstats collect} process pulling today's stats from many daemons over loopback
 * TCP. The daemons are {@link Daemon} instances in the benchmark's JVM, each on its own state
 * directory and port (50 daemon JVMs would cost 50 JVM start-ups and heaps on a 2-core machine;
 * the collector cannot tell the difference). Each daemon holds {@code packages} day files of
 * today. The collector runs as a real process on the benchmark's classpath (the jar's classes);
 * its wall time includes JVM start-up, which the peer, the same command pulling one daemon,
 * shows on its own.
 */
final class FleetPull {
    static final String COLLECT_CLASS = "io.gfxstats.cli.CollectCommand";

    record Result(int daemons, int packages, long entries, int merged, double seconds, double singleSeconds,
                  String launcher) {
        String describe() {
            return String.format(Locale.ROOT, "One `gfxstats collect` process (%s, default concurrency) pulling "
                    + "today from %d daemons on loopback TCP ports, %d packages each (%d day files in all; the daemons "
                    + "are %d in-process Daemon instances in one JVM, each with its own state directory and port, "
                    + "instead of %d daemon JVMs on this 2-core machine). Wall time of the whole process, JVM start-up "
                    + "included; the peer is the same command pulling one daemon, which is mostly start-up. %d "
                    + "entries pulled, merged into %d (every daemon has the same uid/package/version keys).",
                    launcher, daemons, packages, daemons * packages, daemons, daemons, entries, merged);
        }
    }

    private FleetPull() {
    }

    static boolean collectAvailable() {
        try {
            Class.forName(COLLECT_CLASS, false, FleetPull.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException e) {
            return false;
        }
    }

    /** @param collectCommand scripts/gfxstats (or null: java on this classpath with the CLI's JVM flags) */
    static Optional<Result> measure(Path work, int daemons, int packages, long today, String collectCommand)
            throws Exception {
        if (!collectAvailable()) {
            Progress.line("fleet: gfxstats collect is not in this build; skipped");
            return Optional.empty();
        }
        Path root = work.resolve("fleet");
        Path template = root.resolve("template");
        DayFileSet.write(template, packages, today, 1);
        List<Daemon> running = new ArrayList<>();
        try {
            List<String> targets = new ArrayList<>();
            for (int i = 0; i < daemons; i++) {
                Path state = root.resolve("d" + i);
                DayFileSet.copyTree(template, state.resolve("data"));
                DaemonConfig config = DaemonConfig.builder().stateDir(state)
                        .set(Setting.FLUSH_INTERVAL, Duration.ofDays(1)).set(Setting.TCP_ENABLED, true)
                        .set(Setting.TCP_HOST, "127.0.0.1").set(Setting.TCP_PORT, 0).build();
                Daemon d = new Daemon(config, Clock.systemUTC());
                d.start();
                running.add(d);
                targets.add("127.0.0.1:" + d.tcpPort());
            }
            Path all = root.resolve("targets.txt");
            Files.write(all, targets, StandardCharsets.US_ASCII);
            Path one = root.resolve("one.txt");
            Files.write(one, targets.subList(0, 1), StandardCharsets.US_ASCII);

            collect(collectCommand, one, root.resolve("out-warm")); // page cache, CDS archive, daemon 0's cache
            Run single = collect(collectCommand, one, root.resolve("out-one"));
            Run fleet = collect(collectCommand, all, root.resolve("out-all"));
            if (fleet.collected != daemons) {
                throw new IllegalStateException("collect pulled " + fleet.collected + " of " + daemons + " daemons:\n"
                        + fleet.output);
            }
            return Optional.of(new Result(daemons, packages, fleet.entries, fleet.merged, fleet.seconds,
                    single.seconds, collectCommand != null ? "`" + Path.of(collectCommand).getFileName() + "`"
                            : "java on the benchmark classpath with the CLI's JVM flags, no class-data archive"));
        } finally {
            for (Daemon d : running) {
                d.stop();
            }
            DayFileSet.deleteTree(root);
        }
    }

    private record Run(double seconds, int collected, long entries, int merged, String output) {
    }

    private static final Pattern SUMMARY = Pattern.compile("collected (\\d+) of \\d+ targets?.*?: (\\d+) entries merged into (\\d+)");

    private static Run collect(String collectCommand, Path targets, Path out) throws IOException,
            InterruptedException {
        List<String> cmd = new ArrayList<>();
        if (collectCommand != null) {
            cmd.add(collectCommand);
        } else {
            cmd.add(System.getProperty("java.home") + File.separator + "bin" + File.separator + "java");
            cmd.addAll(io.gfxstats.buffer.JvmFlags.all());
            // As scripts/lib.sh starts the command line (GFX_CLI_FLAGS), minus the class-data archive.
            cmd.addAll(List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-XX:-UsePerfData",
                    "-Dio.grpc.netty.shaded.io.netty.jfr.enabled=false"));
            cmd.add("-cp");
            cmd.add(System.getProperty("java.class.path"));
            cmd.add("io.gfxstats.cli.Main");
        }
        cmd.addAll(List.of("collect", "--targets", targets.toString(), "--out", out.toString()));
        long t0 = System.nanoTime();
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(10, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new IllegalStateException("collect did not finish in 10 minutes");
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        Matcher m = SUMMARY.matcher(output);
        if (p.exitValue() != 0 || !m.find()) {
            throw new IllegalStateException("collect failed (exit " + p.exitValue() + "):\n" + output);
        }
        return new Run(seconds, Integer.parseInt(m.group(1)), Long.parseLong(m.group(2)),
                Integer.parseInt(m.group(3)), output);
    }
}
