package io.gfxstats.bench;

import io.gfxstats.cli.Main;
import io.gfxstats.testing.JavaProcess;
import io.gfxstats.trace.SyntheticTrace;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * {@code scripts/bench trace [MB] [ROUNDS]}: throughput of {@code gfxstats trace} on a synthetic
 * hitrace of MB megabytes (default 500, written to a temporary directory and deleted afterwards)
 * against {@code grep -c tracing_mark_write} over the same file, alternating, in the same run.
 * Both read the file from the page cache. Each run is timed by {@code /usr/bin/time}: wall time
 * and CPU time (user + sys), whose ratio is less sensitive to a loaded machine than wall time.
 * Writes the block between the {@code trace-bench} markers of docs/benchmarks.md.
 */
public final class TraceBench {
    private TraceBench() {
    }

    record Run(double wall, double cpu, long maxRssKb) {
    }

    public static void main(String[] args) throws Exception {
        // "-": print only (scripts/bench writes the doc only when asked, --update-docs).
        Path doc = args[0].equals("-") ? null : Path.of(args[0]);
        long mb = args.length > 1 ? Long.parseLong(args[1]) : 500;
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 3;
        Path dir = Files.createTempDirectory("gfxstats-trace-bench");
        Path trace = dir.resolve("synthetic.ftrace");
        try {
            try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(trace), 1 << 20)) {
                SyntheticTrace.write(out, mb << 20);
            }
            long bytes = Files.size(trace);
            timed(List.of("cat", trace.toString()));
            List<Run> grep = new ArrayList<>();
            List<Run> ours = new ArrayList<>();
            for (int i = 0; i < rounds; i++) {
                grep.add(timed(List.of("grep", "-c", "tracing_mark_write", trace.toString())));
                ours.add(timed(JavaProcess.command(List.of("-Xmx64m"), Main.class, "trace", trace.toString())));
                System.err.printf(Locale.ROOT, "round %d: grep %.2fs wall %.2fs cpu, gfxstats trace %.2fs wall %.2fs cpu%n",
                        i + 1, grep.get(i).wall(), grep.get(i).cpu(), ours.get(i).wall(), ours.get(i).cpu());
            }
            double[] warm = new double[5];
            for (int i = 0; i < warm.length; i++) {
                warm[i] = inProcessCpuSeconds(trace);
            }
            double size = bytes / 1e6;
            double warmCpu = size / median(Arrays.copyOfRange(warm, 2, warm.length));
            double grepWall = size / median(grep.stream().mapToDouble(Run::wall).toArray());
            double grepCpu = size / median(grep.stream().mapToDouble(Run::cpu).toArray());
            double ourWall = size / median(ours.stream().mapToDouble(Run::wall).toArray());
            double ourCpu = size / median(ours.stream().mapToDouble(Run::cpu).toArray());
            long rss = ours.stream().mapToLong(Run::maxRssKb).max().orElse(0);
            String load = Files.readString(Path.of("/proc/loadavg")).trim();
            String block = String.format(Locale.ROOT,
                    "Synthetic hitrace of %.0f MB (per 60 Hz vsync 60 kernel events and about 80 markers, 18 of them frame"
                            + " markers of RenderService and two apps; `SyntheticTrace`),"
                            + " %d alternating rounds, medians; load average at the end: %s (%d CPUs).%n%n"
                            + "| | MB/s (wall) | MB/s (CPU: user+sys) |%n|---|---|---|%n"
                            + "| `grep -c tracing_mark_write` | %.0f | %.0f |%n"
                            + "| `gfxstats trace` (summary, JVM start included, `-Xmx64m`) | %.0f | %.0f |%n"
                            + "| **ratio grep / gfxstats trace** | **%.2f** | **%.2f** |%n"
                            + "| `TraceParser` in one JVM after 2 warm-up reads (thread CPU time, median of 3) | | %.0f |%n"
                            + "| **ratio grep / warm parser** | | **%.2f** |%n%n"
                            + "Largest resident set of the `gfxstats trace` JVM: %d MB for a %.0f MB input.%n",
                    size, rounds, load, Runtime.getRuntime().availableProcessors(), grepWall, grepCpu, ourWall,
                    ourCpu, grepWall / ourWall, grepCpu / ourCpu, warmCpu, grepCpu / warmCpu, rss / 1024, size);
            System.out.print(block);
            update(doc, block);
            System.out.printf(Locale.ROOT, "grep_mb_s=%.0f trace_mb_s=%.0f ratio_wall=%.2f ratio_cpu=%.2f ratio_warm_cpu=%.2f%n",
                    grepWall, ourWall, grepWall / ourWall, grepCpu / ourCpu, grepCpu / warmCpu);
        } finally {
            Files.deleteIfExists(trace);
            Files.deleteIfExists(dir);
        }
    }

    /** One whole parse of {@code trace} in this JVM, in CPU seconds of this thread. */
    private static double inProcessCpuSeconds(Path trace) throws Exception {
        java.lang.management.ThreadMXBean mx = java.lang.management.ManagementFactory.getThreadMXBean();
        long t0 = mx.getCurrentThreadCpuTime();
        try (java.io.InputStream in = Files.newInputStream(trace)) {
            io.gfxstats.trace.TraceParser.parse(in, trace.toString(), io.gfxstats.trace.ClockOffset.AUTO, null);
        }
        return (mx.getCurrentThreadCpuTime() - t0) / 1e9;
    }

    private static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        return s[s.length / 2];
    }

    /**
     * Runs {@code cmd} under /usr/bin/time. Its output goes to a pipe that is drained, not to
     * /dev/null: GNU grep notices /dev/null and stops at the first match.
     */
    private static Run timed(List<String> cmd) throws IOException, InterruptedException {
        List<String> full = new ArrayList<>(List.of("/usr/bin/time", "-f", "TIME %e %U %S %M"));
        full.addAll(cmd);
        Process p = new ProcessBuilder(full).start();
        Thread drain = new Thread(() -> {
            try {
                p.getInputStream().transferTo(OutputStream.nullOutputStream());
            } catch (IOException e) {
                // reported by the exit status
            }
        });
        drain.start();
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        drain.join();
        int exit = p.waitFor();
        String line = err.lines().filter(l -> l.startsWith("TIME ")).reduce((a, b) -> b).orElseThrow(
                () -> new IOException("no timing from " + cmd + ": " + err));
        if (exit != 0) {
            throw new IOException(cmd + " failed (" + exit + "): " + err);
        }
        String[] f = line.split(" ");
        return new Run(Double.parseDouble(f[1]), Double.parseDouble(f[2]) + Double.parseDouble(f[3]), Long.parseLong(f[4]));
    }

    static void update(Path doc, String content) throws IOException {
        if (doc == null) {
            return;
        }
        String start = "<!-- trace-bench:start -->";
        String end = "<!-- trace-bench:end -->";
        String text = Files.readString(doc, StandardCharsets.UTF_8);
        int s = text.indexOf(start);
        int e = text.indexOf(end);
        if (s < 0 || e < s) {
            throw new IOException(doc + " has no " + start + " ... " + end + " block");
        }
        Files.writeString(doc, text.substring(0, s) + start + "\n" + content + end + text.substring(e + end.length()),
                StandardCharsets.UTF_8);
    }
}
