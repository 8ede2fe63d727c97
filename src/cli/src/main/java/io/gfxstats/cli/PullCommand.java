package io.gfxstats.cli;

import io.gfxstats.args.Args;
import io.gfxstats.args.UsageException;
import io.gfxstats.rpc.v1.PullRequest;
import io.gfxstats.rpc.v1.PullResponse;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * {@code gfxstats pull}: the statsd-style pull of one UTC day (today, or the last full day), as a
 * table for people, the GraphicsStatsServiceDumpProto for tools ({@code --proto}) or the whole
 * answer in protobuf's canonical JSON ({@code --json}).
 */
final class PullCommand extends OptionsCommand {
    private final Map<String, String> env;

    PullCommand() {
        this(System.getenv());
    }

    PullCommand(Map<String, String> env) {
        this.env = env;
    }

    @Override
    public String name() {
        return "pull";
    }

    @Override
    public String synopsis() {
        return "pull [--socket PATH] [--last-full-day] [--proto|--json] [--deadline SECONDS]";
    }

    @Override
    Args options() {
        return new Args("pull")
                .value(DaemonCall.SOCKET_OPTION, "PATH", DaemonCall.SOCKET_HELP)
                .flag("--last-full-day", "pull yesterday (UTC) instead of today")
                .flag("--proto", "write PullResponse.stats as a binary GraphicsStatsServiceDumpProto")
                .flag("--json", "write the whole PullResponse as JSON")
                .value(DaemonCall.DEADLINE_OPTION, "SECONDS", DaemonCall.DEADLINE_HELP);
    }

    @Override
    String about() {
        return "One UTC day of statistics, merged per (uid, package, version), live data included.";
    }

    @Override
    int execute(Args.Parsed args, InputStream in, PrintStream out, PrintStream err) throws UsageException {
        args.exclusive("--proto", "--json");
        PullRequest request = PullRequest.newBuilder().setLastFullDay(args.has("--last-full-day")).build();

        PullResponse response = DaemonCall.call(args, env, client -> client.pull(request));

        OutputStream stdout = BinaryStdout.of(out);
        try {
            if (args.has("--proto")) {
                response.getStats().writeTo(stdout);
            } else if (args.has("--json")) {
                stdout.write((DaemonCall.json(response) + "\n").getBytes(StandardCharsets.UTF_8));
            } else {
                stdout.write(PullTable.render(response).getBytes(StandardCharsets.UTF_8));
            }
            stdout.flush();
            return 0;
        } catch (IOException e) {
            return BinaryStdout.writeFailed(e);
        }
    }
}
