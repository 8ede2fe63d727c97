package io.gfxstats.daemon;

import com.sun.security.auth.module.UnixSystem;
import io.gfxstats.daemon.config.DaemonConfig;
import io.gfxstats.daemon.config.Setting;
import io.gfxstats.daemon.harvest.Harvester;
import io.gfxstats.daemon.metrics.FrameMetrics;
import io.gfxstats.daemon.metrics.HealthMetrics;
import io.gfxstats.daemon.metrics.MetricsServer;
import io.gfxstats.daemon.rpc.ConnectionLimits;
import io.gfxstats.daemon.rpc.FailureLog;
import io.gfxstats.daemon.rpc.GfxStatsServer;
import io.gfxstats.daemon.rpc.OwnerOnly;
import io.gfxstats.daemon.rpc.ServerConfig;
import io.gfxstats.daemon.rpc.ServerStartException;
import io.gfxstats.daemon.rpc.StatsBackend;
import io.gfxstats.daemon.rpc.TcpConfig;
import io.gfxstats.store.DayStore;
import io.gfxstats.store.DirectoryLock;
import io.gfxstats.timeline.feed.DisplayFramePublisher;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The gfxstats daemon: day store, live-buffer registry, the periodic duties and the gRPC server.
 * {@link #start()}, {@link #stop()} (saves everything, idempotent) and {@link #blockUntilShutdown()}.
 */
public final class Daemon {
    private static final Logger log = LoggerFactory.getLogger(Daemon.class);
    /** A tick failing the same way each second must not log a stack trace each second. */
    private final FailureLog tickFailures = new FailureLog(log);
    static final long TICK_MILLIS = 100;

    private final DaemonConfig config;
    private final Clock clock;
    private final boolean cacheDayFiles;
    private DaemonState state;
    private Lifecycle lifecycle;
    private GfxStatsServer server;
    private DaemonBackend backend;
    private ScheduledExecutorService duties;
    private DirectoryLock bufferLock;
    private OomGuard oomGuard;
    private MetricsServer metrics;
    private DisplayFramePublisher displayFrames;
    private boolean stopped;

    public Daemon(DaemonConfig config, Clock clock) {
        this(config, clock, true);
    }

    /** @param cacheDayFiles false re-reads every day file on every dump (benchmark baseline) */
    public Daemon(DaemonConfig config, Clock clock, boolean cacheDayFiles) {
        this.config = config;
        this.clock = clock;
        this.cacheDayFiles = cacheDayFiles;
    }

    public synchronized void start() throws IOException, ServerStartException {
        int daemonUid = (int) new UnixSystem().getUid();
        Readers readers = Readers.of(daemonUid, config.get(Setting.READERS_GROUP));
        Files.createDirectories(config.get(Setting.STATE_DIR), PosixFilePermissions.asFileAttribute(
                PosixFilePermissions.fromString("rwx------")));
        Files.createDirectories(config.get(Setting.BUFFER_DIR), PosixFilePermissions.asFileAttribute(
                PosixFilePermissions.fromString("rwx------")));
        Files.createDirectories(config.get(Setting.DATA_DIR), PosixFilePermissions.asFileAttribute(
                PosixFilePermissions.fromString("rwx------")));
        // Before anything in them is adopted: a directory another user can write is a source of forgeries.
        OwnerOnly.checkDirectory(config.get(Setting.BUFFER_DIR), "buffer directory (" + Setting.BUFFER_DIR.key() + ")");
        OwnerOnly.checkDirectory(config.get(Setting.DATA_DIR), "data directory (" + Setting.DATA_DIR.key() + ")");
        bufferLock = DirectoryLock.acquire(config.get(Setting.BUFFER_DIR), "buffer directory");
        DayStore store;
        try {
            store = DayStore.open(config.get(Setting.DATA_DIR), clock, config.get(Setting.DATA_FILE_MAX_SIZE));
        } catch (IOException | RuntimeException e) {
            releaseBufferLock();
            throw e;
        }
        try {
            // Before the first read of a day file (recovery, retention, the metrics' seed).
            oomGuard = OomGuard.open(config.get(Setting.STATE_DIR), store);
            store.watchReads(oomGuard);
            state = new DaemonState(config, clock, store, cacheDayFiles);
            lifecycle = new Lifecycle(state);
            new Recovery(state, lifecycle).run();
            lifecycle.applyRetention();
            Registrar registrar = new Registrar(state, daemonUid, lifecycle::clientGone);
            backend = new DaemonBackend(state, registrar, state.dayFiles, readers);
            backend.displayFrames(displayFrames = CompositorRing.open(config.get(Setting.BUFFER_DIR)),
                    Readers.of(daemonUid, Setting.COMPOSITOR_GROUP.key(), config.get(Setting.COMPOSITOR_GROUP)));
            server = new GfxStatsServer(serverConfig(), backend);
            server.start();
            if (config.get(Setting.METRICS_ENABLED)) {
                try {
                    metrics = startMetrics(store);
                } catch (ServerStartException | RuntimeException e) {
                    server.stop();
                    throw e;
                }
            }
        } catch (IOException | ServerStartException | RuntimeException e) {
            if (state != null) {
                state.registry.closeAll();
            }
            store.close();
            closeOomGuard();
            releaseBufferLock();
            throw e;
        }
        duties = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "gfxstatsd-duties");
            t.setDaemon(true);
            return t;
        });
        duties.scheduleWithFixedDelay(this::tick, TICK_MILLIS, TICK_MILLIS, TimeUnit.MILLISECONDS);
        log.info("gfxstatsd started: socket {}, data {}, buffers {}, {} live buffers recovered",
                config.get(Setting.SOCKET_PATH), config.get(Setting.DATA_DIR), config.get(Setting.BUFFER_DIR),
                state.registry.size());
    }

    /**
     * The Prometheus exposition: frame counters seeded from the retained day files once (after
     * recovery, so nothing is counted twice) and kept by every save from then on.
     */
    private MetricsServer startMetrics(DayStore store) throws ServerStartException {
        FrameTotals totals = new FrameTotals(state);
        PrometheusRegistry registry = new PrometheusRegistry();
        state.lock.writeLock().lock();
        try {
            totals.seed();
            registry.register(new FrameMetrics(totals, totals::scenes));
            // The daemon's own process: memory, CPU, threads, GC, open files (process_*, jvm_*).
            io.prometheus.metrics.instrumentation.jvm.JvmMetrics.builder().register(registry);
            state.events = new HealthMetrics(registry, clock, totals::liveBuffers, store::quarantineCount);
            MetricsServer m = MetricsServer.start(registry, config.get(Setting.METRICS_HOST),
                    config.get(Setting.METRICS_PORT), config.get(Setting.TLS_CERT), config.get(Setting.TLS_KEY),
                    config.get(Setting.TOKEN_FILE));
            log.info("metrics: {}://{}:{}/metrics", m.tls() ? "https" : "http", config.get(Setting.METRICS_HOST),
                    m.port());
            return m;
        } catch (IOException e) {
            throw new ServerStartException("cannot serve metrics on " + config.get(Setting.METRICS_HOST) + ":"
                    + config.get(Setting.METRICS_PORT) + ": " + e.getMessage(), e);
        } finally {
            state.lock.writeLock().unlock();
        }
    }

    private void tick() {
        try {
            lifecycle.tick();
        } catch (RuntimeException | Error e) {
            tickFailures.failed("tick", "periodic duties failed; will retry", e);
        }
    }

    private void closeOomGuard() {
        if (oomGuard != null) {
            try {
                oomGuard.close();
            } catch (IOException e) {
                log.warn("closing the out-of-memory guard: {}", e.getMessage());
            }
            oomGuard = null;
        }
    }

    private void releaseBufferLock() {
        if (bufferLock != null) {
            try {
                bufferLock.close();
            } catch (IOException e) {
                log.warn("releasing the buffer directory lock: {}", e.getMessage());
            }
            bufferLock = null;
        }
    }

    private ServerConfig serverConfig() {
        TcpConfig tcp = TcpConfig.disabled();
        if (config.get(Setting.TCP_ENABLED)) {
            tcp = new TcpConfig(true, config.get(Setting.TCP_HOST), config.get(Setting.TCP_PORT),
                    config.get(Setting.TLS_CERT), config.get(Setting.TLS_KEY), config.get(Setting.TOKEN_FILE));
        }
        return ServerConfig.unixOnly(config.get(Setting.SOCKET_PATH)).withTcp(tcp)
                .withDumpLimits(config.get(Setting.MAX_DUMPS), config.get(Setting.MAX_DUMPS_PER_PEER),
                        config.get(Setting.DUMP_STALL_TIMEOUT))
                .withConnectionLimits(new ConnectionLimits(config.get(Setting.MAX_CONNECTIONS),
                        config.get(Setting.MAX_CONNECTIONS_PER_PEER), config.get(Setting.OWNER_RESERVE),
                        config.get(Setting.TCP_IDLE_TIMEOUT)));
    }

    /** Stops serving, saves every live buffer's unsaved frames, releases everything. Idempotent. */
    public synchronized void stop() {
        if (stopped || state == null) {
            return;
        }
        stopped = true;
        if (metrics != null) {
            metrics.close();
        }
        server.stop();
        duties.shutdown();
        try {
            if (!duties.awaitTermination(10, TimeUnit.SECONDS)) {
                log.warn("periodic duties did not stop within 10 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        state.lock.writeLock().lock();
        try {
            lifecycle.flush(state.now(), "shutdown");
            state.registry.closeAll();
        } finally {
            state.lock.writeLock().unlock();
        }
        try {
            state.store.close();
        } catch (IOException e) {
            log.warn("closing the day store: {}", e.getMessage());
        }
        if (displayFrames != null) {
            displayFrames.close();
        }
        closeOomGuard();
        releaseBufferLock();
        log.info("gfxstatsd stopped");
    }

    /**
     * Saves the unsaved frames of every live buffer now, exactly as the periodic flush does
     * (same lock, same atomic writes). For benchmarks and tools that need a save on demand.
     *
     * @throws IllegalStateException before {@link #start()} or after {@link #stop()}
     */
    public Harvester.Result flush() {
        synchronized (this) {
            if (state == null || stopped) {
                throw new IllegalStateException("the daemon is not running");
            }
        }
        state.lock.writeLock().lock();
        try {
            return lifecycle.flush(state.now(), "requested");
        } finally {
            state.lock.writeLock().unlock();
        }
    }

    /**
     * The backend behind the gRPC service, for in-process callers that time the daemon's own
     * work (dump assembly and writing) without the transport, as the benchmarks do.
     *
     * @throws IllegalStateException before {@link #start()}
     */
    public synchronized StatsBackend backend() {
        if (backend == null) {
            throw new IllegalStateException("the daemon is not started");
        }
        return backend;
    }

    public void blockUntilShutdown() throws InterruptedException {
        server.blockUntilShutdown();
    }

    /** The metrics port actually bound, or -1 when the exposition is off. */
    public int metricsPort() {
        return metrics == null ? -1 : metrics.port();
    }

    /** The TCP port actually bound (tests bind port 0). */
    public int tcpPort() {
        return server.tcpPort();
    }
}
