package io.gfxstats.rpc;

import io.gfxstats.rpc.v1.DumpChunk;
import io.gfxstats.rpc.v1.DumpFormat;
import io.gfxstats.rpc.v1.DumpRequest;
import io.gfxstats.rpc.v1.GfxStatsGrpc;
import io.gfxstats.rpc.v1.HealthRequest;
import io.gfxstats.rpc.v1.HealthResponse;
import io.gfxstats.rpc.v1.LiveSnapshot;
import io.gfxstats.rpc.v1.ScenesRequest;
import io.gfxstats.rpc.v1.ScenesResponse;
import io.gfxstats.rpc.v1.WatchRequest;
import io.gfxstats.rpc.v1.PullRequest;
import io.gfxstats.rpc.v1.PullResponse;
import io.gfxstats.rpc.v1.RegisterEvent;
import io.gfxstats.rpc.v1.RegisterRequest;
import io.grpc.Context;
import io.grpc.Status;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The GfxStats gRPC service: call plumbing around a {@link StatsBackend}. Keeps registration
 * calls open for the life of the client and tells the backend exactly once when each ends,
 * streams dumps with flow control, and turns backend refusals into status codes.
 */
public final class GfxStatsService extends GfxStatsGrpc.GfxStatsImplBase {
    private static final Logger LOG = LoggerFactory.getLogger(GfxStatsService.class);

