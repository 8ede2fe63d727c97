package io.gfxstats.daemon.config;

import io.gfxstats.rpc.SocketPaths;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The daemon's settings, immutable and validated: one value per {@link Setting}, read with
 * {@link #get(Setting)}. Build one with {@link #builder()} (tests, embedding) or
 * {@link #load(DaemonArgs, ConfigEnvironment)} (the daemon: embedded defaults, then
 * {@code --config FILE}, then command-line overrides).
 */
public final class DaemonConfig {
    /** Longest Unix socket path: sun_path is 108 bytes including the terminating NUL. */
    public static final int MAX_SOCKET_PATH_BYTES = SocketPaths.MAX_PATH_BYTES;

    private final Map<Setting<?>, Object> values;

    private DaemonConfig(Map<Setting<?>, Object> values) {
        this.values = values;
    }

    /** A builder holding every default except the state directory, which must be set. */
    public static Builder builder() {
        return new Builder();
    }

    /** The embedded defaults for this environment. */
    public static DaemonConfig defaults(ConfigEnvironment env) {
        return ConfigLoader.load(DaemonArgs.none(), env);
    }

    /** Defaults, then the args' config file, then its overrides; errors name the key and its origin. */
    public static DaemonConfig load(DaemonArgs args, ConfigEnvironment env) {
        return ConfigLoader.load(args, env);
    }

    /** A builder starting from this configuration. */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.values.putAll(values);
        return b;
    }

    /** The value of a setting; null only for an optional path that is not set. */
    @SuppressWarnings("unchecked")
    public <T> T get(Setting<T> setting) {
        return (T) values.get(setting);
    }

    /** The value of a setting that may be unset (optional paths). */
    public <T> Optional<T> find(Setting<T> setting) {
        return Optional.ofNullable(get(setting));
    }

    /** Every setting as {@code key=value} lines in declaration order; loading it gives this config back. */
    public String toProperties() {
        StringBuilder sb = new StringBuilder();
        for (Setting<?> s : Setting.all()) {
            sb.append(s.key()).append('=').append(escape(s.valueIn(this))).append('\n');
        }
        return sb.toString();
    }

    private static String escape(String value) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '\\' || c == '#' || c == '!' || c == '=' || c == ':' || (i == 0 && c == ' ')) {
                sb.append('\\');
            }
            sb.append(c);
        }
        return sb.toString();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof DaemonConfig c && toProperties().equals(c.toProperties());
    }

    @Override
    public int hashCode() {
        return toProperties().hashCode();
    }

    @Override
    public String toString() {
        return "DaemonConfig{" + toProperties().strip().replace('\n', ',').replace(",", ", ") + "}";
    }

    /** Mutable; {@link #build()} validates everything and names the key of the first problem. */
    public static final class Builder {
        private final Map<Setting<?>, Object> values = new IdentityHashMap<>();

        private Builder() {
            for (Setting<?> s : Setting.all()) {
                if (!s.isPath()) {
                    values.put(s, s.parse(s.defaultValue()));
                }
            }
        }

        /**
         * Sets one value. A null path means its default: {@code ${state.dir}/...} for the paths
         * that have one, none for the optional ones.
         */
        public <T> Builder set(Setting<T> setting, T value) {
            if (value == null && !setting.isPath()) {
                throw new NullPointerException(setting.key());
            }
            values.put(setting, value);
            return this;
        }

        /** Shorthand for {@code set(Setting.STATE_DIR, dir)}, the one setting without a default. */
        public Builder stateDir(Path dir) {
            return set(Setting.STATE_DIR, dir);
        }

        /** @throws ConfigException naming the setting of the first problem found */
        public DaemonConfig build() {
            Map<Setting<?>, Object> v = new IdentityHashMap<>(values);
            Path stateDir = (Path) v.get(Setting.STATE_DIR);
            if (stateDir == null) {
                throw new ConfigException(Setting.STATE_DIR.key(), Setting.STATE_DIR.key() + ": not set");
            }
            Setting.STATE_DIR.check(stateDir);
            for (Setting<?> s : Setting.all()) {
                if (v.get(s) == null && s.kind() == Setting.Kind.PATH) {
                    v.put(s, Path.of(s.defaultValue().replace(ConfigLoader.STATE_DIR_VARIABLE, stateDir.toString()))
                            .normalize());
                }
                s.checkValue(v.get(s));
            }
            DaemonConfig c = new DaemonConfig(v);
            checkTogether(c);
            return c;
        }

        /** The rules that tie several settings together. */
        private static void checkTogether(DaemonConfig c) {
            Duration heartbeat = c.get(Setting.HEARTBEAT_TIMEOUT);
            Duration liveness = c.get(Setting.LIVENESS_CHECK_INTERVAL);
            if (heartbeat.compareTo(liveness) <= 0) {
                throw new ConfigException(Setting.HEARTBEAT_TIMEOUT.key(), Setting.HEARTBEAT_TIMEOUT.key() + ": "
                        + Values.format(heartbeat) + " must be longer than "
                        + Setting.LIVENESS_CHECK_INTERVAL.key() + " (" + Values.format(liveness) + ")");
            }
            if (c.get(Setting.OWNER_RESERVE) >= c.get(Setting.MAX_CONNECTIONS)) {
                throw new ConfigException(Setting.OWNER_RESERVE.key(), Setting.OWNER_RESERVE.key() + ": "
                        + c.get(Setting.OWNER_RESERVE) + " must be less than " + Setting.MAX_CONNECTIONS.key() + " ("
                        + c.get(Setting.MAX_CONNECTIONS) + ")");
            }
            Path socket = c.get(Setting.SOCKET_PATH);
            int socketBytes = socket.toString().getBytes(StandardCharsets.UTF_8).length;
            if (socketBytes > MAX_SOCKET_PATH_BYTES) {
                throw new ConfigException(Setting.SOCKET_PATH.key(), Setting.SOCKET_PATH.key() + ": " + socket
                        + " is " + socketBytes + " bytes long; Unix socket paths are limited to "
                        + MAX_SOCKET_PATH_BYTES + " bytes, choose a shorter one");
            }
            checkDisjoint(c);
            checkTcp(c);
            checkMetrics(c);
        }

        /** The exposition follows the TCP rules: off loopback it needs TLS and the bearer token. */
        private static void checkMetrics(DaemonConfig c) {
            String host = c.get(Setting.METRICS_HOST);
            if (c.get(Setting.METRICS_ENABLED) && !Values.isLoopback(host)) {
                if (c.get(Setting.TLS_CERT) == null) {
                    throw new ConfigException(Setting.TLS_CERT.key(), Setting.METRICS_HOST.key() + ": "
                            + host + " is reachable from other machines, so metrics need TLS: set "
                            + Setting.TLS_CERT.key() + " and " + Setting.TLS_KEY.key() + " (or listen on 127.0.0.1)");
                }
                if (c.get(Setting.TOKEN_FILE) == null) {
                    throw new ConfigException(Setting.TOKEN_FILE.key(), Setting.METRICS_HOST.key() + ": "
                            + host + " is reachable from other machines, so metrics need a bearer token: set "
                            + Setting.TOKEN_FILE.key() + " (or listen on 127.0.0.1)");
                }
            }
        }

        /** Buffer files in the data tree (or the reverse) would be read as foreign day files. */
        private static void checkDisjoint(DaemonConfig c) {
            Path data = c.get(Setting.DATA_DIR).normalize();
            Path buffers = c.get(Setting.BUFFER_DIR).normalize();
            if (data.startsWith(buffers) || buffers.startsWith(data)) {
                throw new ConfigException(Setting.BUFFER_DIR.key(), Setting.BUFFER_DIR.key() + " (" + buffers
                        + ") and " + Setting.DATA_DIR.key() + " (" + data
                        + ") must be separate directories, neither inside the other");
            }
        }

        private static void checkTcp(DaemonConfig c) {
            Path cert = c.get(Setting.TLS_CERT);
            Path key = c.get(Setting.TLS_KEY);
            String host = c.get(Setting.TCP_HOST);
            if ((cert == null) != (key == null)) {
                Setting<Path> missing = cert == null ? Setting.TLS_CERT : Setting.TLS_KEY;
                throw new ConfigException(missing.key(), missing.key() + ": not set; TLS needs both "
                        + Setting.TLS_CERT.key() + " and " + Setting.TLS_KEY.key());
            }
            if (c.get(Setting.TCP_ENABLED) && !Values.isLoopback(host)) {
                if (cert == null) {
                    throw new ConfigException(Setting.TLS_CERT.key(), Setting.TCP_HOST.key() + ": " + host
                            + " is reachable from other machines, so TCP needs TLS: set " + Setting.TLS_CERT.key()
                            + " and " + Setting.TLS_KEY.key() + " (or listen on 127.0.0.1)");
                }
                if (c.get(Setting.TOKEN_FILE) == null) {
                    throw new ConfigException(Setting.TOKEN_FILE.key(), Setting.TCP_HOST.key() + ": " + host
                            + " is reachable from other machines, so TCP needs a client token: set "
                            + Setting.TOKEN_FILE.key() + " (or listen on 127.0.0.1)");
                }
            }
        }
    }
}
