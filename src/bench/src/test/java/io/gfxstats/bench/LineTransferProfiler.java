package io.gfxstats.bench;

import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Collection;
import java.util.List;

/**
 * The time of a cache line between the two CPUs ({@link LineTransfer}), probed right after every
 * iteration, outside its measured time: what a cross-core figure of that iteration paid per line.
 * The probe's threads are made at the first iteration of a fork and end with the JVM.
 */
public final class LineTransferProfiler implements InternalProfiler {
    public static final String LABEL = "line.transfer.ns";

    private LineTransfer probe;

    @Override
    public String getDescription() {
        return "one-way time of a cache line between the first two CPUs, after each iteration";
    }

    @Override
    public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
        if (probe == null) {
            try {
                probe = new LineTransfer();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while warming up the line-transfer probe", e);
            }
        }
    }

    @Override
    @SuppressWarnings("rawtypes") // JMH's InternalProfiler declares the raw Result; an override must match it
    public Collection<? extends Result> afterIteration(BenchmarkParams benchmarkParams,
                                                       IterationParams iterationParams, IterationResult result) {
        double ns;
        try {
            ns = probe.oneWayNanos();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            ns = Double.NaN;
        }
        return List.of(new ScalarResult(LABEL, ns, "ns", AggregationPolicy.AVG));
    }
}
