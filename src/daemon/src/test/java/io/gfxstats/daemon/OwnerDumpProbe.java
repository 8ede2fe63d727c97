package io.gfxstats.daemon;

import io.gfxstats.rpc.ClientOptions;
import io.gfxstats.rpc.GfxStatsClient;
import io.gfxstats.rpc.GfxStatsClientException;
import io.gfxstats.rpc.v1.DumpRequest;
import io.gfxstats.rpc.v1.WatchRequest;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The daemon's owner asking for dumps over and over while an attack runs, each on a fresh
 * connection (as {@code gfxstats dump} does): what the attack suite asserts on. Every dump's
 * latency and every failure is kept.
 */
final class OwnerDumpProbe implements AutoCloseable {
    private final Path socket;
    private final Duration gap;
    private final Thread thread;
    private final List<Long> millis = new ArrayList<>();
    private final List<String> failures = new ArrayList<>();
    private volatile boolean stop;
    private volatile int expectedBytes = -1;
    private volatile boolean watchToo;

    OwnerDumpProbe(Path socket, Duration gap) {
        this.socket = socket;
        this.gap = gap;
        this.thread = new Thread(this::run, "owner-dump-probe");
        thread.setDaemon(true);
    }

    /** Dumps must have exactly this many bytes (what the daemon dumped before the attack). */
    OwnerDumpProbe expecting(int bytes) {
        expectedBytes = bytes;
        return this;
    }

    /** Each round also opens a Watch, which must give its first snapshot (counted in the latency). */
    OwnerDumpProbe watchingToo() {
        watchToo = true;
        return this;
    }

    OwnerDumpProbe start() {
        thread.start();
        return this;
    }

    private void run() {
        while (!stop) {
            long t0 = System.nanoTime();
            String failure = null;
            try (GfxStatsClient c = GfxStatsClient.unix(socket,
                    ClientOptions.DEFAULTS.withDumpDeadline(Duration.ofSeconds(5)))) {
                // Asked once: the daemon queues the owner's dump for a slot rather than refusing it.
                byte[] out = c.dumpBytes(DumpRequest.getDefaultInstance());
                if (expectedBytes >= 0 && out.length != expectedBytes) {
                    failure = "dump of " + out.length + " bytes, expected " + expectedBytes;
                }
                if (watchToo) {
                    int[] snapshots = {0};
                    c.watch(WatchRequest.newBuilder().setIntervalMs(200).build(), Duration.ofSeconds(5), s -> {
                        snapshots[0]++;
                        return false;
                    });
                    if (snapshots[0] == 0) {
                        failure = "the owner's watch gave no snapshot";
                    }
                }
            } catch (GfxStatsClientException | RuntimeException e) {
                failure = e.getMessage();
            }
            long ms = (System.nanoTime() - t0) / 1_000_000;
            synchronized (this) {
                millis.add(ms);
                if (failure != null) {
                    failures.add(failure);
                }
            }
            try {
                Thread.sleep(gap.toMillis());
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    synchronized int dumps() {
        return millis.size();
    }

    synchronized long maxMillis() {
        return millis.stream().mapToLong(Long::longValue).max().orElse(-1);
    }

    synchronized List<String> failures() {
        return List.copyOf(failures);
    }

    synchronized String summary() {
        return dumps() + " owner dumps" + (watchToo ? " and watches" : "") + ", slowest " + maxMillis() + " ms, " + failures.size() + " failed"
                + (failures.isEmpty() ? "" : ", first: " + failures.get(0));
    }

    @Override
    public void close() {
        stop = true;
        thread.interrupt();
        try {
            thread.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
