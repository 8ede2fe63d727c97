package io.gfxstats.daemon.rpc;

import io.gfxstats.rpc.v1.LiveSnapshot;
import io.gfxstats.rpc.v1.WatchRequest;
import io.grpc.Context;
import io.grpc.Status;
import io.grpc.stub.ServerCallStreamObserver;
import java.util.ArrayList;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The open {@code Watch} calls: each gets a snapshot at once and then every interval from one
 * scheduler thread, until the client cancels, its deadline passes or the daemon stops. A
 * snapshot is skipped while the client is not ready for more (they are cumulative, so a slow
 * client loses resolution, not counts). Bounded: {@value #MAX_WATCHES} at once.
 */
final class LiveWatches {
    private static final Logger LOG = LoggerFactory.getLogger(LiveWatches.class);

    static final int MIN_WATCH_INTERVAL_MS = 200;
    static final int MAX_WATCH_INTERVAL_MS = 3_600_000;
    static final int DEFAULT_WATCH_INTERVAL_MS = 1000;
    static final int MAX_WATCHES = 32;

    private final StatsBackend backend;
    private final Semaphore slots = new Semaphore(MAX_WATCHES);
    private final Set<Watch> open = ConcurrentHashMap.newKeySet();
    private final ScheduledThreadPoolExecutor scheduler;

    LiveWatches(StatsBackend backend, ThreadFactory threads) {
        this.backend = backend;
        this.scheduler = new ScheduledThreadPoolExecutor(1, threads);
        scheduler.setRemoveOnCancelPolicy(true);
    }

    void open(WatchRequest request, ServerCallStreamObserver<LiveSnapshot> call) {
        int interval = request.getIntervalMs() == 0 ? DEFAULT_WATCH_INTERVAL_MS : request.getIntervalMs();
        if (interval < MIN_WATCH_INTERVAL_MS || interval > MAX_WATCH_INTERVAL_MS) {
            call.onError(Status.INVALID_ARGUMENT.withDescription("watch interval must be "
                    + MIN_WATCH_INTERVAL_MS + ".." + MAX_WATCH_INTERVAL_MS + " ms: " + interval).asRuntimeException());
            return;
        }
        if (!slots.tryAcquire()) {
            call.onError(Status.RESOURCE_EXHAUSTED.withDescription("too many live watches (limit "
                    + MAX_WATCHES + "); retry shortly").asRuntimeException());
            return;
        }
        Watch watch = new Watch(call, request.getPackageName());
        call.setOnCancelHandler(watch::end);
        open.add(watch);
        try {
            watch.future = scheduler.scheduleAtFixedRate(Context.current().wrap(watch::tick), 0, interval,
                    TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            watch.stop();
        }
    }

    /** Ends every open watch with UNAVAILABLE and stops the scheduler. */
    void shutdown() {
        for (Watch w : new ArrayList<>(open)) {
            w.stop();
        }
        scheduler.shutdown();
    }

    void shutdownNow() {
        shutdown();
        scheduler.shutdownNow();
    }

    /** One open Watch call. */
    private final class Watch {
        private final ServerCallStreamObserver<LiveSnapshot> call;
        private final String packageName;
        private final AtomicBoolean ended = new AtomicBoolean();
        private volatile ScheduledFuture<?> future;

        Watch(ServerCallStreamObserver<LiveSnapshot> call, String packageName) {
            this.call = call;
            this.packageName = packageName;
        }

        void tick() {
            if (ended.get()) {
                cancel();
                return;
            }
            if (call.isCancelled()) {
                end();
                return;
            }
            if (!call.isReady()) {
                return;
            }
            try {
                LiveSnapshot s = backend.liveSnapshot(packageName);
                synchronized (this) {
                    if (!ended.get()) {
                        call.onNext(s);
                    }
                }
            } catch (StatsException e) {
                fail(e.toStatus());
            } catch (RuntimeException e) {
                LOG.error("watch failed for {}", GfxStatsService.describeCaller(), e);
                fail(GfxStatsService.internal("watch failed", e));
            }
        }

        /** Ends the watch once; true for the caller that ended it. */
        boolean end() {
            if (!ended.compareAndSet(false, true)) {
                return false;
            }
            cancel();
            open.remove(this);
            slots.release();
            return true;
        }

        /** The daemon stops: the client sees UNAVAILABLE. */
        void stop() {
            fail(GfxStatsService.shuttingDown());
        }

        private void fail(Status status) {
            if (end()) {
                synchronized (this) {
                    call.onError(status.asRuntimeException());
                }
            }
        }

        private void cancel() {
            ScheduledFuture<?> f = future;
            if (f != null) {
                f.cancel(false);
            }
        }
    }
}
