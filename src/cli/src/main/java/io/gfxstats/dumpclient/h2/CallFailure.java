package io.gfxstats.dumpclient.h2;

/**
 * The call did not end with OK: the server's status, or one this client concluded (a transport
 * failure is UNAVAILABLE, a protocol violation INTERNAL, the deadline DEADLINE_EXCEEDED).
 */
public final class CallFailure extends Exception {
    private static final long serialVersionUID = 1L;

    private final int code;
    private final String detail;

    CallFailure(int code, String detail) {
        this(code, detail, null);
    }

    CallFailure(int code, String detail, Throwable cause) {
        super("gRPC status " + code + ": " + detail, cause);
        this.code = code;
        this.detail = detail;
    }

    /** The daemon broke HTTP/2's rules: INTERNAL, the code gRPC gives a protocol error. */
    static CallFailure protocolError(String what) {
        return new CallFailure(GrpcCodes.INTERNAL, "HTTP/2 protocol error from the daemon: " + what);
    }

    /** The gRPC status code ({@link GrpcCodes}). */
    public int code() {
        return code;
    }

    /** The server's grpc-message, or what went wrong; one line, never null. */
    public String detail() {
        return detail;
    }
}
