package io.gfxstats.daemon.config;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * The daemon's settings, immutable and validated. Build one with {@link #builder()} (tests,
 * embedding) or {@link #load(DaemonArgs, ConfigEnvironment)} (the daemon: embedded defaults, then
 * {@code --config FILE}, then command-line overrides). Every setting, its key and its default is
 * listed in {@link Setting} and documented in {@code config/gfxstatsd.properties}.
 */
public final class DaemonConfig {
    /** Longest Unix socket path: sun_path is 108 bytes including the terminating NUL. */
    public static final int MAX_SOCKET_PATH_BYTES = 107;

    // Sub-second flushes are for tests that kill the daemon mid-save; production wants minutes.
    static final Duration MIN_FLUSH = Duration.ofMillis(100);
    static final Duration MAX_FLUSH = Duration.ofDays(1);
    static final int MAX_RETENTION_DAYS = 3650;
    static final int MAX_BUFFERS_LIMIT = 65_536;
    static final Duration MIN_LIVENESS = Duration.ofMillis(10);
    static final Duration MAX_LIVENESS = Duration.ofSeconds(10);
    static final Duration MIN_HEARTBEAT = Duration.ofMillis(100);
    static final Duration MAX_HEARTBEAT = Duration.ofHours(1);
    static final Duration MIN_REFRESH = Duration.ofNanos(100_000);
    static final Duration MAX_REFRESH = Duration.ofSeconds(1);

    private final Path stateDir;
    private final Path dataDir;
    private final Path bufferDir;
    private final Path socketPath;
    private final Duration flushInterval;
    private final int retentionDays;
    private final int maxBuffers;
    private final Duration livenessCheckInterval;
    private final Duration heartbeatTimeout;
    private final Duration displayRefreshInterval;
    private final boolean tcpEnabled;
    private final String tcpHost;
    private final int tcpPort;
    private final Path tlsCertFile;
    private final Path tlsKeyFile;
    private final Path tokenFile;
    private final boolean metricsEnabled;
    private final String metricsHost;
    private final int metricsPort;

    private DaemonConfig(Builder b) {
        this.stateDir = b.stateDir;
        this.dataDir = b.dataDir != null ? b.dataDir : b.stateDir.resolve("data");
        this.bufferDir = b.bufferDir != null ? b.bufferDir : b.stateDir.resolve("buffers");
        this.socketPath = b.socketPath != null ? b.socketPath : b.stateDir.resolve("gfxstatsd.sock");
        this.flushInterval = b.flushInterval;
        this.retentionDays = b.retentionDays;
        this.maxBuffers = b.maxBuffers;
        this.livenessCheckInterval = b.livenessCheckInterval;
        this.heartbeatTimeout = b.heartbeatTimeout;
        this.displayRefreshInterval = b.displayRefreshInterval;
        this.tcpEnabled = b.tcpEnabled;
        this.tcpHost = b.tcpHost;
        this.tcpPort = b.tcpPort;
        this.tlsCertFile = b.tlsCertFile;
        this.tlsKeyFile = b.tlsKeyFile;
        this.tokenFile = b.tokenFile;
        this.metricsEnabled = b.metricsEnabled;
        this.metricsHost = b.metricsHost;
        this.metricsPort = b.metricsPort;
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
        return new Builder().stateDir(stateDir).dataDir(dataDir).bufferDir(bufferDir).socketPath(socketPath)
                .flushInterval(flushInterval).retentionDays(retentionDays).maxBuffers(maxBuffers)
                .livenessCheckInterval(livenessCheckInterval).heartbeatTimeout(heartbeatTimeout)
                .displayRefreshInterval(displayRefreshInterval).tcpEnabled(tcpEnabled).tcpHost(tcpHost)
                .tcpPort(tcpPort).tlsCertFile(tlsCertFile).tlsKeyFile(tlsKeyFile).tokenFile(tokenFile)
                .metricsEnabled(metricsEnabled).metricsHost(metricsHost).metricsPort(metricsPort);
    }

