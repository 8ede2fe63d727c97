package io.gfxstats.bench;

import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Runs {@link ClientRecordBenchmark}, prints a table, writes it into the "Client recording cost"
 * section of docs/benchmarks.md, and ends with the line
 * {@code record_ns=<ours> hdr_atomic_ns=<peer> ratio=<ours/peer>} (single-threaded figures).
 *
 * <p>The figure compared is the recording thread's time per frame: JMH's score over the measured
 * batches, which leaves out the waits for the drain thread between batches (outside the measured
 * time) and the drain thread's counting (on another thread). The process CPU time per frame
 * ({@link CpuTimeProfiler}) holds both and is reported next to it. The machine is shared, and a
 * wall-clock score also counts the time the thread waits for a CPU, so each benchmark runs many
 * short iterations in several rounds (the whole set once per round, one fork each) and the
 * reported value is the median iteration, with the best iteration next to it;
 * {@code scripts/bench instructions} gives the load-independent count. Allocation per frame comes
 * from the GC profiler.
 *
 * <p>Usage: {@code ClientBench <benchmarks.md> [rounds warmupIterations measurementIterations]}
 * (iterations of 200 ms).
 */
public final class ClientBench {
    static final String START = "<!-- client-bench:start -->";
    static final String END = "<!-- client-bench:end -->";
    static final String OURS_1T = "gfxstatsRecord1t";
    static final String PEER_1T = "hdrAtomicRecord1t";
    static final String OURS_2T = "gfxstatsRecord2t";
    /** The batch counted on the recording thread between batches (the same-core method). */
    static final String SAME_1T = "gfxstatsSameCore1t";
    /** The drain thread on its 4 ms period only, never woken for a waiting batch (the headline before session 18). */
    static final String TIMER_1T = "gfxstatsTimerDrain1t";
    static final String PEER_2T = "hdrAtomicRecord2t";
    static final int ITERATION_MILLIS = 200;

    private ClientBench() {
    }

