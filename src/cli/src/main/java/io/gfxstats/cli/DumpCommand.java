package io.gfxstats.cli;

import io.gfxstats.args.Args;
import io.gfxstats.args.UsageException;
import io.gfxstats.dump.DumpFormat;
import io.gfxstats.dumpclient.DumpQuery;
import io.gfxstats.dumpclient.UnixDumpClient;
import io.gfxstats.rpc.GfxStatsClientException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Map;

/**
 * {@code gfxstats dump}: the daemon's {@code dumpsys graphicsstats} text, or with {@code --proto}
 * the serialized GraphicsStatsServiceDumpProto, copied to stdout byte for byte as it streams in.
 * Goes through {@link UnixDumpClient}, not a grpc-java channel: people type this command, and the
 * small client starts several times faster (docs/benchmarks.md, "CLI start-up").
 */
final class DumpCommand extends OptionsCommand {
    /** Exit code when the reader of stdout went away (128 + SIGPIPE, as a shell tool killed by it). */
    static final int EXIT_BROKEN_PIPE = 141;
    /**
     * {@link DumpFormat#names()} as a constant: computing it streams over the enum, which costs every
     * {@code gfxstats dump} a few milliseconds of lambda linkage for a help text it rarely prints.
     * A test keeps the two equal.
     */
    static final String FORMAT_NAMES = "android14|android11|android9|android8";

    private final Map<String, String> env;

    DumpCommand() {
        this(System.getenv());
    }

    DumpCommand(Map<String, String> env) {
        this.env = env;
    }

    @Override
    public String name() {
        return "dump";
    }

    @Override
    public String synopsis() {
        return "dump [--socket PATH] [--from FILE] [--proto] [--package NAME] [--format " + FORMAT_NAMES
                + "] [--frametimeline] [--deadline SECONDS]";
    }

    @Override
    Args options() {
        return new Args("dump")
                .value(DaemonCall.SOCKET_OPTION, "PATH", DaemonCall.SOCKET_HELP)
                .flag("--proto", "write the binary GraphicsStatsServiceDumpProto instead of text")
                .value("--package", "NAME", "only this package")
                .value("--format", "FORMAT", "text variant: " + FORMAT_NAMES + " (default android14)")
                .flag("--frametimeline", "the FrameTimeline summary per package instead (TimeStats-style text)")
                .value("--from", "FILE", "read a GraphicsStatsServiceDumpProto file (collect's merged.pb, dump --proto's"
                        + " output) instead of asking the daemon")
                .value(DaemonCall.DEADLINE_OPTION, "SECONDS", DaemonCall.DEADLINE_HELP);
    }

    @Override
    String about() {
        return "Prints what `adb shell dumpsys graphicsstats` would print, byte for byte.";
    }

    @Override
    int execute(Args.Parsed args, InputStream in, PrintStream out, PrintStream err) throws UsageException {
        args.exclusive("--proto", "--format");
        args.exclusive("--frametimeline", "--proto");
        args.exclusive("--frametimeline", "--format");
        DumpQuery query = new DumpQuery(args.has("--proto"), args.has("--package") ? args.value("--package") : "",
                args.has("--format") ? format(args.value("--format")) : null, args.has("--frametimeline"));
        if (args.has("--from")) {
            args.exclusive("--from", DaemonCall.SOCKET_OPTION);
            args.exclusive("--from", "--frametimeline");
            return DumpFromFile.run(Path.of(args.value("--from")), query, BinaryStdout.of(out), err);
        }
        boolean grpcJava = grpcJava(env);
        CountingOutputStream stdout = new CountingOutputStream(BinaryStdout.of(out));
        try {
            if (grpcJava) {
                GrpcJavaDump.dump(args, env, query, stdout);
            } else {
                DaemonCall.skipSelectorProviderSearch();
                new UnixDumpClient(DaemonCall.socket(args, env), DaemonCall.deadline(args)).dump(query, stdout);
            }
            if (stdout.count() == 0) {
                // Android prints nothing either; a person at a terminal deserves to know it is not a failure.
                err.println("gfxstats dump: no data yet" + (query.packageName().isEmpty() ? ""
                        : " for " + query.packageName()) + ": no frames recorded and no day file retained");
            }
            return 0;
        } catch (GfxStatsClientException e) {
            throw DaemonCall.failed(e);
        } catch (IOException e) {
            return BinaryStdout.writeFailed(e);
        }
    }

    /**
     * {@value #CLIENT_ENV}: which client makes the call. The small HTTP/2 client of
     * {@link io.gfxstats.dumpclient.h2} by default (a fraction of grpc-java's start-up, docs/cli.md);
     * {@code grpc} uses grpc-java's channel like every other command: the escape hatch should the
     * small client ever misread a daemon, and the peer that scripts/bench-startup measures it against.
     */
    static boolean grpcJava(Map<String, String> env) throws UsageException {
        String value = env.getOrDefault(CLIENT_ENV, "");
        return switch (value) {
            case "", "h2" -> false;
            case "grpc" -> true;
            default -> throw new UsageException(CLIENT_ENV + " must be h2 (the default) or grpc, got '" + value + "'");
        };
    }

    static final String CLIENT_ENV = "GFXSTATS_DUMP_CLIENT";

    static DumpFormat format(String name) throws UsageException {
        try {
            return DumpFormat.parse(name);
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage(), e);
        }
    }
}