    /** Directory the other paths default into ({@code $XDG_STATE_HOME/gfxstats}). */
    public Path stateDir() {
        return stateDir;
    }

    /** Root of the persisted day files. */
    public Path dataDir() {
        return dataDir;
    }

    /** Where live client buffers are created. */
    public Path bufferDir() {
        return bufferDir;
    }

    /** The daemon's gRPC Unix socket. */
    public Path socketPath() {
        return socketPath;
    }

    /** How often live buffers are harvested into day files. */
    public Duration flushInterval() {
        return flushInterval;
    }

    /** How many most recent day directories are kept. */
    public int retentionDays() {
        return retentionDays;
    }

    /** Upper bound on registered live buffers; registrations beyond it are refused. */
    public int maxBuffers() {
        return maxBuffers;
    }

    /** How often the daemon checks whether registered processes still exist. */
    public Duration livenessCheckInterval() {
        return livenessCheckInterval;
    }

    /** How long a buffer's heartbeat may stand still before its owner is considered gone. */
    public Duration heartbeatTimeout() {
        return heartbeatTimeout;
    }

    /** Frame interval clients assume when they cannot learn the display's. */
    public Duration displayRefreshInterval() {
        return displayRefreshInterval;
    }

    public long displayRefreshIntervalNanos() {
        return displayRefreshInterval.toNanos();
    }

    public boolean tcpEnabled() {
        return tcpEnabled;
    }

    public String tcpHost() {
        return tcpHost;
    }

    /** 0 lets the system pick a free port (the daemon logs the one it got). */
    public int tcpPort() {
        return tcpPort;
    }

    public Optional<Path> tlsCertFile() {
        return Optional.ofNullable(tlsCertFile);
    }

    public Optional<Path> tlsKeyFile() {
        return Optional.ofNullable(tlsKeyFile);
    }

    public Optional<Path> tokenFile() {
        return Optional.ofNullable(tokenFile);
    }

    /** Whether the Prometheus exposition is served (over HTTP, or HTTPS with the TCP TLS settings). */
    public boolean metricsEnabled() {
        return metricsEnabled;
    }

    public String metricsHost() {
        return metricsHost;
    }

    /** 0 lets the system pick a free port. */
    public int metricsPort() {
        return metricsPort;
    }

