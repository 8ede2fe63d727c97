package io.gfxstats.daemon.config;

import io.gfxstats.rpc.SocketPaths;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * One daemon setting, declared once: its key (in the properties file and {@code --set}), its
 * default, what it means (the text {@code config/gfxstatsd.properties} shows above it), how its
 * value is parsed, checked and printed back. The declarations below are the only list of
 * settings: the loader, the builder, {@code --print-config} and the shipped file all follow it.
 *
 * <p>Adding a setting: declare it here (in the section it belongs to), read it where it is used
 * with {@code config.get(Setting.X)}, and regenerate the shipped file (see
 * {@link ShippedConfigFile}). Rules that tie several settings together live in
 * {@link DaemonConfig.Builder#build()}.
 *
 * <p>Path defaults may use {@code ${state.dir}}, the only variable there is.
 */
public final class Setting<T> {
    private static final List<Setting<?>> ALL = new ArrayList<>();

    // Sub-second flushes are for tests that kill the daemon mid-save; production wants minutes.
    private static final Duration MIN_FLUSH = Duration.ofMillis(100);

    // --- Where things live ---

    public static final Setting<Path> STATE_DIR = path("state.dir", "", true, """
            Base directory for the three paths below. Empty means $XDG_STATE_HOME/gfxstats, or
            ~/.local/state/gfxstats when XDG_STATE_HOME is unset: a directory the user owns, so the
            daemon needs no root. Created with mode 0700 when missing.""")
            .startsSection("Where things live");

    public static final Setting<Path> DATA_DIR = path("data.dir", "${state.dir}/data", false, """
            Persisted day files: <data.dir>/<dayStartMillis>/<package>/<versionCode>/total, plus
            <data.dir>/quarantine/ for files that could not be read (see docs/day-files.md). Only one
            daemon may use a data directory at a time.""");

    public static final Setting<Path> BUFFER_DIR = path("buffer.dir", "${state.dir}/buffers", false, """
            Live client buffers (one memory-mapped file per registered process). Must not be inside
            data.dir, nor data.dir inside it.""");

    public static final Setting<Path> SOCKET_PATH = path("socket.path", "${state.dir}/gfxstatsd.sock", false, """
            The gRPC Unix socket that clients and `gfxstats` connect to. At most %d bytes long (a
            limit of Unix sockets); pick a shorter path if your home directory is very deep.""".formatted(
            SocketPaths.MAX_PATH_BYTES));

    // --- Saving and retention ---

    public static final Setting<Duration> FLUSH_INTERVAL = duration("flush.interval", "10m", MIN_FLUSH,
            Duration.ofDays(1), """
            How often live buffers are harvested into their day files (100ms to 1d). Buffers are also saved
            when their process exits, at UTC midnight and at shutdown; this bounds what a power loss can
            cost.""")
            .startsSection("Saving and retention");

    public static final Setting<Integer> RETENTION_DAYS = integer("retention.days", "3", 1, 3650, """
            How many of the most recent day directories are kept (1 to 3650); older ones are deleted.
            Android keeps 3.""");

    public static final Setting<Long> DATA_FILE_MAX_SIZE = size("data.file.max.size", "4MiB", 64L << 10, 256L << 20, """
            The largest day file the daemon reads (64KiB to 256MiB). Real ones are a few KB; a bigger
            file is moved to <data.dir>/quarantine/ unread, so that one odd file cannot exhaust the
            daemon's memory (keep it well below the heap, -Xmx, 64m by default), and a save that would
            write one fails and is retried, its frames kept in the live buffers.""");

    // --- Clients ---

    public static final Setting<Integer> MAX_BUFFERS = integer("buffers.max", "1024", 1, 65_536, """
            The most live buffers (registered processes) at once, 1 to 65536. A registration beyond it
            is refused with an error saying so.""")
            .startsSection("Clients");

    public static final Setting<Integer> MAX_BUFFERS_PER_PID = integer("buffers.max.per.pid", "64", 1, 65_536, """
            The most live buffers one process may hold at once, 1 to 65536 (a renderer needs one per
            package and version it records). A registration beyond it is refused as "daemon full",
            naming this setting, so one process cannot take every slot.""");

    public static final Setting<Integer> MAX_BUFFERS_PER_UID = integer("buffers.max.per.uid", "1024", 1, 65_536, """
            The most live buffers the processes of one user may hold at once, 1 to 65536. Only matters
            for a daemon that serves several users (run as root): lower it so that one user cannot take
            every slot of buffers.max.""");

    public static final Setting<Boolean> NATIVE_RINGS = bool("buffers.native.rings", "true", """
            Whether a native client (libgfxstats) that asks for it gets its frame rings in its buffer
            file, so that the frames it recorded and had not counted yet are counted by the daemon
            when it is killed (SIGKILL). They cost 87,424 bytes per stripe, 1.4 MiB per buffer at 16
            stripes (the page cache, not the daemon's heap). false: the rings stay in the client's
            memory, and a SIGKILL loses up to one drain period of its frames.""");

    public static final Setting<Duration> LIVENESS_CHECK_INTERVAL = duration("liveness.check.interval", "250ms",
            Duration.ofMillis(10), Duration.ofSeconds(10), """
            How often the daemon checks that registered processes still exist (10ms to 10s). A process
            that exits is noticed, and its final counts saved, within about this long.""");

    public static final Setting<Duration> HEARTBEAT_TIMEOUT = duration("heartbeat.timeout", "10s",
            Duration.ofMillis(100), Duration.ofHours(1), """
            How long a live buffer's heartbeat may stand still before its owner is considered gone even
            if its pid exists (pid reuse, a client that lost the daemon). 100ms to 1h, longer than
            liveness.check.interval.""");

    public static final Setting<Duration> DISPLAY_REFRESH_INTERVAL = duration("client.display.refresh.interval",
            "16666667ns", Duration.ofNanos(100_000), Duration.ofSeconds(1), """
            Frame interval that clients assume when they cannot learn the display's refresh rate
            (16666667ns = 60 Hz). 100us to 1s.""");

    public static final Setting<Integer> MAX_DUMPS = integer("dumps.max", "4", 1, 64, """
            Dumps streamed at once, 1 to 64 (each holds a thread and a chunk buffer). More are refused
            with "too many dumps in progress".""");

    public static final Setting<Integer> MAX_DUMPS_PER_PEER = integer("dumps.max.per.peer", "2", 1, 64, """
            Dumps one peer may have in progress at once, 1 to 64: a process on the Unix socket, an IP
            address on TCP. Keeps one stuck reader from taking every slot of dumps.max.""");

    public static final Setting<Duration> DUMP_STALL_TIMEOUT = duration("dump.stall.timeout", "10s",
            Duration.ofMillis(100), Duration.ofHours(1), """
            How long a dump may wait for its client to read (no progress at all) before it is cancelled
            with DEADLINE_EXCEEDED and its slot freed, 100ms to 1h. A client whose receive window stays
            0, or a pager nobody scrolls, cannot hold a slot longer than this.""");

    public static final Setting<Integer> MAX_CONNECTIONS = integer("connections.max", "2048", 2, 1_000_000, """
            Connections kept open at once, over the Unix socket and TCP together (each registered process
            holds one). Beyond it, new connections are closed at once. Lowered at start-up to half the
            open-file limit (ulimit -n, systemd's LimitNOFILE=) if that is smaller.""");

    public static final Setting<Integer> MAX_CONNECTIONS_PER_PEER = integer("connections.max.per.peer", "64", 1,
            1_000_000, """
            Connections one other peer may hold: another user on the Unix socket, an address on TCP.
            The daemon's own user on the Unix socket is not limited by it.""");

    public static final Setting<Integer> OWNER_RESERVE = integer("connections.owner.reserve", "256", 0, 999_999, """
            Connections only the daemon's own user, on the Unix socket, may take: however many
            connections others open, this many stay for the owner's dumps and registrations. Less than
            connections.max.""");

    public static final Setting<Duration> TCP_IDLE_TIMEOUT = duration("tcp.idle.timeout", "10s", Duration.ofMillis(100),
            Duration.ofHours(1), """
            A TCP connection that has made no call (no TLS handshake, no token, nothing) within this
            long is closed, and so is one with no call in progress for this long. 100ms to 1h.""");

    public static final Setting<String> READERS_GROUP = new Setting<>("readers.group", "", Kind.GROUP, Values::group,
            (k, v) -> { }, Function.identity(), """
            For a daemon that serves several users (run as root): a group (name or number) whose members
            see every user's entries in dumps, pulls, scenes and watch. Everyone else on the Unix socket
            sees only the entries of their own uid; root and the daemon's own user always see all. Empty
            means no such group. Membership is the calling process's groups (/proc/<pid>/status).""");

    public static final Setting<String> COMPOSITOR_GROUP = new Setting<>("compositor.group", "", Kind.GROUP,
            Values::group, (k, v) -> { }, Function.identity(), """
            Who may feed the daemon the display frames of a compositor (FeedDisplayFrames, `gfxstats
            timeline feed`; docs/frametimeline.md, compositor mode) besides root and the daemon's own
            user: a group (name or number) whose members may, e.g. the users of a root daemon that
            run their own compositor. Empty means no one else. Membership as for readers.group.""");

    // --- Remote access ---

    public static final Setting<Boolean> TCP_ENABLED = bool("tcp.enabled", "false", """
            Also serve the gRPC API on TCP. The Unix socket is always served.""")
            .startsSection("Remote access (gRPC over TCP, for fleet collectors)");

    public static final Setting<String> TCP_HOST = new Setting<>("tcp.host", "127.0.0.1", Kind.HOST, Values::host,
            (k, v) -> { }, Function.identity(), """
            Address to listen on. Anything other than a loopback address (127.0.0.1, ::1, localhost)
            requires tcp.tls.cert, tcp.tls.key and tcp.token.file.""");

    public static final Setting<Integer> TCP_PORT = integer("tcp.port", "50151", 0, 65_535, """
            TCP port; 0 picks a free one (the daemon logs which).""");

    public static final Setting<Path> TLS_CERT = path("tcp.tls.cert", "", true, """
            TLS certificate chain and private key (PEM files). Set both or neither; empty means no TLS.""");

    public static final Setting<Path> TLS_KEY = path("tcp.tls.key", "", true, "").underThePrevious();

    public static final Setting<Path> TOKEN_FILE = path("tcp.token.file", "", true, """
            File holding the bearer token that TCP clients must present. Empty means no token check
            (only allowed on loopback).""");

    // --- Prometheus ---

    public static final Setting<Boolean> METRICS_ENABLED = bool("metrics.enabled", "false", """
            Serve /metrics over HTTP for Prometheus: per-(package, version, uid) frame counters and
            histograms, and daemon health. Off by default.""")
            .startsSection("Prometheus / OpenMetrics exposition (docs/operations.md)");

    public static final Setting<String> METRICS_HOST = new Setting<>("metrics.host", "127.0.0.1", Kind.HOST,
            Values::host, (k, v) -> { }, Function.identity(), """
            Address to listen on. Like tcp.host: anything other than a loopback address requires
            tcp.tls.cert and tcp.tls.key (the exposition is then HTTPS) and tcp.token.file (scrapers
            send it as "Authorization: Bearer ...").""");

    public static final Setting<Integer> METRICS_PORT = integer("metrics.port", "50152", 0, 65_535, """
            HTTP port; 0 picks a free one (the daemon logs which).""");

    public static final Setting<String> METRICS_ACCESS = new Setting<>("metrics.access", "any", Kind.ACCESS,
            Values::access, (k, v) -> { }, Function.identity(), """
            Which local users may scrape: "any" (everyone who can reach the port, and has the token
            when tcp.token.file is set), "owner" (root and the daemon's own user), or a comma-separated
            list of user names and uids (root and the daemon's user are always allowed). The user of
            a loopback peer is read from /proc/net/tcp and /proc/net/tcp6; when it is not "any", a
            peer whose user cannot be known (not on loopback) is refused. Refused scrapes get 403.""");

    // --- The declarations end here. ---

    /** How a value is read. Paths are resolved by the loader, which knows where they came from. */
    enum Kind { PATH, PATH_OR_EMPTY, DURATION, INT, SIZE, BOOL, HOST, GROUP, ACCESS }

    private final String key;
    private final String defaultValue;
    private final Kind kind;
    private final BiFunction<String, String, T> parser;
    private final BiConsumer<String, T> check;
    private final Function<T, String> printer;
    private final String meaning;
    private String section;
    private boolean sharesDoc;

    private Setting(String key, String defaultValue, Kind kind, BiFunction<String, String, T> parser,
            BiConsumer<String, T> check, Function<T, String> printer, String meaning) {
        this.key = key;
        this.defaultValue = defaultValue;
        this.kind = kind;
        this.parser = parser;
        this.check = check;
        this.printer = printer;
        this.meaning = meaning;
        ALL.add(this);
    }

    private static Setting<Duration> duration(String key, String def, Duration min, Duration max, String meaning) {
        return new Setting<>(key, def, Kind.DURATION, Values::duration,
                (k, v) -> Values.checkRange(k, v, min, max), Values::format, meaning);
    }

    private static Setting<Integer> integer(String key, String def, int min, int max, String meaning) {
        return new Setting<>(key, def, Kind.INT, Values::integer,
                (k, v) -> Values.checkRange(k, v, min, max), String::valueOf, meaning);
    }

    private static Setting<Long> size(String key, String def, long min, long max, String meaning) {
        return new Setting<>(key, def, Kind.SIZE, Values::size,
                (k, v) -> Values.checkSizeRange(k, v, min, max), Values::formatSize, meaning);
    }

    private static Setting<Boolean> bool(String key, String def, String meaning) {
        return new Setting<>(key, def, Kind.BOOL, Values::bool, (k, v) -> { }, String::valueOf, meaning);
    }

    /** An absolute path; {@code optional}: empty means none (null). */
    private static Setting<Path> path(String key, String def, boolean optional, String meaning) {
        return new Setting<>(key, def, optional ? Kind.PATH_OR_EMPTY : Kind.PATH, (k, v) -> {
            throw new IllegalStateException(k + " is a path; the loader resolves it");
        }, (k, v) -> {
            if (v != null && !v.isAbsolute()) {
                throw new ConfigException(k, k + ": " + v + " is not an absolute path");
            }
        }, String::valueOf, meaning);
    }

    private Setting<T> startsSection(String title) {
        this.section = title;
        return this;
    }

    private Setting<T> underThePrevious() {
        this.sharesDoc = true;
        return this;
    }

    public String key() {
        return key;
    }

    /** The default as written in the properties file ("" = none / derived, see the file). */
    public String defaultValue() {
        return defaultValue;
    }

    /** What the setting means, as the shipped file explains it (empty: explained with the previous one). */
    public String meaning() {
        return meaning;
    }

    /** The heading of the section this setting opens in the shipped file, if it opens one. */
    public Optional<String> section() {
        return Optional.ofNullable(section);
    }

    /** Whether the shipped file lists this setting right under the previous one, sharing its text. */
    public boolean sharesDocWithPrevious() {
        return sharesDoc;
    }

    Kind kind() {
        return kind;
    }

    boolean isPath() {
        return kind == Kind.PATH || kind == Kind.PATH_OR_EMPTY;
    }

    /** Parses a non-path value; errors name the key. */
    T parse(String value) {
        return parser.apply(key, value);
    }

    /** Checks a value against this setting's own limits; errors name the key. */
    void check(T value) {
        if (value == null && kind != Kind.PATH_OR_EMPTY) {
            throw new ConfigException(key, key + ": not set");
        }
        check.accept(key, value);
    }

    @SuppressWarnings("unchecked")
    void checkValue(Object value) {
        check((T) value);
    }

    /** The value of this setting in {@code config}, spelled so that loading it gives it back. */
    public String valueIn(DaemonConfig config) {
        T v = config.get(this);
        return v == null ? "" : printer.apply(v);
    }

    /** Every setting, in declaration order (the order of the shipped file and {@code --print-config}). */
    public static List<Setting<?>> all() {
        return Collections.unmodifiableList(ALL);
    }

    public static Optional<Setting<?>> byKey(String key) {
        return ALL.stream().<Setting<?>>map(s -> s).filter(s -> s.key.equals(key)).findFirst();
    }

    @Override
    public String toString() {
        return key;
    }

    /** The "unknown setting" error, with the closest known key when it is a likely typo. */
    static ConfigException unknown(String key) {
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (Setting<?> s : ALL) {
            int d = distance(key, s.key);
            if (d < bestDistance) {
                bestDistance = d;
                best = s.key;
            }
        }
        String hint = bestDistance <= Math.max(2, key.length() / 4) ? " (did you mean " + best + "?)" : "";
        return new ConfigException(key, "unknown setting '" + key + "'" + hint + "; known settings: "
                + String.join(", ", ALL.stream().map(Setting::key).toList()));
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
