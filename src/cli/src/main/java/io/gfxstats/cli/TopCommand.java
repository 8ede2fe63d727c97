package io.gfxstats.cli;

import io.gfxstats.args.Args;
import io.gfxstats.args.UsageException;
import io.gfxstats.live.LiveSnapshot;
import io.gfxstats.live.SceneFeed;
import io.gfxstats.live.TopModel;
import io.gfxstats.live.TopRenderer;
import io.gfxstats.live.TopSort;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneId;
import java.util.Map;

/**
 * {@code gfxstats top}: a live view of every package and scene, from the daemon's {@code Watch}
 * stream: throughput FPS, Matrix fps, jank %, Matrix level counts and dropped frames over the last
 * interval (or since start), frames lost to full recording rings, rows coloured by their janky percentage. On a terminal it is interactive;
 * elsewhere, or with {@code --once}, it prints one snapshot; {@code --json} prints one JSON object
 * per refresh.
 */
final class TopCommand extends OptionsCommand {
    static final Duration DEFAULT_INTERVAL = Duration.ofSeconds(1);
    static final Duration MIN_INTERVAL = Duration.ofMillis(200);

    private final Map<String, String> env;
    private final FeedOpener feeds;
    private final boolean terminal;

    TopCommand() {
        this(System.getenv(), WatchFeed::open, stdioIsTerminal());
    }

    TopCommand(Map<String, String> env, FeedOpener feeds, boolean terminal) {
        this.env = env;
        this.feeds = feeds;
        this.terminal = terminal;
    }

    @Override
    public String name() {
        return "top";
    }

    @Override
    public String synopsis() {
        return "top [--socket PATH] [--interval S] [--package P] [--sort name|fps|jank|dropped] [--cumulative] "
                + "[--once] [--json] [--count N] [--no-color]   live FPS, jank and Matrix levels per package and scene";
    }

    @Override
    Args options() {
        return new Args("top")
                .value(DaemonCall.SOCKET_OPTION, "PATH", DaemonCall.SOCKET_HELP)
                .value("--interval", "SECONDS", "refresh interval (default 1, at least 0.2)")
                .value("--package", "NAME", "only this package")
                .value("--sort", "KEY", "row order: name (default), fps (lowest first), jank, dropped (highest first)")
                .flag("--cumulative", "counts since start instead of over the last interval (key c toggles)")
                .flag("--once", "print one snapshot (after one interval) and exit")
                .flag("--json", "one JSON object per refresh instead of the screen")
                .value("--count", "N", "exit after N refreshes (with --json, or on a terminal)")
                .flag("--no-color", "no colours (also when $NO_COLOR is set)");
    }

    @Override
    String about() {
        return """
                    VER: the version code. FPS: frames per wall-clock second over the last interval, also in
                    cumulative mode. mFPS: Matrix 2.1's fps, 1e9 x frames / sum of max(frame time, refresh
                    interval) ('-' with 20 frames or fewer, Matrix's gate). JANK%: Android's janky frames in %
                    of FRAMES ('-' without frames); JANKY: their count. BEST..FROZ: frames per Matrix level
                    (dropped frames 0-2, 3-8, 9-23, 24-41, 42+). DROPPED: dropped frames summed. The other
                    columns count the last interval, or since top started with --cumulative (c), where a
                    package whose processes ended keeps its totals. LOST, shown once a package has any:
                    frames its processes recorded but gfxstats could not count because a recording ring was
                    full (not in FRAMES; not Android's or Matrix's dropped frames), since each process
                    began. Rows are coloured by JANK%: green below 5 %, then 5-10, 10-20, 20-40, red from
                    40 % (the report's level colours). On a narrow terminal whole columns are left out (the
                    title says how many), never part of a number. Keys: q or Ctrl-C quit, s next sort, c
                    cumulative on/off.""";
    }

    @Override
    int execute(Args.Parsed args, InputStream in, PrintStream out, PrintStream err) throws Exception {
        Duration interval = args.seconds("--interval", DEFAULT_INTERVAL, 3600);
        if (interval.compareTo(MIN_INTERVAL) < 0) {
            throw new UsageException("--interval must be at least 0.2 seconds");
        }
        TopSort sort;
        try {
            sort = args.has("--sort") ? TopSort.parse(args.value("--sort")) : TopSort.NAME;
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
        int count = args.intValue("--count", Integer.MAX_VALUE, 1, Integer.MAX_VALUE);
        boolean json = args.has("--json");
        boolean once = args.has("--once") || (!json && !terminal);
        if (once) {
            count = 1;
        }
        boolean colour = !args.has("--no-color") && env.get("NO_COLOR") == null;
        TopModel model = new TopModel(sort, args.has("--cumulative"));
        TopRenderer renderer = new TopRenderer(ZoneId.systemDefault());

        try (SceneFeed feed = feeds.open(args, env, interval, args.value("--package"))) {
            if (!json && !once) {
                String error = TopScreen.run(feed, model, renderer, colour);
                if (error != null) {
                    throw new UsageException(error);
                }
                return 0;
            }
            int printed = 0;
            int snapshots = 0;
            while (printed < count) {
                LiveSnapshot s = next(feed);
                if (s == null) {
                    if (snapshots == 0) {
                        throw new UsageException("the daemon ended the stream before its first snapshot");
                    }
                    break;
                }
                model.accept(s);
                if (++snapshots < 2) {
                    continue; // rates need an interval
                }
                if (json) {
                    out.println(TopRenderer.json(model.frame()));
                } else {
                    for (String line : renderer.lines(model.frame(), onceWidth(), 0, false, false)) {
                        out.println(line);
                    }
                }
                out.flush();
                printed++;
            }
            return 0;
        }
    }

    /** Text without a terminal: as wide as {@code $COLUMNS} says (a shell exports it), else 120. */
    private int onceWidth() {
        try {
            int w = Integer.parseInt(env.getOrDefault("COLUMNS", "120").trim());
            return w >= 40 ? w : 120;
        } catch (NumberFormatException e) {
            return 120;
        }
    }

    /** The feed's next snapshot; a failed feed (daemon gone, call refused) is a one-line error. */
    static LiveSnapshot next(SceneFeed feed) throws UsageException, InterruptedException {
        try {
            return feed.next();
        } catch (IOException e) {
            throw new UsageException(e.getMessage(), e);
        }
    }

    /** Whether standard input and output are a terminal (Linux: /proc/self/fd). */
    static boolean stdioIsTerminal() {
        return isTty("/proc/self/fd/0") && isTty("/proc/self/fd/1");
    }

    private static boolean isTty(String fd) {
        try {
            String target = Files.readSymbolicLink(Path.of(fd)).toString();
            return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty");
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            return false;
        }
    }

    /** Opens the live feed the command reads (the daemon's Watch; tests give others). */
    @FunctionalInterface
    interface FeedOpener {
        SceneFeed open(Args.Parsed args, Map<String, String> env, Duration interval, String packageName)
                throws UsageException;
    }
}
