package io.gfxstats.collect;

import io.gfxstats.proto.GraphicsStatsServiceDumpProto;
import io.gfxstats.rpc.v1.PullRequest;
import io.gfxstats.rpc.v1.PullResponse;
import io.gfxstats.rpc.v1.ScenesResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;

/**
 * The fleet collector: pulls one day from many daemons, at most {@code concurrency} at a time,
 * each within its deadline and with retries ({@link RetryPolicy}), and merges what arrives
 * ({@link FleetMerge}). A target that cannot be reached is reported in its {@link TargetResult};
 * it never stops the others.
 *
 * <pre>{@code
 * Collector collector = new Collector(16, RetryPolicy.of(Duration.ofSeconds(20), 2),
 *         new GrpcTargetPuller(caCert, token));
 * Collector.Result result = collector.collect(targets, false);
 * }</pre>
 */
public final class Collector {
    /** Pauses between attempts; injectable so that tests need not sleep. */
    @FunctionalInterface
    public interface Sleeper {
        void sleep(Duration d) throws InterruptedException;
    }

    /**
     * Told how each target fares, from the collector's threads (several at once), for progress
     * displays. {@link #NONE} by default.
     */
    public interface Progress {
        Progress NONE = new Progress() {
        };

        /** A first attempt at {@code target} starts. */
        default void started(int index, Target target) {
        }

        /** An attempt failed and the target will be tried again. */
        default void retrying(int index, Target target, int failedAttempts, String error) {
        }

        /** The target succeeded or gave up. */
        default void finished(int index, TargetResult result) {
        }
    }

    /**
     * @param targets per target, in the order of the target list
     * @param merged the merged entries, sorted by (day, package, version, uid)
     * @param saturated merged entries with a counter stuck at the int32 maximum
     * @param scenes the targets' scenes merged by addition (empty when none counted scenes)
     */
    public record Result(List<TargetResult> targets, GraphicsStatsServiceDumpProto merged, int entriesMerged,
            List<String> saturated, ScenesResponse scenes) {
        public Result(List<TargetResult> targets, GraphicsStatsServiceDumpProto merged, int entriesMerged,
                      List<String> saturated) {
            this(targets, merged, entriesMerged, saturated, ScenesResponse.getDefaultInstance());
        }

        public Result {
            targets = List.copyOf(targets);
            saturated = List.copyOf(saturated);
        }

        public int succeeded() {
            return (int) targets.stream().filter(TargetResult::ok).count();
        }
    }

    private final int concurrency;
    private final RetryPolicy retry;
    private final TargetPuller puller;
    private final LongSupplier nanoTime;
    private final Sleeper sleeper;
    private volatile Progress progress = Progress.NONE;

    public Collector(int concurrency, RetryPolicy retry, TargetPuller puller) {
        this(concurrency, retry, puller, System::nanoTime, d -> Thread.sleep(d.toMillis()));
    }

    public Collector(int concurrency, RetryPolicy retry, TargetPuller puller, LongSupplier nanoTime, Sleeper sleeper) {
        if (concurrency < 1) {
            throw new IllegalArgumentException("concurrency must be at least 1: " + concurrency);
        }
        this.concurrency = concurrency;
        this.retry = Objects.requireNonNull(retry, "retry");
        this.puller = Objects.requireNonNull(puller, "puller");
        this.nanoTime = Objects.requireNonNull(nanoTime, "nanoTime");
        this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
    }

    /** Who is told about each target's progress. */
    public Collector progress(Progress listener) {
        this.progress = Objects.requireNonNull(listener, "listener");
        return this;
    }

    /** Pulls every target and merges; returns when every target has succeeded or given up. */
    public Result collect(List<Target> targets, boolean lastFullDay) throws InterruptedException {
        PullRequest request = PullRequest.newBuilder().setLastFullDay(lastFullDay).build();
        FleetMerge merge = new FleetMerge();
        int threads = Math.max(1, Math.min(concurrency, targets.size()));
        AtomicInteger threadNo = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "gfxstats-collect-" + threadNo.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<TargetResult>> futures = new ArrayList<>();
            for (int i = 0; i < targets.size(); i++) {
                int index = i;
                futures.add(pool.submit(() -> {
                    progress.started(index, targets.get(index));
                    TargetResult r = collectOne(index, targets.get(index), request, merge);
                    progress.finished(index, r);
                    return r;
                }));
            }
            List<TargetResult> results = new ArrayList<>();
            for (Future<TargetResult> f : futures) {
                try {
                    results.add(f.get());
                } catch (ExecutionException e) {
                    // collectOne reports every failure of a pull in its result; this is a bug.
                    throw new IllegalStateException("collector task failed", e.getCause());
                }
            }
            GraphicsStatsServiceDumpProto merged;
            int added;
            ScenesResponse scenes;
            synchronized (merge) {
                merged = merge.result();
                added = merge.entriesAdded();
                scenes = merge.scenes();
            }
            return new Result(results, merged, added, FleetMerge.saturated(merged), scenes);
        } finally {
            pool.shutdownNow();
        }
    }

    private TargetResult collectOne(int index, Target target, PullRequest request, FleetMerge merge)
            throws InterruptedException {
        long start = nanoTime.getAsLong();
        long deadline = start + retry.deadline().toNanos();
        int attempts = 0;
        String error;
        while (true) {
            long left = deadline - nanoTime.getAsLong();
            attempts++;
            try {
                PullResponse response = puller.pull(target, request, Duration.ofNanos(Math.max(left, 1_000_000L)));
                List<String> rejected;
                synchronized (merge) {
                    rejected = merge.add(index, response);
                }
                return new TargetResult(target, true, response.getStats().getStatsCount(), attempts,
                        millisSince(start), null, rejected);
            } catch (PullFailure e) {
                error = e.getMessage() == null ? e.toString() : e.getMessage();
                if (!e.retryable() || attempts > retry.retries()) {
                    break;
                }
                Duration pause = retry.backoff(attempts);
                long leftAfterPause = deadline - nanoTime.getAsLong() - pause.toNanos();
                if (leftAfterPause < RetryPolicy.MIN_ATTEMPT.toNanos()) {
                    error += " (per-target deadline of " + describe(retry.deadline()) + " reached)";
                    break;
                }
                progress.retrying(index, target, attempts, error);
                sleeper.sleep(pause);
            } catch (RuntimeException e) {
                // A puller bug must not take the other targets down; report it as this target's failure.
                error = "unexpected failure: " + e;
                break;
            }
        }
        return new TargetResult(target, false, 0, attempts, millisSince(start), error, List.of());
    }

    private long millisSince(long startNanos) {
        return (nanoTime.getAsLong() - startNanos) / 1_000_000L;
    }

    private static String describe(Duration d) {
        long ms = d.toMillis();
        return ms % 1000 == 0 ? (ms / 1000) + " s" : ms + " ms";
    }
}
