package io.gfxstats.daemon.rpc;

/** Why a registration ended. */
public enum EndReason {
    /**
     * The client cancelled the call, exited, was killed, or its connection dropped: the process is
     * gone (or has given up its registration) and its buffer can be harvested and released.
     */
    CLIENT_GONE,
    /**
     * The server is stopping. The client is still alive and will re-register (adopting its
     * buffer) with the next daemon, so the buffer must be saved but not removed.
     */
    SERVER_STOPPING
}
