package io.gfxstats.daemon;

import io.gfxstats.rpc.DisplayFrameFeed;
import io.gfxstats.rpc.GfxStatsClient;
import io.gfxstats.rpc.GfxStatsClientException;
import io.gfxstats.rpc.v1.FeedSummary;
import io.gfxstats.timeline.log.DisplayFrameLogReader;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.time.Duration;

/**
 * A compositor for tests, in a process of its own: reports the display frames of a feed log
 * (classify's JSON Lines with output and msc) to the daemon through {@link GfxStatsClient#feedDisplayFrames},
 * one frame per message as a live compositor would. Steered through stdin so that a test can
 * keep it in step with a client: each line "feed N" sends the log's frames up to line N
 * (exclusive) in one feed call and prints "fed N" once the daemon has taken them (its summary).
 * On a refusal prints "refused: MESSAGE" and exits 4.
 *
 * <p>args: socket feedlog.jsonl
 */
public final class SimulatedCompositor {
    private SimulatedCompositor() {
    }

    public static void main(String[] args) throws Exception {
        BufferedReader commands = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        try (GfxStatsClient client = GfxStatsClient.unix(Paths.get(args[0]));
             BufferedReader logFile = Files.newBufferedReader(Paths.get(args[1]))) {
            DisplayFrameLogReader log = new DisplayFrameLogReader(logFile);
            long sent = 0;
            String command;
            while ((command = commands.readLine()) != null) {
                long upTo = Long.parseLong(command.substring("feed ".length()));
                try (DisplayFrameFeed feed = client.feedDisplayFrames(1)) {
                    while (sent < upTo && log.next()) {
                        feed.send(log.output(), log.msc(), log.display());
                        sent++;
                    }
                    FeedSummary summary = feed.finish(Duration.ofSeconds(60));
                    System.out.println("fed " + sent + " (" + summary.getFrames() + " in this call)");
                } catch (GfxStatsClientException e) {
                    System.out.println("refused: " + e.getMessage());
                    System.exit(4);
                }
            }
        }
    }
}
