package io.gfxstats.client;

import io.gfxstats.rpc.ClientRegistration;
import io.gfxstats.rpc.GfxStatsClient;
import io.gfxstats.rpc.GfxStatsClientException;
import io.gfxstats.rpc.SocketPaths;
import io.gfxstats.rpc.v1.BufferAssigned;
import io.gfxstats.rpc.v1.RegisterRequest;
import io.grpc.Status;
import java.io.IOException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Gets buffers from the gfxstats daemon over its Unix socket. Each attachment is one open
 * Register call: closing it (or the process dying) tells the daemon the process is gone; the
 * daemon going away ends it, and the session asks again, naming its buffer so the next daemon
 * adopts it.
 */
public final class DaemonBufferProvider implements BufferProvider {
    private final Path socket;

    public DaemonBufferProvider(Path socket) {
        this.socket = socket;
    }

    /** The daemon at the default socket ({@code GFXSTATS_SOCKET}, else the state directory's). */
    public static DaemonBufferProvider atDefaultSocket() {
        return new DaemonBufferProvider(SocketPaths.resolve(null, System.getenv()));
    }

    public Path socket() {
        return socket;
    }

    /**
     * Whether a registration refused with {@code code} would be refused again, however often it
     * is asked. Retried: the daemon is not there or not ready (UNAVAILABLE), slow
     * (DEADLINE_EXCEEDED), full or out of memory for now (RESOURCE_EXHAUSTED: capacity frees up
     * as other processes exit), or raced (ABORTED). Everything else - INVALID_ARGUMENT,
     * PERMISSION_DENIED, UNAUTHENTICATED, UNIMPLEMENTED, INTERNAL, ... - says the request or
     * this process is the problem.
     */
    static boolean isPermanent(Status.Code code) {
        switch (code) {
            case UNAVAILABLE:
            case DEADLINE_EXCEEDED:
            case RESOURCE_EXHAUSTED:
            case ABORTED:
                return false;
            default:
                return true;
        }
    }

    @Override
    public Attachment attach(AttachRequest request, AttachmentListener onEnded) throws IOException {
        RegisterRequest.Builder r = RegisterRequest.newBuilder()
                .setPackageName(request.packageName())
                .setVersionCode(request.versionCode())
                .setPipeline(request.pipeline().code());
        request.previousBuffer().ifPresent(prev -> r
                .setAdoptBufferPath(prev.path().toString())
                .setAdoptRegistrationId(prev.registrationId()));
        // A fresh channel per attach: a channel that saw the daemon die would wait out gRPC's
        // reconnect backoff, and attaching is rare.
        GfxStatsClient client = GfxStatsClient.unix(socket);
        ClientRegistration registration;
        try {
            registration = client.register(r.build());
        } catch (GfxStatsClientException e) {
            client.close();
            if (isPermanent(e.code())) {
                throw new AttachRefusedException(e.getMessage(), e);
            }
            throw new IOException(e.getMessage(), e);
        } catch (RuntimeException e) {
            client.close();
            throw e;
        }
        BufferAssigned assigned = registration.assigned();
        AtomicBoolean closedByUs = new AtomicBoolean();
        // The callback's own failure would end up in the returned future: it only hands a reason on.
        CompletableFuture<?> unused = registration.ended().whenComplete((status, error) -> {
            if (!closedByUs.get()) {
                onEnded.ended("daemon registration ended: "
                        + (status != null ? status.getCode() + " " + status.getDescription() : String.valueOf(error)));
            }
        });
        Path path = Paths.get(assigned.getBufferPath());
        return new Attachment() {
            @Override
            public Path bufferPath() {
                return path;
            }

            @Override
            public String registrationId() {
                return assigned.getRegistrationId();
            }

            @Override
            public boolean adopted() {
                return assigned.getAdopted();
            }

            @Override
            public void close() {
                if (closedByUs.compareAndSet(false, true)) {
                    registration.close();
                    client.close();
                }
            }
        };
    }
}
