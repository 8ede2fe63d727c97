package io.gfxstats.daemon.rpc;

import io.grpc.Status;
import java.util.Objects;

/**
 * A refusal or failure the backend reports to the caller. The message is sent to the client as
 * the status description, so it must be one readable sentence fit for a user (no stack traces,
 * no secrets).
 */
public class StatsException extends Exception {
    private static final long serialVersionUID = 1L;

    /** What went wrong, from the caller's point of view; each kind maps to one gRPC status code. */
    public enum Kind {
        /** The request itself is bad (package name, version code, filter, format). */
        INVALID_ARGUMENT(Status.Code.INVALID_ARGUMENT),
        /** The caller may not do this (wrong uid, claimed someone else's buffer, wrong transport). */
        PERMISSION_DENIED(Status.Code.PERMISSION_DENIED),
        /** A configured bound is reached (live buffers, concurrent dumps, disk). */
        RESOURCE_EXHAUSTED(Status.Code.RESOURCE_EXHAUSTED),
        /** The daemon cannot serve right now (shutting down, storage unavailable); retrying may help. */
        UNAVAILABLE(Status.Code.UNAVAILABLE),
        /** The thing named in the request does not exist (e.g. a buffer to adopt). */
        NOT_FOUND(Status.Code.NOT_FOUND);

        private final Status.Code code;

        Kind(Status.Code code) {
            this.code = code;
        }

        public Status.Code statusCode() {
            return code;
        }
    }

    private final Kind kind;

    public StatsException(Kind kind, String message) {
        this(kind, message, null);
    }

    public StatsException(Kind kind, String message, Throwable cause) {
        super(Objects.requireNonNull(message, "message"), cause);
        this.kind = Objects.requireNonNull(kind, "kind");
    }

    public Kind kind() {
        return kind;
    }

    /** The status this exception is reported as. The cause stays on the server. */
    public Status toStatus() {
        return Status.fromCode(kind.statusCode()).withDescription(getMessage());
    }

    public static StatsException invalidArgument(String message) {
        return new StatsException(Kind.INVALID_ARGUMENT, message);
    }

    public static StatsException permissionDenied(String message) {
        return new StatsException(Kind.PERMISSION_DENIED, message);
    }

    public static StatsException resourceExhausted(String message) {
        return new StatsException(Kind.RESOURCE_EXHAUSTED, message);
    }

    public static StatsException unavailable(String message, Throwable cause) {
        return new StatsException(Kind.UNAVAILABLE, message, cause);
    }

    public static StatsException notFound(String message) {
        return new StatsException(Kind.NOT_FOUND, message);
    }
}
