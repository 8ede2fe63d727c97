package io.gfxstats.daemon.rpc;

import io.gfxstats.daemon.log.RateLimitedLog;
import io.gfxstats.rpc.v1.DumpChunk;
import io.gfxstats.rpc.v1.DumpFormat;
import io.gfxstats.rpc.v1.DumpRequest;
import io.grpc.Context;
import io.grpc.Status;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.io.IOException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Dump calls of {@link GfxStatsService}: streamed with flow control in chunks, limited in
 * number overall and per peer while they run ({@link DumpSlots}) and until their client has read
 * them ({@link StreamShares}), cancelled when the client stops reading.
 */
final class DumpCalls {
    /** The service's logger: log settings that name the service keep covering its calls. */
    private static final Logger LOG = LoggerFactory.getLogger(GfxStatsService.class);

    /** A dump that has waited this long for its client may lose its slot to a new caller. */
    static final long PREEMPT_AFTER_MILLIS = 1000;
    /** How long a caller waits for the slot of a dump it preempted. */
    private static final long SLOT_WAIT_MILLIS = 500;
    /**
     * How long the owner's dump waits for a slot while all are taken: within the second the
     * owner must be served in, with time left for the dump itself.
     */
    private static final long OWNER_SLOT_WAIT_MILLIS = 800;
    /**
     * While the owner waits, a dump whose client has read nothing for this long gives its slot
     * up: the owner's own processes all count as the owner, so its reserve cannot keep them from
     * filling every slot with stalled dumps, and waiting for {@link #PREEMPT_AFTER_MILLIS} would
     * leave too little of the second.
     */
    private static final long OWNER_PREEMPT_AFTER_MILLIS = 200;

    private final Set<DumpChunkStream> running = ConcurrentHashMap.newKeySet();
    private final StatsBackend backend;
    private final BooleanSupplier stopping;
    private final int dumpChunkBytes;
    private final DumpSlots dumpSlots;
    private final StreamShares streams;
    private final int ownerUid;
    private final RateLimitedLog stalls;
    private final long stallTimeoutNanos;
    private final ExecutorService dumpExecutor;

    DumpCalls(StatsBackend backend, BooleanSupplier stopping, int dumpChunkBytes, int maxConcurrentDumps,
              int maxDumpsPerPeer, long stallTimeoutNanos, ThreadFactory threads, StreamShares streams,
              int ownerUid, RateLimitedLog stalls) {
        this.backend = backend;
        this.stopping = stopping;
        this.dumpChunkBytes = dumpChunkBytes;
        this.dumpSlots = new DumpSlots(maxConcurrentDumps, Math.min(maxDumpsPerPeer, maxConcurrentDumps));
        this.stallTimeoutNanos = stallTimeoutNanos;
        this.streams = streams;
        this.ownerUid = ownerUid;
        this.stalls = stalls;
        // Dumps run off the call executor: the dump thread blocks until the client is ready, and
        // the ready signal is delivered on the call executor.
        this.dumpExecutor = Executors.newFixedThreadPool(maxConcurrentDumps, threads);
    }

    void dump(DumpRequest request, StreamObserver<DumpChunk> observer) {
        if (request.getFormat() == DumpFormat.UNRECOGNIZED) {
            observer.onError(Status.INVALID_ARGUMENT
                    .withDescription("unknown dump format " + request.getFormatValue()).asRuntimeException());
            return;
        }
        if (stopping.getAsBoolean()) {
            observer.onError(GfxStatsService.shuttingDown().asRuntimeException());
            return;
        }
        PeerKey peer = PeerKey.of(Caller.current(), ownerUid);
        StreamShares.Share share;
        try {
            share = streams.acquire(peer);
        } catch (StreamShares.Refused e) {
            observer.onError(Status.RESOURCE_EXHAUSTED.withDescription(e.getMessage()).asRuntimeException());
            return;
        }
        String full;
        if (peer.owner()) {
            // Queued rather than refused (issue 26): the owner's other processes may hold every
            // slot with dumps nobody reads; the slot that preemption frees goes to this call.
            full = dumpSlots.acquireBefore(peer, System.nanoTime() + OWNER_SLOT_WAIT_MILLIS * 1_000_000L,
                    () -> preemptAStalledDump(OWNER_PREEMPT_AFTER_MILLIS), 50);
        } else {
            full = dumpSlots.tryAcquire(peer);
            if (full != null && preemptAStalledDump(PREEMPT_AFTER_MILLIS)) {
                full = awaitSlot(peer);
            }
        }
        if (full != null) {
            share.release();
            observer.onError(Status.RESOURCE_EXHAUSTED.withDescription(full).asRuntimeException());
            return;
        }
        ServerCallStreamObserver<DumpChunk> call = (ServerCallStreamObserver<DumpChunk>) observer;
        DumpChunkStream sink = new DumpChunkStream(call, dumpChunkBytes, stallTimeoutNanos);
        running.add(sink);
        call.setOnReadyHandler(sink::onReady);
        share.releaseWhenDone(call, sink::onCancel);
        try {
            dumpExecutor.execute(Context.current().wrap(() -> runDump(request, call, sink, peer)));
        } catch (RejectedExecutionException e) {
            running.remove(sink);
            dumpSlots.release(peer);
            sink.discard();
            observer.onError(GfxStatsService.shuttingDown().asRuntimeException());
        }
    }

