package io.gfxstats.daemon.rpc;

import io.gfxstats.rpc.v1.RegisterEvent;
import io.gfxstats.rpc.v1.RegisterRequest;
import io.grpc.Status;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.util.ArrayList;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Register calls of {@link GfxStatsService}: each stays open for the life of its client, and
 * the backend is told exactly once when it ends - client gone, or daemon stopping - however the
 * end races the backend's decision.
 */
final class RegisterCalls {
    /** The service's logger: log settings that name the service keep covering its calls. */
    private static final Logger LOG = LoggerFactory.getLogger(GfxStatsService.class);

    private final StatsBackend backend;
    private final BooleanSupplier stopping;
    private final Set<LiveRegistration> live = ConcurrentHashMap.newKeySet();

    /** {@code stopping}: whether the service refuses new calls. */
    RegisterCalls(StatsBackend backend, BooleanSupplier stopping) {
        this.backend = backend;
        this.stopping = stopping;
    }

    /** Registrations currently open. */
    int live() {
        return live.size();
    }

    void register(RegisterRequest request, StreamObserver<RegisterEvent> observer) {
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
        if (stopping.getAsBoolean()) {
            observer.onError(GfxStatsService.shuttingDown().asRuntimeException());
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
            GfxStatsService.FAILURES.failed("register", "register failed for " + caller.peer(), e);
            observer.onError(GfxStatsService.internal("registration failed", e).asRuntimeException());
            return;
        }
        reg.accept(accepted);
    }

    /** Ends every open registration with {@link EndReason#SERVER_STOPPING}; its client sees UNAVAILABLE. */
    void stopAll() {
        for (LiveRegistration reg : new ArrayList<>(live)) {
            reg.stop();
        }
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
            if (stopping.getAsBoolean()) {
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
            call.onError(GfxStatsService.shuttingDown().asRuntimeException());
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
                GfxStatsService.FAILURES.failed("end registration", "ending the registration of " + peer + " failed", e);
            }
        }
    }
}
