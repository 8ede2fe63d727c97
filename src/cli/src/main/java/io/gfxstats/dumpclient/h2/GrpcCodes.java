package io.gfxstats.dumpclient.h2;

/**
 * gRPC status code numbers (the {@code grpc-status} trailer) and the mappings the gRPC HTTP/2
 * protocol defines for calls that end without one.
 */
public final class GrpcCodes {
    public static final int OK = 0;
    public static final int CANCELLED = 1;
    public static final int UNKNOWN = 2;
    public static final int DEADLINE_EXCEEDED = 4;
    public static final int PERMISSION_DENIED = 7;
    public static final int RESOURCE_EXHAUSTED = 8;
    public static final int UNIMPLEMENTED = 12;
    public static final int INTERNAL = 13;
    public static final int UNAVAILABLE = 14;
    public static final int UNAUTHENTICATED = 16;
    /** The highest code defined; larger numbers read as UNKNOWN. */
    public static final int MAX_CODE = 16;

    private GrpcCodes() {
    }

    /** A response without gRPC trailers: what its HTTP status says about the call. */
    static int fromHttpStatus(int httpStatus) {
        return switch (httpStatus) {
            case 400 -> INTERNAL;
            case 401 -> UNAUTHENTICATED;
            case 403 -> PERMISSION_DENIED;
            case 404 -> UNIMPLEMENTED;
            case 429, 502, 503, 504 -> UNAVAILABLE;
            default -> UNKNOWN;
        };
    }

    /** A stream reset by the server: what its HTTP/2 error code says about the call. */
    static int fromResetCode(int http2Error) {
        return switch (http2Error) {
            case Http2.REFUSED_STREAM -> UNAVAILABLE;
            case Http2.CANCEL -> CANCELLED;
            case Http2.ENHANCE_YOUR_CALM -> RESOURCE_EXHAUSTED;
            case Http2.INADEQUATE_SECURITY -> PERMISSION_DENIED;
            default -> INTERNAL;
        };
    }
}
