package io.gfxstats.bench;

import io.gfxstats.rpc.GfxStatsClient;
import io.gfxstats.rpc.v1.DumpRequest;
import java.nio.file.Path;
import org.HdrHistogram.Histogram;

/**
 * Resident memory of a real gfxstatsd process with the default heap: idle (day files on disk,
 * nothing read yet), with the live buffers registered, after the first tenth of the dumps
 * (caches warm) and after all of them (growth beyond that would be a leak). The dumps alternate
 * text and proto over the Unix socket; their latency is recorded too, and compared with the
 * same daemon given a larger heap (the peer: what the default heap costs in dump time).
 */
final class DaemonMemory {
    record Result(String heap, int buffers, int files, int dumps, long idleKib, long withBuffersKib, long warmKib,
                  long afterDumpsKib, long liveHeapKib, double dumpP50Ms, double dumpP99Ms, int problems,
                  double idleCpuPercent, double buffersCpuPercent) {
        /** RSS growth from the warm point to the end, relative to the warm RSS. */
        double growth() {
            return (double) (afterDumpsKib - warmKib) / warmKib;
        }
    }

    private DaemonMemory() {
    }

    static Result measure(Path workDir, Path template, int files, int buffers, int dumps, int framesPerBuffer,
                          String heap, long idleMillis) throws Exception {
        Path state = workDir.resolve("memory-" + heap);
        DayFileSet.copyTree(template, state.resolve("data"));
        try (ExternalDaemon daemon = ExternalDaemon.start(state, heap, "flush.interval=1d",
                "buffers.max=" + Math.max(1024, buffers + 16), "buffers.max.per.pid=" + Math.max(1024, buffers + 16),
                "buffers.max.per.uid=" + Math.max(1024, buffers + 16))) {
            Thread.sleep(Math.min(2000, idleMillis)); // start-up settles
            long idle = daemon.rssKib();
            double idleCpu = daemon.cpuPercentOver(idleMillis);
            double buffersCpu;
            long withBuffers;
            long warm = 0;
            long after;
            Histogram latency = new Histogram(3_600_000_000_000L, 3);
            try (DriverBuffers live = new DriverBuffers(daemon.socket());
                 GfxStatsClient client = GfxStatsClient.unix(daemon.socket())) {
                live.growTo(buffers, framesPerBuffer);
                Thread.sleep(Math.min(1000, idleMillis));
                withBuffers = daemon.rssKib();
                buffersCpu = daemon.cpuPercentOver(idleMillis);
                DumpRequest text = DumpRequest.getDefaultInstance();
                DumpRequest proto = DumpRequest.newBuilder().setProto(true).build();
                int warmAt = Math.max(1, dumps / 10);
                for (int i = 1; i <= dumps; i++) {
                    if (i % 50 == 0) {
                        live.recordEach(2);
                    }
                    long t0 = System.nanoTime();
                    client.dump(i % 2 == 0 ? proto : text, new Timing.CountingSink());
                    latency.recordValue(System.nanoTime() - t0);
                    if (i == warmAt) {
                        warm = daemon.rssKib();
                    }
                }
                after = daemon.rssKib();
                long liveHeap = daemon.liveHeapKib();
                int exit = daemon.stop();
                if (!ExternalDaemon.cleanExit(exit)) {
                    throw new IllegalStateException("gfxstatsd did not shut down cleanly (exit " + exit + "):\n"
                            + daemon.logText());
                }
                return new Result(heap, buffers, files, dumps, idle, withBuffers, warm, after, liveHeap,
                        latency.getValueAtPercentile(50) / 1e6, latency.getValueAtPercentile(99) / 1e6,
                        daemon.problems().size(), idleCpu, buffersCpu);
            }
        } finally {
            DayFileSet.deleteTree(state);
        }
    }
}
