package io.gfxstats.daemon.rpc;

import io.gfxstats.daemon.log.RateLimitedLog;
import io.gfxstats.rpc.v1.DisplayFrameBatch;
import io.gfxstats.rpc.v1.DumpChunk;
import io.gfxstats.rpc.v1.DumpRequest;
import io.gfxstats.rpc.v1.FeedSummary;
import io.gfxstats.rpc.v1.GfxStatsGrpc;
import io.gfxstats.rpc.v1.HealthRequest;
import io.gfxstats.rpc.v1.HealthResponse;
import io.gfxstats.rpc.v1.LiveSnapshot;
import io.gfxstats.rpc.v1.PullRequest;
import io.gfxstats.rpc.v1.PullResponse;
import io.gfxstats.rpc.v1.RegisterEvent;
import io.gfxstats.rpc.v1.RegisterRequest;
import io.gfxstats.rpc.v1.ScenesRequest;
import io.gfxstats.rpc.v1.ScenesResponse;
import io.gfxstats.rpc.v1.WatchRequest;
import io.grpc.Status;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.io.IOException;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The GfxStats gRPC service: call plumbing around a {@link StatsBackend}, which turns backend
 * refusals into status codes. Register calls stay open for the life of the client
 * ({@link RegisterCalls}), dumps are streamed with flow control ({@link DumpCalls}), watches send
 * snapshots ({@link LiveWatches}); the unary calls and the shutdown of all of them are here.
 */
public final class GfxStatsService extends GfxStatsGrpc.GfxStatsImplBase {
    private static final Logger LOG = LoggerFactory.getLogger(GfxStatsService.class);
    /** Backend failures of every call: one stack trace per kind, then rate-limited lines. */
    static final FailureLog FAILURES = new FailureLog(LOG);

    /**
     * Dump streams open until their client has read them. Flow control keeps what each one
     * buffers to one chunk beyond gRPC's 32 KiB ready threshold, so these also cap the memory of
     * unread dumps: 48 x 96 KiB = 4.5 MiB (docs/operations.md, "Memory").
     */
    static final int MAX_DUMP_STREAMS = 48;
    static final int MAX_DUMP_STREAMS_PER_PEER = 8;
    static final int DUMP_STREAMS_OWNER_RESERVE = 16;

    private final StatsBackend backend;
    private final RegisterCalls registrations;
    private final DumpCalls dumps;
    private final LiveWatches watches;
    private final StreamShares feedShares = CompositorFeedCalls.shares();
    private final RateLimitedLog feedRefusals = new RateLimitedLog("refused requests");
    private final int ownerUid;
    private volatile boolean stopping;

    public GfxStatsService(StatsBackend backend, int dumpChunkBytes, int maxConcurrentDumps) {
        this(backend, dumpChunkBytes, maxConcurrentDumps, ServerConfig.DEFAULT_MAX_DUMPS_PER_PEER,
                ServerConfig.DEFAULT_DUMP_STALL_TIMEOUT);
    }

    /**
     * @param maxDumpsPerPeer  dumps one peer may run at once (a process on the Unix socket, an address on TCP)
     * @param dumpStallTimeout how long a dump may wait for its client to read before it is cancelled
     */
    public GfxStatsService(StatsBackend backend, int dumpChunkBytes, int maxConcurrentDumps, int maxDumpsPerPeer,
                           Duration dumpStallTimeout) {
        this.backend = Objects.requireNonNull(backend, "backend");
        if (dumpChunkBytes < 1 || maxConcurrentDumps < 1 || maxDumpsPerPeer < 1) {
            throw new IllegalArgumentException("chunk size and dump limits must be positive");
        }
        this.registrations = new RegisterCalls(backend, () -> stopping);
        this.ownerUid = ownUid();
        RateLimitedLog stalls = new RateLimitedLog("refused requests");
        this.dumps = new DumpCalls(backend, () -> stopping, dumpChunkBytes, maxConcurrentDumps, maxDumpsPerPeer,
                dumpStallTimeout.toNanos(), daemonThreads("gfxstats-dump-"),
                new StreamShares("open dump streams", MAX_DUMP_STREAMS, MAX_DUMP_STREAMS_PER_PEER,
                        DUMP_STREAMS_OWNER_RESERVE), ownerUid, stalls);
        this.watches = new LiveWatches(backend, daemonThreads("gfxstats-watch-"), ownerUid,
                dumpStallTimeout.toNanos(), stalls);
    }

