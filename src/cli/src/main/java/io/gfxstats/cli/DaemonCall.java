package io.gfxstats.cli;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.MessageOrBuilder;
import com.google.protobuf.util.JsonFormat;
import io.gfxstats.args.Args;
import io.gfxstats.args.UsageException;
import io.gfxstats.rpc.ClientOptions;
import io.gfxstats.rpc.GfxStatsClient;
import io.gfxstats.rpc.GfxStatsClientException;
import io.gfxstats.rpc.SocketPaths;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/** What the commands talking to the local daemon share: where its socket is, how failures read. */
final class DaemonCall {
    static final String SOCKET_OPTION = "--socket";
    static final String SOCKET_HELP = "daemon socket (default: $" + SocketPaths.SOCKET_ENV
            + ", else $XDG_STATE_HOME/gfxstats/" + SocketPaths.SOCKET_FILE_NAME + ")";
    static final String DEADLINE_OPTION = "--deadline";
    static final String DEADLINE_HELP = "give up after this many seconds (default 10)";
    static final Duration DEFAULT_DEADLINE = Duration.ofSeconds(10);
    static final double MAX_DEADLINE_SECONDS = 24 * 3600;
    private static final String NETTY_JFR = "io.grpc.netty.shaded.io.netty.jfr.enabled";
    private static final String SELECTOR_PROVIDER = "java.nio.channels.spi.SelectorProvider";
    private static final String BUILT_IN_SELECTOR_PROVIDER = "sun.nio.ch.EPollSelectorProvider";

    private DaemonCall() {
    }

    /** {@code --socket}, else the environment's choice, else the default (see {@link SocketPaths}). */
    static Path socket(Args.Parsed args, Map<String, String> env) {
        return SocketPaths.resolve(args.value(SOCKET_OPTION), env);
    }

    /**
     * Netty 4.2's buffer allocator emits JFR events, and their first use initializes JFR: about
     * 100 ms of a command's start. A command has no use for them. Must run before Netty's first
     * use; an explicit -D setting wins.
     */
    static void quietNetty() {
        if (System.getProperty(NETTY_JFR) == null) {
            System.setProperty(NETTY_JFR, "false");
        }
    }

    /**
     * The first socket channel of a JVM asks SelectorProvider for its provider, which, unless this
     * property names one, searches every jar on the class path for a service file: the 28 MB jar
     * is opened and indexed, about 10 ms of a {@code gfxstats dump}. The search ends in the JDK's
     * built-in provider; naming it skips the search. Only when the JDK has that class (Linux) and
     * nobody chose a provider.
     */
    static void skipSelectorProviderSearch() {
        if (System.getProperty(SELECTOR_PROVIDER) != null) {
            return;
        }
        try {
            Class.forName(BUILT_IN_SELECTOR_PROVIDER, false, null);
            System.setProperty(SELECTOR_PROVIDER, BUILT_IN_SELECTOR_PROVIDER);
        } catch (ClassNotFoundException | LinkageError e) {
            // Another JDK or platform: the search it is.
        }
    }

    /**
     * A client for the daemon named by {@code --socket} (else the environment, else the default),
     * each call bounded by {@code --deadline}.
     */
    static GfxStatsClient open(Args.Parsed args, Map<String, String> env) throws UsageException {
        return open(socket(args, env), deadline(args));
    }

    /** One call of a command on a client it does not keep. */
    @FunctionalInterface
    interface Rpc<T> {
        T call(GfxStatsClient client) throws GfxStatsClientException;
    }

    /**
     * Opens a client as {@link #open(Args.Parsed, Map)} does, makes one call and closes it; a failed
     * call becomes the command's one-line error ({@link #failed}).
     */
    static <T> T call(Args.Parsed args, Map<String, String> env, Rpc<T> rpc) throws UsageException {
        try (GfxStatsClient client = open(args, env)) {
            return rpc.call(client);
        } catch (GfxStatsClientException e) {
            throw failed(e);
        }
    }

    /**
     * A daemon's answer in canonical proto3 JSON (lowerCamelCase names, 64-bit numbers as strings),
     * zero counters included so that tools see every field.
     */
    static String json(MessageOrBuilder answer) throws UsageException {
        try {
            return JsonFormat.printer().alwaysPrintFieldsWithNoPresence().print(answer);
        } catch (InvalidProtocolBufferException e) {
            throw new UsageException("cannot print the daemon's answer as JSON: " + e.getMessage(), e);
        }
    }

    /** {@code --deadline}, else the default. */
    static Duration deadline(Args.Parsed args) throws UsageException {
        return args.seconds(DEADLINE_OPTION, DEFAULT_DEADLINE, MAX_DEADLINE_SECONDS);
    }

    private static GfxStatsClient open(Path socket, Duration deadline) throws UsageException {
        quietNetty();
        ClientOptions options = ClientOptions.DEFAULTS.withDumpDeadline(deadline).withPullDeadline(deadline);
        try {
            return GfxStatsClient.unix(socket, options);
        } catch (RuntimeException | LinkageError e) {
            // E.g. Netty's epoll transport missing on this system: one line, not a stack trace.
            throw new UsageException("cannot connect to " + socket + ": " + e, e);
        }
    }

    /**
     * The client's message is already one line naming the daemon's address; it becomes the command's
     * one-line error (exit code 2).
     */
    static UsageException failed(GfxStatsClientException e) {
        return new UsageException(e.getMessage(), e);
    }
}
