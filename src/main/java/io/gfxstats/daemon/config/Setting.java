package io.gfxstats.daemon.config;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * Every daemon setting: its key in {@code config/gfxstatsd.properties} and {@code --set}, its
 * default (the single source of truth: the builder starts from these strings, and a test checks
 * that the documented file says the same), how it is parsed and how it is printed back.
 *
 * <p>Path defaults may use {@code ${state.dir}}, the only variable there is.
 */
public enum Setting {
    STATE_DIR("state.dir", "", Kind.PATH_OR_EMPTY,
            (b, v) -> b.stateDir((Path) v), c -> c.stateDir().toString()),
    DATA_DIR("data.dir", "${state.dir}/data", Kind.PATH,
            (b, v) -> b.dataDir((Path) v), c -> c.dataDir().toString()),
    BUFFER_DIR("buffer.dir", "${state.dir}/buffers", Kind.PATH,
            (b, v) -> b.bufferDir((Path) v), c -> c.bufferDir().toString()),
    SOCKET_PATH("socket.path", "${state.dir}/gfxstatsd.sock", Kind.PATH,
            (b, v) -> b.socketPath((Path) v), c -> c.socketPath().toString()),
    FLUSH_INTERVAL("flush.interval", "10m", Kind.DURATION,
            (b, v) -> b.flushInterval((java.time.Duration) v), c -> Values.format(c.flushInterval())),
    RETENTION_DAYS("retention.days", "3", Kind.INT,
            (b, v) -> b.retentionDays((Integer) v), c -> Integer.toString(c.retentionDays())),
    MAX_BUFFERS("buffers.max", "1024", Kind.INT,
            (b, v) -> b.maxBuffers((Integer) v), c -> Integer.toString(c.maxBuffers())),
    LIVENESS_CHECK_INTERVAL("liveness.check.interval", "250ms", Kind.DURATION,
            (b, v) -> b.livenessCheckInterval((java.time.Duration) v), c -> Values.format(c.livenessCheckInterval())),
    HEARTBEAT_TIMEOUT("heartbeat.timeout", "10s", Kind.DURATION,
            (b, v) -> b.heartbeatTimeout((java.time.Duration) v), c -> Values.format(c.heartbeatTimeout())),
    DISPLAY_REFRESH_INTERVAL("client.display.refresh.interval", "16666667ns", Kind.DURATION,
            (b, v) -> b.displayRefreshInterval((java.time.Duration) v),
            c -> Values.format(c.displayRefreshInterval())),
    TCP_ENABLED("tcp.enabled", "false", Kind.BOOL,
            (b, v) -> b.tcpEnabled((Boolean) v), c -> Boolean.toString(c.tcpEnabled())),
    TCP_HOST("tcp.host", "127.0.0.1", Kind.HOST,
            (b, v) -> b.tcpHost((String) v), DaemonConfig::tcpHost),
    TCP_PORT("tcp.port", "50151", Kind.INT,
            (b, v) -> b.tcpPort((Integer) v), c -> Integer.toString(c.tcpPort())),
    TLS_CERT("tcp.tls.cert", "", Kind.PATH_OR_EMPTY,
            (b, v) -> b.tlsCertFile((Path) v), c -> c.tlsCertFile().map(Path::toString).orElse("")),
    TLS_KEY("tcp.tls.key", "", Kind.PATH_OR_EMPTY,
            (b, v) -> b.tlsKeyFile((Path) v), c -> c.tlsKeyFile().map(Path::toString).orElse("")),
    TOKEN_FILE("tcp.token.file", "", Kind.PATH_OR_EMPTY,
            (b, v) -> b.tokenFile((Path) v), c -> c.tokenFile().map(Path::toString).orElse("")),
    METRICS_ENABLED("metrics.enabled", "false", Kind.BOOL,
            (b, v) -> b.metricsEnabled((Boolean) v), c -> Boolean.toString(c.metricsEnabled())),
    METRICS_HOST("metrics.host", "127.0.0.1", Kind.HOST,
            (b, v) -> b.metricsHost((String) v), DaemonConfig::metricsHost),
    METRICS_PORT("metrics.port", "50152", Kind.INT,
            (b, v) -> b.metricsPort((Integer) v), c -> Integer.toString(c.metricsPort()));

    /** How a value is read. Paths are resolved by the loader, which knows where they came from. */
    enum Kind { PATH, PATH_OR_EMPTY, DURATION, INT, BOOL, HOST }

    private final String key;
    private final String defaultValue;
    private final Kind kind;
    private final BiConsumer<DaemonConfig.Builder, Object> setter;
    private final Function<DaemonConfig, String> printer;

    Setting(String key, String defaultValue, Kind kind, BiConsumer<DaemonConfig.Builder, Object> setter,
            Function<DaemonConfig, String> printer) {
        this.key = key;
        this.defaultValue = defaultValue;
        this.kind = kind;
        this.setter = setter;
        this.printer = printer;
    }

    public String key() {
        return key;
    }

    /** The default as written in the properties file ("" = none / derived, see the file). */
    public String defaultValue() {
        return defaultValue;
    }

    Kind kind() {
        return kind;
    }

    boolean isPath() {
        return kind == Kind.PATH || kind == Kind.PATH_OR_EMPTY;
    }

    /** The value of this setting in {@code config}, spelled so that loading it gives it back. */
    public String valueIn(DaemonConfig config) {
        return printer.apply(config);
    }

    public static List<Setting> all() {
        return List.of(values());
    }

    public static Optional<Setting> byKey(String key) {
        return Arrays.stream(values()).filter(s -> s.key.equals(key)).findFirst();
    }

    /** The "unknown setting" error, with the closest known key when it is a likely typo. */
    static ConfigException unknown(String key) {
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (Setting s : values()) {
            int d = distance(key, s.key);
            if (d < bestDistance) {
                bestDistance = d;
                best = s.key;
            }
        }
        String hint = bestDistance <= Math.max(2, key.length() / 4) ? " (did you mean " + best + "?)" : "";
        return new ConfigException(key, "unknown setting '" + key + "'" + hint + "; known settings: "
                + String.join(", ", Arrays.stream(values()).map(Setting::key).toList()));
    }

    /** Parses a non-path value and stores it in the builder. */
    void apply(DaemonConfig.Builder builder, String value) {
        Object parsed = switch (kind) {
            case DURATION -> Values.duration(key, value);
            case INT -> Values.integer(key, value);
            case BOOL -> Values.bool(key, value);
            case HOST -> Values.host(key, value);
            case PATH, PATH_OR_EMPTY -> throw new IllegalStateException(key + " is a path; resolve it first");
        };
        setter.accept(builder, parsed);
    }

    /** Stores an already resolved path (null: none). */
    void applyPath(DaemonConfig.Builder builder, Path path) {
        if (!isPath()) {
            throw new IllegalStateException(key + " is not a path");
        }
        setter.accept(builder, path);
    }

    private static int distance(String a, String b) {
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
    }
}