    /** The daemon's uid, whose processes may use the reserves; -1 (only root) if it cannot be read. */
    private static int ownUid() {
        try {
            return OwnerOnly.currentUid();
        } catch (IOException e) {
            return -1;
        }
    }

    /** Registrations currently open. */
    public int liveRegistrations() {
        return registrations.live();
    }

    @Override
    public void register(RegisterRequest request, StreamObserver<RegisterEvent> observer) {
        registrations.register(request, observer);
    }

    @Override
    public void dump(DumpRequest request, StreamObserver<DumpChunk> observer) {
        dumps.dump(request, observer);
    }

    @Override
    public void pull(PullRequest request, StreamObserver<PullResponse> observer) {
        unary(observer, "pull", () -> backend.pull(request));
    }

    @Override
    public void health(HealthRequest request, StreamObserver<HealthResponse> observer) {
        unary(observer, "health", backend::health);
    }

    @Override
    public void scenes(ScenesRequest request, StreamObserver<ScenesResponse> observer) {
        unary(observer, "scenes", () -> backend.scenes(request));
    }

    /** A live stream of snapshots every interval (see {@link LiveWatches}). */
    @Override
    public void watch(WatchRequest request, StreamObserver<LiveSnapshot> observer) {
        if (stopping) {
            observer.onError(shuttingDown().asRuntimeException());
            return;
        }
        watches.open(request, (ServerCallStreamObserver<LiveSnapshot>) observer);
    }

    /** Compositor mode's feed of display frames (docs/frametimeline.md); see {@link CompositorFeedCalls}. */
    @Override
    public StreamObserver<DisplayFrameBatch> feedDisplayFrames(
            StreamObserver<FeedSummary> observer) {
        return new CompositorFeedCalls(backend, feedShares, ownerUid, feedRefusals).open(observer);
    }

    /**
     * Refuses new registrations and dumps and ends every open registration with
     * {@link EndReason#SERVER_STOPPING} (its client sees UNAVAILABLE and re-registers with the
     * next daemon). Dumps already running may finish. Idempotent.
     */
    public void shutdown() {
        stopping = true;
        registrations.stopAll();
        dumps.shutdown();
        watches.shutdown();
    }

    /** {@link #shutdown()}, then interrupts dumps still running. */
    public void shutdownNow() {
        shutdown();
        dumps.shutdownNow();
        watches.shutdownNow();
    }

    private interface Call<T> {
        T run() throws StatsException;
    }

    private <T> void unary(StreamObserver<T> observer, String what, Call<T> body) {
        T response;
        try {
            response = Objects.requireNonNull(body.run(), "backend returned no " + what + " response");
        } catch (StatsException e) {
            observer.onError(e.toStatus().asRuntimeException());
            return;
        } catch (RuntimeException e) {
            FAILURES.failed(what, what + " failed for " + describeCaller(), e);
            observer.onError(internal(what + " failed", e).asRuntimeException());
            return;
        } catch (OutOfMemoryError e) {
            observer.onError(outOfMemory(what).asRuntimeException());
            throw e;
        }
        observer.onNext(response);
        observer.onCompleted();
    }

    static Status shuttingDown() {
        return Status.UNAVAILABLE.withDescription("gfxstats daemon is shutting down");
    }

    static Status outOfMemory(String what) {
        return Status.RESOURCE_EXHAUSTED.withDescription("the gfxstats daemon ran out of memory during the " + what
                + " and restarts; see its log");
    }

    static Status internal(String what, Throwable e) {
        String detail = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        return Status.INTERNAL.withDescription(what + ": " + detail);
    }

    static String describeCaller() {
        Caller caller = Caller.current();
        return caller == null ? "unknown caller" : caller.describe();
    }

    private static ThreadFactory daemonThreads(String prefix) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, prefix + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }
}