    /** Every setting as {@code key=value} lines in {@link Setting} order; loading it gives this config back. */
    public String toProperties() {
        StringBuilder sb = new StringBuilder();
        for (Setting s : Setting.values()) {
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
        private Path stateDir;
        private Path dataDir;
        private Path bufferDir;
        private Path socketPath;
        private Duration flushInterval;
        private int retentionDays;
        private int maxBuffers;
        private Duration livenessCheckInterval;
        private Duration heartbeatTimeout;
        private Duration displayRefreshInterval;
        private boolean tcpEnabled;
        private String tcpHost;
        private int tcpPort;
        private Path tlsCertFile;
        private Path tlsKeyFile;
        private Path tokenFile;
        private boolean metricsEnabled;
        private String metricsHost;
        private int metricsPort;

        private Builder() {
            for (Setting s : Setting.values()) {
                if (!s.isPath()) {
                    s.apply(this, s.defaultValue());
                }
            }
        }

        public Builder stateDir(Path v) {
            stateDir = v;
            return this;
        }

        /** Null: {@code <stateDir>/data}. */
        public Builder dataDir(Path v) {
            dataDir = v;
            return this;
        }

        /** Null: {@code <stateDir>/buffers}. */
        public Builder bufferDir(Path v) {
            bufferDir = v;
            return this;
        }

        /** Null: {@code <stateDir>/gfxstatsd.sock}. */
        public Builder socketPath(Path v) {
            socketPath = v;
            return this;
        }

        public Builder flushInterval(Duration v) {
            flushInterval = Objects.requireNonNull(v, Setting.FLUSH_INTERVAL.key());
            return this;
        }

        public Builder retentionDays(int v) {
            retentionDays = v;
            return this;
        }

        public Builder maxBuffers(int v) {
            maxBuffers = v;
            return this;
        }

        public Builder livenessCheckInterval(Duration v) {
            livenessCheckInterval = Objects.requireNonNull(v, Setting.LIVENESS_CHECK_INTERVAL.key());
            return this;
        }

        public Builder heartbeatTimeout(Duration v) {
            heartbeatTimeout = Objects.requireNonNull(v, Setting.HEARTBEAT_TIMEOUT.key());
            return this;
        }

        public Builder displayRefreshInterval(Duration v) {
            displayRefreshInterval = Objects.requireNonNull(v, Setting.DISPLAY_REFRESH_INTERVAL.key());
            return this;
        }

        public Builder tcpEnabled(boolean v) {
            tcpEnabled = v;
            return this;
        }

        public Builder tcpHost(String v) {
            tcpHost = Objects.requireNonNull(v, Setting.TCP_HOST.key());
            return this;
        }

        public Builder tcpPort(int v) {
            tcpPort = v;
            return this;
        }

        /** Null: no TLS. */
        public Builder tlsCertFile(Path v) {
            tlsCertFile = v;
            return this;
        }

        /** Null: no TLS. */
        public Builder tlsKeyFile(Path v) {
            tlsKeyFile = v;
            return this;
        }

        /** Null: no token check. */
        public Builder tokenFile(Path v) {
            tokenFile = v;
            return this;
        }

        public Builder metricsEnabled(boolean v) {
            metricsEnabled = v;
            return this;
        }

        public Builder metricsHost(String v) {
            metricsHost = Objects.requireNonNull(v, Setting.METRICS_HOST.key());
            return this;
        }

        public Builder metricsPort(int v) {
            metricsPort = v;
            return this;
        }

        /** @throws ConfigException naming the setting of the first problem found */
        public DaemonConfig build() {
            if (stateDir == null) {
                throw new ConfigException(Setting.STATE_DIR.key(), Setting.STATE_DIR.key() + ": not set");
            }
            requireAbsolute(Setting.STATE_DIR, stateDir);
            requireAbsolute(Setting.DATA_DIR, dataDir);
            requireAbsolute(Setting.BUFFER_DIR, bufferDir);
            requireAbsolute(Setting.SOCKET_PATH, socketPath);
            requireAbsolute(Setting.TLS_CERT, tlsCertFile);
            requireAbsolute(Setting.TLS_KEY, tlsKeyFile);
            requireAbsolute(Setting.TOKEN_FILE, tokenFile);
            Values.checkRange(Setting.FLUSH_INTERVAL.key(), flushInterval, MIN_FLUSH, MAX_FLUSH);
            Values.checkRange(Setting.RETENTION_DAYS.key(), retentionDays, 1, MAX_RETENTION_DAYS);
            Values.checkRange(Setting.MAX_BUFFERS.key(), maxBuffers, 1, MAX_BUFFERS_LIMIT);
            Values.checkRange(Setting.LIVENESS_CHECK_INTERVAL.key(), livenessCheckInterval, MIN_LIVENESS,
                    MAX_LIVENESS);
            Values.checkRange(Setting.HEARTBEAT_TIMEOUT.key(), heartbeatTimeout, MIN_HEARTBEAT, MAX_HEARTBEAT);
            if (heartbeatTimeout.compareTo(livenessCheckInterval) <= 0) {
                throw new ConfigException(Setting.HEARTBEAT_TIMEOUT.key(), Setting.HEARTBEAT_TIMEOUT.key() + ": "
                        + Values.format(heartbeatTimeout) + " must be longer than "
                        + Setting.LIVENESS_CHECK_INTERVAL.key() + " (" + Values.format(livenessCheckInterval) + ")");
            }
            Values.checkRange(Setting.DISPLAY_REFRESH_INTERVAL.key(), displayRefreshInterval, MIN_REFRESH,
                    MAX_REFRESH);
            Values.host(Setting.TCP_HOST.key(), tcpHost);
            Values.checkRange(Setting.TCP_PORT.key(), tcpPort, 0, 65_535);
            Values.host(Setting.METRICS_HOST.key(), metricsHost);
            Values.checkRange(Setting.METRICS_PORT.key(), metricsPort, 0, 65_535);

            DaemonConfig c = new DaemonConfig(this);
            int socketBytes = c.socketPath.toString().getBytes(StandardCharsets.UTF_8).length;
            if (socketBytes > MAX_SOCKET_PATH_BYTES) {
                throw new ConfigException(Setting.SOCKET_PATH.key(), Setting.SOCKET_PATH.key() + ": " + c.socketPath
                        + " is " + socketBytes + " bytes long; Unix socket paths are limited to "
                        + MAX_SOCKET_PATH_BYTES + " bytes, choose a shorter one");
            }
            checkDisjoint(c);
            checkTcp(c);
            checkMetrics(c);
            return c;
        }

        private static void requireAbsolute(Setting s, Path p) {
            if (p != null && !p.isAbsolute()) {
                throw new ConfigException(s.key(), s.key() + ": " + p + " is not an absolute path");
            }
        }

        /** Buffer files in the data tree (or the reverse) would be read as foreign day files. */
        private static void checkDisjoint(DaemonConfig c) {
            Path data = c.dataDir.normalize();
            Path buffers = c.bufferDir.normalize();
            if (data.startsWith(buffers) || buffers.startsWith(data)) {
                throw new ConfigException(Setting.BUFFER_DIR.key(), Setting.BUFFER_DIR.key() + " (" + buffers
                        + ") and " + Setting.DATA_DIR.key() + " (" + data
                        + ") must be separate directories, neither inside the other");
            }
        }

        /** The exposition follows the TCP rules: off loopback it needs TLS and the bearer token. */
        private static void checkMetrics(DaemonConfig c) {
            if (c.metricsEnabled && !Values.isLoopback(c.metricsHost)) {
                if (c.tlsCertFile == null) {
                    throw new ConfigException(Setting.TLS_CERT.key(), Setting.METRICS_HOST.key() + ": "
                            + c.metricsHost + " is reachable from other machines, so metrics need TLS: set "
                            + Setting.TLS_CERT.key() + " and " + Setting.TLS_KEY.key() + " (or listen on 127.0.0.1)");
                }
                if (c.tokenFile == null) {
                    throw new ConfigException(Setting.TOKEN_FILE.key(), Setting.METRICS_HOST.key() + ": "
                            + c.metricsHost + " is reachable from other machines, so metrics need a bearer token: set "
                            + Setting.TOKEN_FILE.key() + " (or listen on 127.0.0.1)");
                }
            }
        }

        private static void checkTcp(DaemonConfig c) {
            if ((c.tlsCertFile == null) != (c.tlsKeyFile == null)) {
                Setting missing = c.tlsCertFile == null ? Setting.TLS_CERT : Setting.TLS_KEY;
                throw new ConfigException(missing.key(), missing.key() + ": not set; TLS needs both "
                        + Setting.TLS_CERT.key() + " and " + Setting.TLS_KEY.key());
            }
            if (c.tcpEnabled && !Values.isLoopback(c.tcpHost)) {
                if (c.tlsCertFile == null) {
                    throw new ConfigException(Setting.TLS_CERT.key(), Setting.TCP_HOST.key() + ": " + c.tcpHost
                            + " is reachable from other machines, so TCP needs TLS: set " + Setting.TLS_CERT.key()
                            + " and " + Setting.TLS_KEY.key() + " (or listen on 127.0.0.1)");
                }
                if (c.tokenFile == null) {
                    throw new ConfigException(Setting.TOKEN_FILE.key(), Setting.TCP_HOST.key() + ": " + c.tcpHost
                            + " is reachable from other machines, so TCP needs a client token: set "
                            + Setting.TOKEN_FILE.key() + " (or listen on 127.0.0.1)");
                }
            }
        }
    }
}
