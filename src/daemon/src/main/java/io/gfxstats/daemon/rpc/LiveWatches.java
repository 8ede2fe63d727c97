package io.gfxstats.daemon.rpc;

import io.gfxstats.daemon.log.RateLimitedLog;
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
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The open {@code Watch} calls: each gets a snapshot at once and then every interval from one
 * scheduler thread, until the client cancels, its deadline passes or the daemon stops. A
 * snapshot is skipped while the client is not ready for more (they are cumulative, so a slow
 * client loses resolution, not counts); one that has taken nothing for the stall timeout is
 * ended. Bounded: {@value #MAX_WATCHES} at once, {@value #MAX_WATCHES_PER_PEER} per peer, the last
 * {@value #OWNER_RESERVE} kept for the daemon's own user ({@link StreamShares}).
 */
final class LiveWatches {

    static final int MIN_WATCH_INTERVAL_MS = 200;
    static final int MAX_WATCH_INTERVAL_MS = 3_600_000;
    static final int DEFAULT_WATCH_INTERVAL_MS = 1000;
    static final int MAX_WATCHES = 40;
    static final int MAX_WATCHES_PER_PEER = 4;
    static final int OWNER_RESERVE = 8;

    private final StatsBackend backend;
    private final StreamShares shares = new StreamShares("live watches", MAX_WATCHES, MAX_WATCHES_PER_PEER,
            OWNER_RESERVE);
    private final int ownerUid;
    private final long stallTimeoutNanos;
    private final RateLimitedLog stalls;
    private final Set<Watch> open = ConcurrentHashMap.newKeySet();
    private final ScheduledThreadPoolExecutor scheduler;

    LiveWatches(StatsBackend backend, ThreadFactory threads, int ownerUid, long stallTimeoutNanos, RateLimitedLog stalls) {
        this.backend = backend;
        this.ownerUid = ownerUid;
        this.stallTimeoutNanos = stallTimeoutNanos;
        this.stalls = stalls;
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
        StreamShares.Share share;
        try {
            share = shares.acquire(PeerKey.of(Caller.current(), ownerUid));
        } catch (StreamShares.Refused e) {
            call.onError(Status.RESOURCE_EXHAUSTED.withDescription(e.getMessage()).asRuntimeException());
            return;
        }
        Watch watch = new Watch(call, request.getPackageName());
        share.releaseWhenDone(call, watch::end);
        open.add(watch);
        try {
            // Fixed delay, not rate: a tick the machine held up is not followed by a catch-up burst,
            // so two snapshots are never closer than the interval the client asked for.
            watch.future = scheduler.scheduleWithFixedDelay(Context.current().wrap(watch::tick), 0, interval,
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
        private long unreadySince = -1;

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
                long now = System.nanoTime();
                if (unreadySince < 0) {
                    unreadySince = now;
                } else if (now - unreadySince > stallTimeoutNanos) {
                    String why = "watch stalled: the client read nothing for " + stallTimeoutNanos / 1_000_000
                            + " ms (setting dump.stall.timeout)";
                    stalls.warn("watch for " + GfxStatsService.describeCaller() + " ended: " + why);
                    fail(Status.DEADLINE_EXCEEDED.withDescription(why));
                }
                return;
            }
            unreadySince = -1;
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
                if (call.isCancelled() || ended.get()) {
                    end(); // the client left while the snapshot was made: nothing to report
                    return;
                }
                GfxStatsService.FAILURES.failed("watch", "watch failed for " + GfxStatsService.describeCaller(), e);
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
