package io.gfxstats.bench;

import io.gfxstats.daemon.Daemon;
import io.gfxstats.daemon.config.DaemonConfig;
import io.gfxstats.daemon.config.Setting;
import io.gfxstats.daemon.dump.DayFileCache;
import io.gfxstats.proto.GraphicsStatsServiceDumpProto;
import io.gfxstats.rpc.GfxStatsClient;
import io.gfxstats.daemon.rpc.StatsBackend;
import io.gfxstats.rpc.v1.DumpRequest;
import java.io.ByteArrayOutputStream;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Dump cost against the number of live buffers and day files, with the day-file cache (the
 * daemon's normal path) and without it (the naive peer: every dump re-reads and re-parses every
 * file). Each configuration gets its own in-process {@link Daemon} on a fresh copy of the day
 * files, with a real Unix socket; live buffers are registered through it by
 * {@link DriverBuffers}. Server-side time is {@link StatsBackend#dump} into a counting sink: the
 * daemon's whole work (snapshot of every live buffer, stat or read of every file, merge, format)
 * without the transport. The cache trusts its last check of the disk for
 * {@link DayFileCache#RECHECK_INTERVAL} unless the daemon changed files; a few dumps per size
 * are therefore taken after that interval (the re-check: a stat of every file), and a few go
 * through the socket for comparison.
 */
final class DumpScale {
    enum Format {
        TEXT(DumpRequest.getDefaultInstance()), PROTO(DumpRequest.newBuilder().setProto(true).build());

        final DumpRequest request;

        Format(DumpRequest request) {
            this.request = request;
        }
    }

    /** One measured point. Times in ms are medians over the runs. */
    record Point(boolean cached, int live, int files, Format format, int entries, long bytes, double serverMs,
                 double cpuMs, double socketMs, double recheckMs, double recheckCpuMs) {
        double nsPerEntry() {
            return entries == 0 ? Double.NaN : serverMs * 1e6 / entries;
        }

        double cpuNsPerEntry() {
            return entries == 0 ? Double.NaN : cpuMs * 1e6 / entries;
        }
    }

    /** Called with the daemon still running after the largest size of a configuration. */
    interface AtLargest {
        void run(Daemon daemon, DriverBuffers live, Path dataDir) throws Exception;
    }

    static final int MAX_RUNS = 200;

    private final BenchOptions options;
    private final List<Point> points = new ArrayList<>();

    DumpScale(BenchOptions options) {
        this.options = options;
    }

    List<Point> points() {
        return points;
    }

    /**
     * Measures every live-buffer count on one set of day files with one cache mode.
     *
     * @param template   day files to copy (a fresh copy per daemon, so earlier runs leave nothing)
     * @param files      number of files in the template
     * @param atLargest  run after the largest live size, before the daemon stops (may be null)
     */
    void run(Path workDir, Path template, int files, boolean cached, AtLargest atLargest) throws Exception {
        Path state = workDir.resolve("dump-" + files + (cached ? "-cached" : "-naive"));
        DayFileSet.copyTree(template, state.resolve("data"));
        DaemonConfig config = DaemonConfig.builder().stateDir(state)
                .set(Setting.FLUSH_INTERVAL, Duration.ofDays(1))
                .set(Setting.MAX_BUFFERS, Math.max(1024, options.maxLive() + 16))
                .set(Setting.MAX_BUFFERS_PER_PID, Math.max(1024, options.maxLive() + 16))
                .set(Setting.MAX_BUFFERS_PER_UID, Math.max(1024, options.maxLive() + 16))
                .build();
        Daemon daemon = new Daemon(config, Clock.systemUTC(), cached);
        daemon.start();
        DriverBuffers live = new DriverBuffers(config.get(Setting.SOCKET_PATH));
        try {
            StatsBackend backend = daemon.backend();
            for (int size : options.liveSizes()) {
                live.growTo(size, options.framesPerBuffer());
                for (Format f : Format.values()) {
                    points.add(measure(backend, config.get(Setting.SOCKET_PATH), cached, size, files, f));
                    Progress.line(points.get(points.size() - 1));
                }
            }
            if (atLargest != null) {
                atLargest.run(daemon, live, config.get(Setting.DATA_DIR));
            }
        } finally {
            // Stop first: the shutdown flush saves every buffer in one pass, instead of one save
            // per ended registration.
            daemon.stop();
            live.close();
            DayFileSet.deleteTree(state);
        }
    }

    private Point measure(StatsBackend backend, Path socket, boolean cached, int live, int files, Format format)
            throws Exception {
        ByteArrayOutputStream first = new ByteArrayOutputStream();
        backend.dump(Format.PROTO.request, first);
        int entries = GraphicsStatsServiceDumpProto.parseFrom(first.toByteArray()).getStatsCount();
        long warm = 0;
        for (int i = 0; i < options.warmups(); i++) {
            long t0 = System.nanoTime();
            backend.dump(format.request, new Timing.CountingSink());
            warm = System.nanoTime() - t0;
        }
        // A small point is repeated until it has taken about minMeasuredMillis of dumping: a median
        // of 9 dumps of 3 ms swung by 2x between runs on this shared machine.
        int runs = options.runs();
        if (warm > 0) {
            runs = (int) Math.max(runs, Math.min(MAX_RUNS, options.minMeasuredMillis() * 1_000_000L / warm));
        }
        double[] server = new double[runs];
        double[] cpu = new double[runs];
        long bytes = 0;
        for (int i = 0; i < server.length; i++) {
            Timing.CountingSink sink = new Timing.CountingSink();
            long c0 = Timing.threadCpuNanos();
            long t0 = System.nanoTime();
            backend.dump(format.request, sink);
            server[i] = Timing.millis(System.nanoTime() - t0);
            cpu[i] = Timing.millis(Timing.threadCpuNanos() - c0);
            bytes = sink.bytes;
        }
        // The first dump after the cache's re-check interval stats every file (and reads changed ones).
        // (Only with the cache on, for text; runs / 3 of them, none when runs < 3.)
        double[] recheck = new double[cached && format == Format.TEXT ? options.runs() / 3 : 0];
        double[] recheckCpu = new double[recheck.length];
        for (int i = 0; i < recheck.length; i++) {
            Thread.sleep(DayFileCache.RECHECK_INTERVAL.toMillis() + 20);
            long c0 = Timing.threadCpuNanos();
            long t0 = System.nanoTime();
            backend.dump(format.request, new Timing.CountingSink());
            recheck[i] = Timing.millis(System.nanoTime() - t0);
            recheckCpu[i] = Timing.millis(Timing.threadCpuNanos() - c0);
        }
        double[] viaSocket = new double[Math.max(1, options.runs() / 3)];
        try (GfxStatsClient client = GfxStatsClient.unix(socket)) {
            client.dump(format.request, new Timing.CountingSink());
            for (int i = 0; i < viaSocket.length; i++) {
                long t0 = System.nanoTime();
                client.dump(format.request, new Timing.CountingSink());
                viaSocket[i] = Timing.millis(System.nanoTime() - t0);
            }
        }
        return new Point(cached, live, files, format, entries, bytes, Timing.median(server), Timing.median(cpu),
                Timing.median(viaSocket), recheck.length == 0 ? Double.NaN : Timing.median(recheck),
                recheck.length == 0 ? Double.NaN : Timing.median(recheckCpu));
    }
}