    private final StatsBackend backend;
    private final int dumpChunkBytes;
    private final DumpSlots dumpSlots;
    private final long stallTimeoutNanos;
    private final ExecutorService dumpExecutor;
    private final Set<LiveRegistration> live = ConcurrentHashMap.newKeySet();
    private final LiveWatches watches;
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
        this.dumpChunkBytes = dumpChunkBytes;
        this.dumpSlots = new DumpSlots(maxConcurrentDumps, Math.min(maxDumpsPerPeer, maxConcurrentDumps));
        this.stallTimeoutNanos = dumpStallTimeout.toNanos();
        // Dumps run off the call executor: the dump thread blocks until the client is ready, and
        // the ready signal is delivered on the call executor.
        this.dumpExecutor = Executors.newFixedThreadPool(maxConcurrentDumps, daemonThreads("gfxstats-dump-"));
        this.watches = new LiveWatches(backend, daemonThreads("gfxstats-watch-"));
    }

    /** Registrations currently open. */
    public int liveRegistrations() {
        return live.size();
    }

    @Override
    public void register(RegisterRequest request, StreamObserver<RegisterEvent> observer) {
        ServerCallStreamObserver<RegisterEvent> call = (ServerCallStreamObserver<RegisterEvent>) observer;
        Caller caller = Caller.current();
        if (caller == null || caller.transport() != Transport.UNIX) {
            observer.onError(Status.PERMISSION_DENIED.withDescription("registration is Unix-socket only")
                    .asRuntimeException());
            return;
        }
        if (caller.peer() == null) {
            observer.onError(Status.PERMISSION_DENIED
                    .withDescription("cannot identify the registering process: no peer credentials on this connection")
                    .asRuntimeException());
            return;
        }
        if (stopping) {
            observer.onError(shuttingDown().asRuntimeException());
            return;
        }
        LiveRegistration reg = new LiveRegistration(call, caller.peer());
        // Set before the backend runs so that a client vanishing meanwhile is not missed.
        call.setOnCancelHandler(() -> reg.end(EndReason.CLIENT_GONE));
        Registration accepted;
        try {
            accepted = Objects.requireNonNull(backend.register(caller.peer(), request),
                    "backend returned no registration");
        } catch (StatsException e) {
            LOG.debug("register refused for {}: {}", caller.peer(), e.getMessage());
            observer.onError(e.toStatus().asRuntimeException());
            return;
        } catch (RuntimeException e) {
            LOG.error("register failed for {}", caller.peer(), e);
            observer.onError(internal("registration failed", e).asRuntimeException());
            return;
        }
        reg.accept(accepted);
    }

    @Override
    public void dump(DumpRequest request, StreamObserver<DumpChunk> observer) {
        if (request.getFormat() == DumpFormat.UNRECOGNIZED) {
            observer.onError(Status.INVALID_ARGUMENT
                    .withDescription("unknown dump format " + request.getFormatValue()).asRuntimeException());
            return;
        }
        if (stopping) {
            observer.onError(shuttingDown().asRuntimeException());
            return;
        }
        String peer = peerOf(Caller.current());
        String full = dumpSlots.tryAcquire(peer);
        if (full != null) {
            observer.onError(Status.RESOURCE_EXHAUSTED.withDescription(full).asRuntimeException());
            return;
        }
        ServerCallStreamObserver<DumpChunk> call = (ServerCallStreamObserver<DumpChunk>) observer;
        DumpChunkStream sink = new DumpChunkStream(call, dumpChunkBytes, stallTimeoutNanos);
        call.setOnReadyHandler(sink::onReady);
        call.setOnCancelHandler(sink::onCancel);
        try {
            dumpExecutor.execute(Context.current().wrap(() -> runDump(request, call, sink, peer)));
        } catch (RejectedExecutionException e) {
            dumpSlots.release(peer);
            observer.onError(shuttingDown().asRuntimeException());
        }
    }

    private void runDump(DumpRequest request, ServerCallStreamObserver<DumpChunk> call, DumpChunkStream sink,
                         String peer) {
        try {
            backend.dump(request, sink);
            sink.finish();
            call.onCompleted();
        } catch (DumpChunkStream.StalledException e) {
            LOG.warn("dump for {} cancelled: {}", describeCaller(), e.getMessage());
            call.onError(Status.DEADLINE_EXCEEDED.withDescription(e.getMessage()).asRuntimeException());
        } catch (StatsException e) {
            if (!sink.cancelled()) {
                call.onError(e.toStatus().asRuntimeException());
            }
        } catch (IOException e) {
            if (sink.cancelled()) {
                LOG.debug("dump abandoned by {} after {} bytes", describeCaller(), sink.bytesSent());
            } else {
                LOG.error("dump failed for {}", describeCaller(), e);
                call.onError(internal("dump failed", e).asRuntimeException());
            }
        } catch (RuntimeException e) {
            LOG.error("dump failed for {}", describeCaller(), e);
            if (!sink.cancelled()) {
                call.onError(internal("dump failed", e).asRuntimeException());
            }
        } catch (OutOfMemoryError e) {
            // Tell the caller what happened before the JVM (-XX:+ExitOnOutOfMemoryError) goes down.
            if (!sink.cancelled()) {
                call.onError(outOfMemory("dump").asRuntimeException());
            }
            throw e;
        } finally {
            dumpSlots.release(peer);
        }
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
    public StreamObserver<io.gfxstats.rpc.v1.DisplayFrameBatch> feedDisplayFrames(
            StreamObserver<io.gfxstats.rpc.v1.FeedSummary> observer) {
        return new CompositorFeedCalls(backend).open(observer);
    }

    /**
     * Refuses new registrations and dumps and ends every open registration with
     * {@link EndReason#SERVER_STOPPING} (its client sees UNAVAILABLE and re-registers with the
     * next daemon). Dumps already running may finish. Idempotent.
     */
    public void shutdown() {
        stopping = true;
        for (LiveRegistration reg : new ArrayList<>(live)) {
            reg.stop();
        }
        dumpExecutor.shutdown();
        watches.shutdown();
    }

    /** {@link #shutdown()}, then interrupts dumps still running. */
    public void shutdownNow() {
        shutdown();
        dumpExecutor.shutdownNow();
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
            LOG.error("{} failed for {}", what, describeCaller(), e);
            observer.onError(internal(what + " failed", e).asRuntimeException());
            return;
        } catch (OutOfMemoryError e) {
            observer.onError(outOfMemory(what).asRuntimeException());
            throw e;
        }
        observer.onNext(response);
        observer.onCompleted();
    }

    /** Whom a dump slot is counted against: the process on the Unix socket, the address on TCP. */
    private static String peerOf(Caller caller) {
        if (caller == null) {
            return "an unknown peer";
        }
        if (caller.transport() == Transport.UNIX) {
            return caller.peer() == null ? "unix (no credentials)" : "pid " + caller.peer().pid();
        }
        return caller.remoteAddress() instanceof java.net.InetSocketAddress a && a.getAddress() != null
                ? a.getAddress().getHostAddress() : String.valueOf(caller.remoteAddress());
    }

    static Status shuttingDown() {
        return Status.UNAVAILABLE.withDescription("gfxstats daemon is shutting down");
    }

    private static Status outOfMemory(String what) {
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

    /** One open Register call. All transitions happen under its monitor. */
    private final class LiveRegistration {
        private final ServerCallStreamObserver<RegisterEvent> call;
        private final PeerIdentity peer;
        private Registration registration;
        private EndReason pendingEnd;
        private boolean ended;

        LiveRegistration(ServerCallStreamObserver<RegisterEvent> call, PeerIdentity peer) {
            this.call = call;
            this.peer = peer;
        }

        /** The backend accepted: send the assignment unless the call is already over. */
        synchronized void accept(Registration accepted) {
            registration = accepted;
            if (pendingEnd != null) {
                finish(pendingEnd);
                return;
            }
            if (call.isCancelled()) {
                finish(EndReason.CLIENT_GONE);
                return;
            }
            live.add(this);
            if (stopping) {
                stop();
                return;
            }
            call.onNext(RegisterEvent.newBuilder().setAssigned(accepted.assigned()).build());
            LOG.debug("registration open for {}", peer);
        }

        synchronized void end(EndReason reason) {
            if (registration == null) {
                // The backend is still deciding; accept() will end it.
                if (pendingEnd == null) {
                    pendingEnd = reason;
                }
                return;
            }
            finish(reason);
        }

        synchronized void stop() {
            if (ended || registration == null) {
                return;
            }
            finish(EndReason.SERVER_STOPPING);
            call.onError(shuttingDown().asRuntimeException());
        }

        private void finish(EndReason reason) {
            if (ended) {
                return;
            }
            ended = true;
            live.remove(this);
            try {
                registration.end(reason);
            } catch (RuntimeException e) {
                LOG.error("ending the registration of {} failed", peer, e);
            }
        }
    }
}
