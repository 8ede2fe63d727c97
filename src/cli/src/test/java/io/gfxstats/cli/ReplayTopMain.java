package io.gfxstats.cli;

import io.gfxstats.args.UsageException;
import io.gfxstats.live.CaptureFeed;
import io.gfxstats.live.LiveSnapshot;
import io.gfxstats.live.SceneFeed;
import java.nio.file.Path;
import java.util.Map;

/**
 * {@code gfxstats top} on a terminal over a real capture replayed as the live feed, one snapshot
 * every 200 ms of wall time (args: optionally {@code --hold} and {@code --pace-ms N}, then the
 * capture file, then top's options). With {@code --hold} the feed stays open after the last snapshot, as a daemon with
 * nothing new to say, so the last screen stays up to be read. For the terminal tests.
 */
public final class ReplayTopMain {
    private ReplayTopMain() {
    }

    public static void main(String[] args) throws Exception {
        boolean hold = false;
        long pace = 200;
        while (args[0].startsWith("--")) {
            if (args[0].equals("--hold")) {
                hold = true;
                args = java.util.Arrays.copyOfRange(args, 1, args.length);
            } else {
                pace = Long.parseLong(args[1]);
                args = java.util.Arrays.copyOfRange(args, 2, args.length);
            }
        }
        boolean holdAtEnd = hold;
        long paceMillis = pace;
        Path capture = Path.of(args[0]);
        TopCommand.FeedOpener paced = (a, env, interval, pkg) -> {
            CaptureFeed feed;
            try {
                feed = new CaptureFeed(capture, 10_000_000_000L);
            } catch (Exception e) {
                throw new UsageException(e.toString());
            }
            return new SceneFeed() {
                @Override
                public LiveSnapshot next() throws InterruptedException {
                    Thread.sleep(paceMillis);
                    LiveSnapshot s = feed.next();
                    if (s == null && holdAtEnd) {
                        Thread.sleep(Long.MAX_VALUE); // until top quits and its process ends
                    }
                    return s;
                }

                @Override
                public void close() {
                }
            };
        };
        String[] rest = java.util.Arrays.copyOfRange(args, 1, args.length);
        TopCommand top = new TopCommand(Map.of(), paced, TopCommand.stdioIsTerminal());
        int code;
        try {
            code = top.run(rest, System.in, System.out, System.err);
        } catch (UsageException e) {
            System.err.println("gfxstats top: " + e.getMessage());
            code = Command.EXIT_ERROR;
        }
        System.exit(code);
    }
}
