package io.gfxstats.cli;

import io.gfxstats.args.Args;
import io.gfxstats.args.UsageException;
import io.gfxstats.rpc.DisplayFrameFeed;
import io.gfxstats.rpc.GfxStatsClient;
import io.gfxstats.rpc.GfxStatsClientException;
import io.gfxstats.rpc.v1.FeedSummary;
import io.gfxstats.timeline.log.DisplayFrameLogReader;
import io.gfxstats.timeline.log.FrameLogException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.CharacterCodingException;
import java.util.Map;

/**
 * {@code gfxstats timeline feed FILE|-}: sends a compositor's DisplayFrames (the JSON Lines of
 * {@code timeline classify}, each line with its {@code output} and {@code msc}) to the daemon's
 * compositor feed, which classifies them per output and publishes them for its clients to join
 * (docs/frametimeline.md, compositor mode). A live compositor uses {@link GfxStatsClient#feedDisplayFrames}.
 */
final class TimelineFeed {
    private static final int BATCH = 64;

    private TimelineFeed() {
    }

    static Args spec() {
        return new Args("timeline feed")
                .value(DaemonCall.SOCKET_OPTION, "PATH", DaemonCall.SOCKET_HELP)
                .value(DaemonCall.DEADLINE_OPTION, "SECONDS", "wait this long for the daemon's summary at the end "
                        + "(default 10)")
                .positional("FILE|-");
    }

    static int run(String[] argv, InputStream in, PrintStream out, Map<String, String> env) throws UsageException {
        Args spec = spec();
        Args.Parsed args = spec.parse(argv);
        if (args.help()) {
            out.print(spec.help("timeline feed [--socket PATH] FILE|-",
                    "Sends display frames (JSON Lines as for classify, plus \"output\" and \"msc\" per line,\n"
                    + "in presentation order per output) to the daemon's compositor feed."));
            return 0;
        }
        if (args.positionals().size() != 1) {
            throw new UsageException("expected one input, FILE or - for stdin (try: gfxstats timeline feed --help)");
        }
        String input = args.positionals().get(0);
        String name = input.equals("-") ? "stdin" : input;
        try (BufferedReader reader = new BufferedReader(TimelineCommand.open(input, in));
             GfxStatsClient client = DaemonCall.open(args, env);
             DisplayFrameFeed feed = client.feedDisplayFrames(BATCH)) {
            DisplayFrameLogReader log = new DisplayFrameLogReader(reader);
            while (log.next()) {
                if (log.msc() <= 0) {
                    throw new UsageException(name + " line " + log.lineNumber() + ": "
                            + (log.msc() < 0 ? "missing msc" : "msc must be positive")
                            + " (the feed joins client frames by output and MSC)");
                }
                feed.send(Math.max(log.output(), 0), log.msc(), log.display());
            }
            FeedSummary summary = feed.finish(DaemonCall.deadline(args));
            out.println("fed " + summary.getFrames() + " display frames of " + summary.getOutputs() + " output"
                    + (summary.getOutputs() == 1 ? "" : "s") + " (ring " + summary.getRingPath() + ")");
            return 0;
        } catch (FrameLogException e) {
            throw new UsageException(name + " " + e.getMessage(), e);
        } catch (GfxStatsClientException e) {
            throw DaemonCall.failed(e);
        } catch (CharacterCodingException e) {
            throw new UsageException("cannot read " + name + ": not UTF-8 text");
        } catch (IOException e) {
            throw new UsageException("cannot read " + name + ": " + e.getMessage(), e);
        }
    }
}
