package io.gfxstats.cli;

import io.gfxstats.dump.DumpFormat;
import io.gfxstats.rpc.GfxStatsClient;
import io.gfxstats.rpc.GfxStatsClientException;
import io.gfxstats.rpc.v1.DumpRequest;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.util.Map;

/**
 * {@code gfxstats dump}: the daemon's {@code dumpsys graphicsstats} text, or with {@code --proto}
 * the serialized GraphicsStatsServiceDumpProto, copied to stdout byte for byte as it streams in.
 */
final class DumpCommand implements Command {
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
        return "dump [--socket PATH] [--proto] [--package NAME] [--format " + FORMAT_NAMES + "]";
    }

    private static Args spec() {
        return new Args("dump")
                .value(DaemonCall.SOCKET_OPTION, "PATH", DaemonCall.SOCKET_HELP)
                .flag("--proto", "write the binary GraphicsStatsServiceDumpProto instead of text")
                .value("--package", "NAME", "only this package")
                .value("--format", "FORMAT", "text variant: " + FORMAT_NAMES + " (default android14)")
                .value(DaemonCall.DEADLINE_OPTION, "SECONDS", DaemonCall.DEADLINE_HELP);
    }

    @Override
    public int run(String[] argv, InputStream in, PrintStream out, PrintStream err) throws UsageException {
        Args spec = spec();
        Args.Parsed args = spec.parse(argv);
        if (args.help()) {
            out.print(spec.help(synopsis(), "Prints what `adb shell dumpsys graphicsstats` would print, byte for byte."));
            return 0;
        }
        args.exclusive("--proto", "--format");
        DumpRequest.Builder request = DumpRequest.newBuilder().setProto(args.has("--proto"));
        if (args.has("--package")) {
            request.setPackageName(args.value("--package"));
        }
        if (args.has("--format")) {
            request.setFormat(wireFormat(args.value("--format")));
        }
        OutputStream stdout = BinaryStdout.of(out);
        try (GfxStatsClient client = DaemonCall.open(args, env)) {
            client.dump(request.build(), stdout);
            return 0;
        } catch (GfxStatsClientException e) {
            throw DaemonCall.failed(e);
        } catch (IOException e) {
            return BinaryStdout.writeFailed(e);
        }
    }

    static io.gfxstats.rpc.v1.DumpFormat wireFormat(String name) throws UsageException {
        DumpFormat format;
        try {
            format = DumpFormat.parse(name);
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage(), e);
        }
        return switch (format) {
            case ANDROID14 -> io.gfxstats.rpc.v1.DumpFormat.ANDROID14;
            case ANDROID11 -> io.gfxstats.rpc.v1.DumpFormat.ANDROID11;
            case ANDROID9 -> io.gfxstats.rpc.v1.DumpFormat.ANDROID9;
            case ANDROID8 -> io.gfxstats.rpc.v1.DumpFormat.ANDROID8;
        };
    }
}