    public static void main(String[] args) throws Exception {
        // "-": print only (scripts/bench writes the doc only when asked, --update-docs).
        Path doc = args.length > 0 && args[0].equals("-") ? null : Path.of(args.length > 0 ? args[0] : "docs/benchmarks.md");
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        int warmups = args.length > 2 ? Integer.parseInt(args[2]) : 8;
        int iterations = args.length > 3 ? Integer.parseInt(args[3]) : 10;

        // The machine and its load when the run starts: a time per frame means little without them.
        String machine = machine();
        System.out.println("machine: " + machine);
        List<String> jvmArgs = new ArrayList<>(ManagementFactory.getRuntimeMXBean().getInputArguments());
        jvmArgs.removeIf(a -> a.startsWith("-Xm") || a.startsWith("-agentlib") || a.startsWith("-javaagent"));
        jvmArgs.add("-Xms512m");
        jvmArgs.add("-Xmx512m");
        Map<String, Stats> stats = new LinkedHashMap<>();
        List<String> roundRatios = new ArrayList<>();
        for (int round = 1; round <= rounds; round++) {
            ChainedOptionsBuilder options = new OptionsBuilder()
                    .include(ClientRecordBenchmark.class.getName() + "\\.")
                    .forks(1)
                    .warmupIterations(warmups)
                    .warmupTime(TimeValue.milliseconds(ITERATION_MILLIS))
                    .measurementIterations(iterations)
                    .measurementTime(TimeValue.milliseconds(ITERATION_MILLIS))
                    .addProfiler(GCProfiler.class)
                    .addProfiler(CpuTimeProfiler.class)
                    .addProfiler(LineTransferProfiler.class)
                    .jvmArgs(jvmArgs.toArray(new String[0]));
            Map<String, Double> roundMedian = new LinkedHashMap<>();
            for (RunResult r : new Runner(options.build()).run()) {
                String name = r.getParams().getBenchmark();
                name = name.substring(name.lastIndexOf('.') + 1);
                Stats st = stats.computeIfAbsent(name, Stats::new);
                st.threads = r.getParams().getThreads();
                List<Double> wall = new ArrayList<>();
                for (BenchmarkResult br : r.getBenchmarkResults()) {
                    for (IterationResult ir : br.getIterationResults()) {
                        st.wall.add(ir.getPrimaryResult().getScore());
                        wall.add(ir.getPrimaryResult().getScore());
                        Result<?> c = ir.getSecondaryResults().get(CpuTimeProfiler.LABEL);
                        if (c != null) {
                            st.cpu.add(c.getScore());
                        }
                        Result<?> t = ir.getSecondaryResults().get(LineTransferProfiler.LABEL);
                        st.transfer.add(t == null ? Double.NaN : t.getScore());
                    }
                }
                roundMedian.put(name, median(wall));
                Result<?> alloc = r.getSecondaryResults().get("gc.alloc.rate.norm");
                if (alloc == null) {
                    alloc = r.getSecondaryResults().get("\u00b7gc.alloc.rate.norm");
                }
                if (alloc != null) {
                    st.alloc = Math.max(st.alloc, alloc.getScore());
                }
            }
            double r1 = roundMedian.get(OURS_1T) / roundMedian.get(PEER_1T);
            double r2 = roundMedian.get(OURS_2T) / roundMedian.get(PEER_2T);
            double rs = roundMedian.get(SAME_1T) / roundMedian.get(PEER_1T);
            double rt = roundMedian.get(TIMER_1T) / roundMedian.get(PEER_1T);
            roundRatios.add(String.format(Locale.ROOT, "%.2f/%.2f/%.2f/%.2f", r1, r2, rs, rt));
            System.out.println(String.format(Locale.ROOT,
                    "round %d: ratio=%.2f ratio_2t=%.2f ratio_same_core=%.2f ratio_timer_drain=%.2f", round, r1, r2, rs, rt));
        }
        Stats ours1 = stats.get(OURS_1T);
        Stats peer1 = stats.get(PEER_1T);
        Stats ours2 = stats.get(OURS_2T);
        Stats peer2 = stats.get(PEER_2T);
        // The recording thread's cost: the measured batches' time (JMH's score), which leaves out the
        // waits between batches and the drain thread's counting (both in the process CPU column).
        Stats same1 = stats.get(SAME_1T);
        Stats timer1 = stats.get(TIMER_1T);
        double ratio1 = ours1.wallMedian() / peer1.wallMedian();
        double ratio2 = ours2.wallMedian() / peer2.wallMedian();
        double ratioSame = same1.wallMedian() / peer1.wallMedian();
        double ratioTimer = timer1.wallMedian() / peer1.wallMedian();
        Placement placement = Placement.of(ours1, peer1, stats.values());
        String table = table(stats.values(), roundRatios, rounds, warmups, iterations) + placement.sentence();
        System.out.println();
        System.out.print(table);
        if (doc != null) {
            updateDoc(doc, machine, table, ratio1, ratio2, ours1.wallBest() / peer1.wallBest(),
                    ours2.wallBest() / peer2.wallBest(), ours1.cpuMedian() / peer1.cpuMedian(),
                    ratioSame, ratioTimer);
            System.out.println("wrote " + doc);
        }
        System.out.println(String.format(Locale.ROOT, "record_timer_drain_ns=%.1f hdr_atomic_ns=%.1f ratio_timer_drain=%.2f",
                timer1.wallMedian(), peer1.wallMedian(), ratioTimer));
        System.out.println(String.format(Locale.ROOT, "record_same_core_ns=%.1f hdr_atomic_ns=%.1f ratio_same_core=%.2f",
                same1.wallMedian(), peer1.wallMedian(), ratioSame));
        System.out.println(String.format(Locale.ROOT, "record_2t_ns=%.1f hdr_atomic_2t_ns=%.1f ratio_2t=%.2f",
                ours2.wallMedian(), peer2.wallMedian(), ratio2));
        System.out.println(placement.line());
        System.out.println(String.format(Locale.ROOT, "record_ns=%.1f hdr_atomic_ns=%.1f ratio=%.2f",
                ours1.wallMedian(), peer1.wallMedian(), ratio1));
    }

