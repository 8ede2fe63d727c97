package io.gfxstats.cli;

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

    private DaemonCall() {
    }

    /** {@code --socket}, else the environment's choice, else the default (see {@link SocketPaths}). */
    static Path socket(Args.Parsed args, Map<String, String> env) {
        return SocketPaths.resolve(args.value(SOCKET_OPTION), env);
    }

    static GfxStatsClient open(Path socket, Duration deadline) {
        ClientOptions options = ClientOptions.DEFAULTS.withDumpDeadline(deadline).withPullDeadline(deadline);
        return GfxStatsClient.unix(socket, options);
    }

    /**
     * The client's message is already one line naming the daemon's address; it becomes the command's
     * one-line error (exit code 2).
     */
    static UsageException failed(GfxStatsClientException e) {
        return new UsageException(e.getMessage(), e);
    }
}
