package io.gfxstats.daemon.rpc;

/** The listener a call arrived on. */
public enum Transport {
    /** The daemon's Unix socket: local processes, identified by SO_PEERCRED. */
    UNIX,
    /** The optional TCP listener: read-only calls, authenticated by bearer token when configured. */
    TCP
}