    /** Every measured iteration of one benchmark over all rounds. */
    static final class Stats {
        final String name;
        final List<Double> cpu = new ArrayList<>();
        final List<Double> wall = new ArrayList<>();
        /** Per measured iteration, in the order of {@link #wall}: LineTransferProfiler's probe after it. */
        final List<Double> transfer = new ArrayList<>();
        int threads;
        double alloc = -1;

        Stats(String name) {
            this.name = name;
        }

        double cpuMedian() {
            return median(cpu);
        }

        double cpuBest() {
            return min(cpu);
        }

        double wallMedian() {
            return median(wall);
        }

        double wallBest() {
            return min(wall);
        }
    }

    /**
     * The single-threaded woken-drain figure split by where the two CPUs were in each iteration
     * (its line-transfer probe): near when under twice the least probe of the whole run, else far.
     * Its ring lines were last read by the drain, on the other CPU when the scheduler put it there,
     * so its time per frame depends on the line's time between them and on how often the unpinned
     * drain ran on the recording thread's own CPU instead (often in one sampled run, seldom in
     * another: docs/benchmarks.md, "Session 27" and "Session 28"); the peer's does not, it never
     * leaves its core.
     */
    record Placement(double least, List<Double> near, List<Double> far, double peer) {
        static Placement of(Stats ours, Stats peer, java.util.Collection<Stats> all) {
            double least = all.stream().flatMap(st -> st.transfer.stream()).filter(t -> t > 0)
                    .mapToDouble(Double::doubleValue).min().orElse(Double.NaN);
            List<Double> near = new ArrayList<>();
            List<Double> far = new ArrayList<>();
            for (int i = 0; i < ours.wall.size() && i < ours.transfer.size(); i++) {
                double t = ours.transfer.get(i);
                if (t > 0) {
                    (t < 2 * least ? near : far).add(ours.wall.get(i));
                }
            }
            return new Placement(least, near, far, peer.wallMedian());
        }

        /**
         * {@code line_transfer_least_ns=... record_near_ns=... ratio_near=... near_iterations=...
         * record_far_ns=... ratio_far=... far_iterations=...}.
         */
        String line() {
            return String.format(Locale.ROOT,
                    "line_transfer_least_ns=%.1f record_near_ns=%.1f ratio_near=%.2f near_iterations=%d "
                            + "record_far_ns=%.1f ratio_far=%.2f far_iterations=%d",
                    least, median(near), median(near) / peer, near.size(), median(far), median(far) / peer, far.size());
        }

        String sentence() {
            return String.format(Locale.ROOT, "%n%s, by where the two CPUs were after each iteration (a cache line's "
                            + "time between them, probed; near: under twice the run's least, %.0f ns): near in %d "
                            + "iterations, median %.1f ns a frame (**%.2f** of AtomicHistogram's median); far in %d, "
                            + "median %.1f ns (**%.2f**).%n", OURS_1T, least, near.size(), median(near),
                    median(near) / peer, far.size(), median(far), median(far) / peer);
        }
    }

