package io.gfxstats.daemon.rpc;

/**
 * The server cannot start as configured (another daemon is running, bad socket directory,
 * unsafe TCP settings, unreadable TLS or token files). The message is one line meant for the
 * operator.
 */
public class ServerStartException extends Exception {
    private static final long serialVersionUID = 1L;

    public ServerStartException(String message) {
        super(message);
    }

    public ServerStartException(String message, Throwable cause) {
        super(message, cause);
    }
}
