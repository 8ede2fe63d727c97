package io.gfxstats.rpc;

import io.grpc.Status;

/**
 * A call to the daemon failed. The message is one line fit for a terminal, e.g.
 * "gfxstats daemon not running (no socket at /run/gfxstats/gfxstatsd.sock)".
 */
public class GfxStatsClientException extends Exception {
    private static final long serialVersionUID = 1L;

    private final Status.Code code;
    private final boolean daemonNotRunning;

    public GfxStatsClientException(String message, Status.Code code, boolean daemonNotRunning, Throwable cause) {
        super(message, cause);
        this.code = code;
        this.daemonNotRunning = daemonNotRunning;
    }

    /** The gRPC status code of the failure. */
    public Status.Code code() {
        return code;
    }

    /** Nobody is listening: no socket file, or connection refused. */
    public boolean daemonNotRunning() {
        return daemonNotRunning;
    }
}
