package io.gfxstats.bench;

import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;

import java.lang.management.ManagementFactory;
import java.util.Collection;
import java.util.List;

/**
 * CPU time of the benchmark process per operation (all threads' CPU over all threads' ops).
 * JMH's own score is wall-clock time, which on a shared machine also counts the time the
 * benchmark threads wait for a CPU while other processes run; CPU time per operation is the
 * cost itself. After warmup the process does nothing else (no allocation, so no GC; the
 * session's heartbeat thread wakes 4 times a second), so nearly all of it is the benchmark.
 */
public final class CpuTimeProfiler implements InternalProfiler {
    public static final String LABEL = "cpu.time.norm";

    private final com.sun.management.OperatingSystemMXBean os =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    private long start;

    @Override
    public String getDescription() {
        return "process CPU time per operation";
    }

    @Override
    public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
        start = os.getProcessCpuTime();
    }

    @Override
    @SuppressWarnings("rawtypes") // JMH's InternalProfiler declares the raw Result; an override must match it
    public Collection<? extends Result> afterIteration(BenchmarkParams benchmarkParams,
                                                       IterationParams iterationParams, IterationResult result) {
        long cpu = os.getProcessCpuTime() - start;
        long ops = result.getMetadata().getMeasuredOps();
        return List.of(new ScalarResult(LABEL, ops == 0 ? Double.NaN : (double) cpu / ops, "ns/op",
                AggregationPolicy.AVG));
    }
}
