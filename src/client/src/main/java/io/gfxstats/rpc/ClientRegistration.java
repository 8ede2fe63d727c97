package io.gfxstats.rpc;

import io.gfxstats.rpc.v1.BufferAssigned;
import io.gfxstats.rpc.v1.RegisterEvent;
import io.gfxstats.rpc.v1.RegisterRequest;
import io.grpc.Status;
import io.grpc.stub.ClientCallStreamObserver;
import io.grpc.stub.ClientResponseObserver;
import java.util.concurrent.CompletableFuture;

/**
 * A process's open registration with the daemon. Keep it open while the process counts frames;
 * {@link #close()} (or the process dying) tells the daemon the process is gone. When the daemon
 * goes away first, {@link #ended()} completes with its status (UNAVAILABLE on daemon shutdown or
 * crash) and the process should register again, adopting its buffer
 * ({@link RegisterRequest#getAdoptBufferPath()}).
 */
public final class ClientRegistration implements AutoCloseable {
    private final CompletableFuture<BufferAssigned> assigned = new CompletableFuture<>();
    private final CompletableFuture<Status> ended = new CompletableFuture<>();
    private volatile ClientCallStreamObserver<RegisterRequest> call;

    ClientRegistration() {
    }

    /** The buffer the daemon assigned. */
    public BufferAssigned assigned() {
        return assigned.getNow(null);
    }

    /** Completes when the call is over, with the daemon's status (CANCELLED after {@link #close()}). */
    public CompletableFuture<Status> ended() {
        return ended;
    }

    public boolean isOpen() {
        return !ended.isDone();
    }

    /** Ends the registration: the daemon harvests and releases the buffer. */
    @Override
    public void close() {
        ClientCallStreamObserver<RegisterRequest> c = call;
        if (c != null && isOpen()) {
            c.cancel("client closed its registration", null);
        }
    }

    CompletableFuture<BufferAssigned> assignedFuture() {
        return assigned;
    }

    ClientResponseObserver<RegisterRequest, RegisterEvent> observer() {
        return new ClientResponseObserver<>() {
            @Override
            public void beforeStart(ClientCallStreamObserver<RegisterRequest> requestStream) {
                call = requestStream;
            }

            @Override
            public void onNext(RegisterEvent event) {
                if (event.hasAssigned()) {
                    assigned.complete(event.getAssigned());
                }
            }

            @Override
            public void onError(Throwable t) {
                assigned.completeExceptionally(t);
                ended.complete(Status.fromThrowable(t));
            }

            @Override
            public void onCompleted() {
                Status status = Status.UNAVAILABLE.withDescription("the daemon closed the registration");
                assigned.completeExceptionally(status.asRuntimeException());
                ended.complete(status);
            }
        };
    }
}
