package io.gfxstats.rpc;

import java.nio.file.Path;
import java.util.Map;

/**
 * Where the daemon's socket is when nobody says otherwise. Shared by the daemon and every client
 * so that both agree without configuration: {@code $GFXSTATS_SOCKET}, else
 * {@code $XDG_STATE_HOME/gfxstats/gfxstatsd.sock}, else
 * {@code $HOME/.local/state/gfxstats/gfxstatsd.sock}.
 */
public final class SocketPaths {
    /** Longest Unix socket path, in bytes: sun_path holds 108 with the terminating NUL (Linux's unix(7)). */
    public static final int MAX_PATH_BYTES = 107;

    public static final String SOCKET_ENV = "GFXSTATS_SOCKET";
    public static final String SOCKET_FILE_NAME = "gfxstatsd.sock";

    private SocketPaths() {
    }

    /** The socket to use: an explicit choice (e.g. {@code --socket}) wins, then the environment. */
    public static Path resolve(String explicit, Map<String, String> env) {
        if (explicit != null && !explicit.isBlank()) {
            return Path.of(explicit);
        }
        String fromEnv = env.get(SOCKET_ENV);
        if (fromEnv != null && !fromEnv.isBlank()) {
            return Path.of(fromEnv);
        }
        return defaultStateDirectory(env).resolve(SOCKET_FILE_NAME);
    }

    /** The daemon's default state directory (XDG base directory rules). */
    public static Path defaultStateDirectory(Map<String, String> env) {
        String xdg = env.get("XDG_STATE_HOME");
        if (xdg != null && !xdg.isBlank() && Path.of(xdg).isAbsolute()) {
            return Path.of(xdg, "gfxstats");
        }
        String home = env.get("HOME");
        if (home == null || home.isBlank()) {
            home = System.getProperty("user.home");
        }
        return Path.of(home, ".local", "state", "gfxstats");
    }
}