    private void runDump(DumpRequest request, ServerCallStreamObserver<DumpChunk> call, DumpChunkStream sink,
                         PeerKey peer) {
        try {
            backend.dump(request, sink);
            sink.finish();
            call.onCompleted();
        } catch (DumpChunkStream.StalledException e) {
            stalls.warn("dump for " + GfxStatsService.describeCaller() + " cancelled: " + e.getMessage());
            call.onError(Status.DEADLINE_EXCEEDED.withDescription(e.getMessage()).asRuntimeException());
        } catch (StatsException e) {
            if (!sink.cancelled()) {
                call.onError(e.toStatus().asRuntimeException());
            }
        } catch (IOException e) {
            if (sink.cancelled()) {
                LOG.debug("dump abandoned by {} after {} bytes", GfxStatsService.describeCaller(), sink.bytesSent());
            } else {
                GfxStatsService.FAILURES.failed("dump", "dump failed for " + GfxStatsService.describeCaller(), e);
                call.onError(GfxStatsService.internal("dump failed", e).asRuntimeException());
            }
        } catch (RuntimeException e) {
            GfxStatsService.FAILURES.failed("dump", "dump failed for " + GfxStatsService.describeCaller(), e);
            if (!sink.cancelled()) {
                call.onError(GfxStatsService.internal("dump failed", e).asRuntimeException());
            }
        } catch (OutOfMemoryError e) {
            // Tell the caller what happened before the JVM (-XX:+ExitOnOutOfMemoryError) goes down.
            if (!sink.cancelled()) {
                call.onError(GfxStatsService.outOfMemory("dump").asRuntimeException());
            }
            throw e;
        } finally {
            running.remove(sink);
            sink.discard();
            dumpSlots.release(peer);
        }
    }

    /**
     * Gives up the running dump that has waited longest for its client to read, if one has
     * waited {@code afterMillis} ms: a dump nobody reads is worth less than one that
     * would be read now, and otherwise processes that reopen stalled dumps could keep every
     * slot (issue 26: 83 % of the owner's dumps refused) - including processes of the owner's own
     * uid, which the owner's reserve cannot tell apart.
     */
    private boolean preemptAStalledDump(long afterMillis) {
        long now = System.nanoTime();
        DumpChunkStream longest = null;
        long longestNanos = afterMillis * 1_000_000L - 1;
        for (DumpChunkStream s : running) {
            long waiting = s.waitingNanos(now);
            if (waiting > longestNanos) {
                longest = s;
                longestNanos = waiting;
            }
        }
        if (longest == null) {
            return false;
        }
        longest.preempt();
        return true;
    }

    /** A slot for {@code peer} once the preempted dump has let go of its own; null, or why not. */
    private String awaitSlot(PeerKey peer) {
        return dumpSlots.acquireBefore(peer, System.nanoTime() + SLOT_WAIT_MILLIS * 1_000_000L, () -> { }, 50);
    }

    /** Dumps already running may finish. */
    void shutdown() {
        dumpExecutor.shutdown();
    }

    /** Interrupts dumps still running. */
    void shutdownNow() {
        dumpExecutor.shutdownNow();
    }
}
