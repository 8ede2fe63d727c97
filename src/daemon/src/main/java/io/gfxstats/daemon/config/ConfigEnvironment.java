package io.gfxstats.daemon.config;

import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;

/**
 * What the defaults depend on outside the config: environment variables, the home directory and
 * the working directory (for relative command-line paths). Injected so that tests do not depend
 * on the machine they run on.
 */
public record ConfigEnvironment(Map<String, String> variables, Path home, Path workingDirectory) {
    public static final String STATE_DIR_NAME = "gfxstats";

    public ConfigEnvironment {
        variables = Map.copyOf(variables);
        Objects.requireNonNull(home, "home");
        Objects.requireNonNull(workingDirectory, "workingDirectory");
        if (!home.isAbsolute() || !workingDirectory.isAbsolute()) {
            throw new IllegalArgumentException("home and working directory must be absolute");
        }
    }

    /** The real process environment. {@code $HOME} wins over Java's user.home, as in a shell. */
    public static ConfigEnvironment system() {
        Map<String, String> env = System.getenv();
        String home = env.get("HOME");
        Path homePath = home != null && !home.isEmpty() && Path.of(home).isAbsolute()
                ? Path.of(home) : Path.of(System.getProperty("user.home")).toAbsolutePath();
        return new ConfigEnvironment(env, homePath, Path.of("").toAbsolutePath());
    }

    /**
     * {@code $XDG_STATE_HOME/gfxstats}, or {@code ~/.local/state/gfxstats} when that variable is
     * unset, empty or relative (the XDG base-directory spec says to ignore relative values).
     * Both are owned by the user, so the daemon needs no root.
     */
    public Path defaultStateDir() {
        String xdg = variables.get("XDG_STATE_HOME");
        if (xdg != null && !xdg.isEmpty() && Path.of(xdg).isAbsolute()) {
            return Path.of(xdg).resolve(STATE_DIR_NAME).normalize();
        }
        return home.resolve(".local").resolve("state").resolve(STATE_DIR_NAME).normalize();
    }
}