    static double min(List<Double> values) {
        return values.stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN);
    }

    static double max(List<Double> values) {
        return values.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
    }

    static double median(List<Double> values) {
        double[] v = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        return v.length == 0 ? Double.NaN : v[v.length / 2];
    }

    static String table(java.util.Collection<Stats> rows, List<String> roundRatios, int rounds, int warmups,
                        int iterations) {
        StringBuilder sb = new StringBuilder();
        sb.append("| Benchmark | Threads | recording thread ns/frame (median) | recording thread ns/frame (best) "
                + "| process CPU ns/frame, drain included (median) | bytes allocated/frame "
                + "| line between the CPUs, ns (median, range) |\n");
        sb.append("|---|---:|---:|---:|---:|---:|---:|\n");
        for (Stats r : rows) {
            sb.append(String.format(Locale.ROOT, "| %s | %d | %.1f | %.1f | %.1f | %s | %.0f (%.0f-%.0f) |%n", r.name,
                    r.threads, r.wallMedian(), r.wallBest(), r.cpuMedian(),
                    r.alloc < 0 ? "n/a" : String.format(Locale.ROOT, "%.3f", r.alloc),
                    median(r.transfer), min(r.transfer), max(r.transfer)));
        }
        sb.append("\nRatio of the recording thread's time to AtomicHistogram's per round (medians, 1 thread/2 threads/"
                + "1 thread counting its own batches/1 thread, the drain on its period only): ")
                .append(String.join(", ", roundRatios)).append(".\n");
        sb.append(String.format(Locale.ROOT, "%nJMH: %d rounds x 1 fork x (%d warmup + %d measurement iterations "
                + "of %d ms), -prof gc, a line-transfer probe after each iteration; batches of %d frames per invocation, JMH's score per frame (the recording "
                + "thread's time) and the process CPU time per frame (all threads' CPU, the drain thread's counting "
                + "and the waits between batches included, over all threads' frames).%n", rounds, warmups, iterations, ITERATION_MILLIS,
                ClientRecordBenchmark.BATCH));
        return sb.toString();
    }

    /**
     * When, on what and under which load the run started: UTC date and time, the load average of
     * the last minute (/proc/loadavg, where there is one), the processor's model name
     * (/proc/cpuinfo) and CPU count, and the JVM.
     */
    static String machine() {
        String load = firstField(Path.of("/proc/loadavg"), null);
        String cpu = firstField(Path.of("/proc/cpuinfo"), "model name");
        return LocalDateTime.now(ZoneOffset.UTC).truncatedTo(ChronoUnit.MINUTES).toString().replace('T', ' ')
                + " UTC, load average " + (load == null ? "unknown" : load) + " at the start, "
                + (cpu == null ? "" : cpu + ", ") + Runtime.getRuntime().availableProcessors() + " CPUs, "
                + System.getProperty("java.vm.name") + " " + System.getProperty("java.version");
    }

    /** The first word of a file, or the value of the first "key : value" line with that key; null if unreadable. */
    private static String firstField(Path file, String key) {
        try {
            for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                if (key == null) {
                    return line.trim().split("\\s+")[0];
                }
                int colon = line.indexOf(':');
                if (colon > 0 && line.substring(0, colon).trim().equals(key)) {
                    return line.substring(colon + 1).trim();
                }
            }
        } catch (IOException | RuntimeException e) {
            return null;
        }
        return null;
    }

    static void updateDoc(Path doc, String machine, String table, double median1, double median2, double best1,
                          double best2, double whole1, double sameCore1, double timer1) throws IOException {
        String section = START + "\n"
                + "Measured " + machine + ", by `scripts/bench client`.\n\n"
                + table + "\n"
                + String.format(Locale.ROOT, "Recording thread's time per frame relative to "
                        + "AtomicHistogram.recordValue: **%.2f** single-threaded, **%.2f** with 2 threads (medians; "
                        + "best iterations: %.2f and %.2f); **%.2f** single-threaded with each batch counted by the "
                        + "recording thread itself before the next (gfxstatsSameCore1t, the same-core method); "
                        + "**%.2f** single-threaded with the drain thread on its 4 ms period only, never woken for a "
                        + "waiting batch (gfxstatsTimerDrain1t). Goal: <= 0.5. "
                        + "Process CPU per frame, the drain thread's counting included, single-threaded: %.2f.%n",
                        median1, median2, best1, best2, sameCore1, timer1, whole1)
                + END;
        String text = Files.exists(doc) ? Files.readString(doc, StandardCharsets.UTF_8) : "# Benchmarks\n";
        int start = text.indexOf(START);
        int end = text.indexOf(END);
        if (start >= 0 && end > start) {
            text = text.substring(0, start) + section + text.substring(end + END.length());
        } else {
            text = text + (text.endsWith("\n") ? "\n" : "\n\n") + "## Client recording cost\n\n" + section + "\n";
        }
        Files.writeString(doc, text, StandardCharsets.UTF_8);
    }
}
