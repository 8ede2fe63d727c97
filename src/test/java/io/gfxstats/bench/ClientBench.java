package io.gfxstats.bench;

import org.openjdk.jmh.profile.GCProfiler;
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
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Runs {@link ClientRecordBenchmark} (with the GC profiler), prints a table, writes it into the
 * "Client recording cost" section of docs/benchmarks.md, and ends with the line
 * {@code record_ns=<ours> hdr_atomic_ns=<peer> ratio=<ours/peer>} (single-threaded figures).
 *
 * <p>Usage: {@code ClientBench <benchmarks.md> [forks warmupIterations measurementIterations]}.
 */
public final class ClientBench {
    static final String START = "<!-- client-bench:start -->";
    static final String END = "<!-- client-bench:end -->";

    private ClientBench() {
    }

    public static void main(String[] args) throws Exception {
        Path doc = Path.of(args.length > 0 ? args[0] : "docs/benchmarks.md");
        int forks = args.length > 1 ? Integer.parseInt(args[1]) : 2;
        int warmups = args.length > 2 ? Integer.parseInt(args[2]) : 3;
        int iterations = args.length > 3 ? Integer.parseInt(args[3]) : 5;

        List<String> jvmArgs = new ArrayList<>(ManagementFactory.getRuntimeMXBean().getInputArguments());
        jvmArgs.removeIf(a -> a.startsWith("-Xm") || a.startsWith("-agentlib") || a.startsWith("-javaagent"));
        jvmArgs.add("-Xms512m");
        jvmArgs.add("-Xmx512m");
        ChainedOptionsBuilder options = new OptionsBuilder()
                .include(ClientRecordBenchmark.class.getName() + "\\.")
                .forks(forks)
                .warmupIterations(warmups)
                .warmupTime(TimeValue.seconds(1))
                .measurementIterations(iterations)
                .measurementTime(TimeValue.seconds(1))
                .addProfiler(GCProfiler.class)
                .jvmArgs(jvmArgs.toArray(new String[0]));
        Collection<RunResult> results = new Runner(options.build()).run();

        Map<String, Row> rows = new LinkedHashMap<>();
        for (RunResult r : results) {
            String name = r.getParams().getBenchmark();
            name = name.substring(name.lastIndexOf('.') + 1);
            Result<?> primary = r.getPrimaryResult();
            Result<?> alloc = r.getSecondaryResults().get("gc.alloc.rate.norm");
            if (alloc == null) {
                alloc = r.getSecondaryResults().get("·gc.alloc.rate.norm");
            }
            rows.put(name, new Row(name, r.getParams().getThreads(), primary.getScore(), primary.getScoreError(),
                    alloc == null ? Double.NaN : alloc.getScore()));
        }
        Row ours1 = rows.get("gfxstatsRecord1t");
        Row peer1 = rows.get("hdrAtomicRecord1t");
        Row ours2 = rows.get("gfxstatsRecord2t");
        Row peer2 = rows.get("hdrAtomicRecord2t");

        String table = table(rows.values(), forks, warmups, iterations);
        System.out.println();
        System.out.print(table);
        updateDoc(doc, table, ours1, peer1, ours2, peer2);
        System.out.println("wrote " + doc);
        System.out.println(String.format(Locale.ROOT, "record_2t_ns=%.1f hdr_atomic_2t_ns=%.1f ratio_2t=%.2f",
                ours2.score, peer2.score, ours2.score / peer2.score));
        System.out.println(String.format(Locale.ROOT, "record_ns=%.1f hdr_atomic_ns=%.1f ratio=%.2f",
                ours1.score, peer1.score, ours1.score / peer1.score));
    }

    record Row(String name, int threads, double score, double error, double allocBytesPerOp) {
    }

    static String table(Collection<Row> rows, int forks, int warmups, int iterations) {
        StringBuilder sb = new StringBuilder();
        sb.append("| Benchmark | Threads | ns/frame (avg per thread) | ± (99.9 %) | bytes allocated/frame |\n");
        sb.append("|---|---:|---:|---:|---:|\n");
        for (Row r : rows) {
            sb.append(String.format(Locale.ROOT, "| %s | %d | %.1f | %.1f | %.3f |%n", r.name, r.threads, r.score,
                    r.error, r.allocBytesPerOp));
        }
        sb.append(String.format(Locale.ROOT, "%nJMH: %d forks x (%d warmup + %d measurement) x 1 s, -prof gc.%n",
                forks, warmups, iterations));
        return sb.toString();
    }

    static void updateDoc(Path doc, String table, Row ours1, Row peer1, Row ours2, Row peer2) throws IOException {
        String section = START + "\n"
                + "Measured " + LocalDate.now(ZoneOffset.UTC) + " on " + Runtime.getRuntime().availableProcessors()
                + " CPUs, " + System.getProperty("java.vm.name") + " " + System.getProperty("java.version")
                + ", by `scripts/bench client`.\n\n"
                + table + "\n"
                + String.format(Locale.ROOT, "Ratio to AtomicHistogram.recordValue: **%.2f** single-threaded, "
                        + "**%.2f** with 2 threads (goal: <= 1.0).%n", ours1.score / peer1.score,
                        ours2.score / peer2.score)
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
