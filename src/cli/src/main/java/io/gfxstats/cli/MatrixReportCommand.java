package io.gfxstats.cli;

import io.gfxstats.args.Args;
import io.gfxstats.args.UsageException;
import io.gfxstats.live.LiveScene;
import io.gfxstats.live.LiveSnapshot;
import io.gfxstats.live.MatrixReportSlicer;
import io.gfxstats.live.SceneFeed;
import io.gfxstats.matrix.MatrixDevice;
import io.gfxstats.matrix.MatrixFormat;
import io.gfxstats.matrix.MatrixReport;
import io.gfxstats.matrix.MatrixRule;
import io.gfxstats.text.TerminalText;
import java.io.InputStream;
import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * {@code gfxstats matrix-report}: Tencent Matrix {@code Trace_FPS} reports from the daemon's live
 * counters, one JSON line per slice per (package, scene): Matrix 2.1's 10 s wall-clock slices,
 * emitted only with more than 20 frames. Runs until interrupted (open slices are then reported),
 * {@code --duration} or {@code --count}.
 */
final class MatrixReportCommand extends OptionsCommand {
    static final Duration DEFAULT_INTERVAL = Duration.ofMillis(500);

    private final Map<String, String> env;
    private final TopCommand.FeedOpener feeds;
    private final LongSupplier wallClock;

    MatrixReportCommand() {
        this(System.getenv(), WatchFeed::open, System::currentTimeMillis);
    }

    MatrixReportCommand(Map<String, String> env, TopCommand.FeedOpener feeds, LongSupplier wallClock) {
        this.env = env;
        this.feeds = feeds;
        this.wallClock = wallClock;
    }

    @Override
    public String name() {
        return "matrix-report";
    }

    @Override
    public String synopsis() {
        return "matrix-report [--socket PATH] [--package P] [--slice S] [--format matrix-2.1|matrix-2.0] "
                + "[--min-drop-level L] [--max-fps F] [--duration S] [--count N] [--interval SECONDS] [--issue-lines] [--progress]   live Matrix Trace_FPS reports";
    }

    @Override
    Args options() {
        return new Args("matrix-report")
                .value(DaemonCall.SOCKET_OPTION, "PATH", DaemonCall.SOCKET_HELP)
                .value("--package", "NAME", "only this package")
                .value("--slice", "SECONDS", "slice length (default 10, Matrix 2.1's)")
                .value("--interval", "SECONDS", "how often the daemon is read (default 0.5; slices close on a read)")
                .value("--format", "F", "matrix-2.1 (default) or matrix-2.0: the keys and key order of that version")
                .flag("--issue-lines", "wrap each report as Matrix logs it: tag[Trace_FPS]type[0];key[null];content[...]")
                .value("--min-drop-level", "LEVEL", "only slices with a frame at this level or worse "
                        + "(NORMAL, MIDDLE, HIGH, FROZEN)")
                .value("--max-fps", "F", "only slices whose fps is at most F")
                .value("--duration", "SECONDS", "stop after this long, reporting the open slices")
                .value("--count", "N", "stop after N reports")
                .flag("--progress", "after each read, a line on stderr with the frames each open slice holds");
    }

    @Override
    String about() {
        return """
                    Each (package, scene) has slices of its own (Matrix 2.1 has one slice for all scenes, named
                    after its last frame's scene). A slice opens with the scene's first frame, closes after the
                    slice length of wall time; those of 20 frames or fewer are not reported, as in Matrix.
                    machine/mem/mem_free describe this machine (/proc/meminfo); cpu_app is 0.""";
    }

    @Override
    int execute(Args.Parsed args, InputStream in, PrintStream out, PrintStream err) throws Exception {
        Duration slice = args.seconds("--slice", Duration.ofSeconds(10), 24 * 3600);
        Duration interval = args.seconds("--interval", DEFAULT_INTERVAL, 3600);
        if (interval.compareTo(TopCommand.MIN_INTERVAL) < 0) {
            throw new UsageException("--interval must be at least 0.2 seconds");
        }
        MatrixFormat format;
        int minLevel;
        double maxFps;
        try {
            format = args.has("--format") ? MatrixFormat.parse(args.value("--format")) : MatrixFormat.V2_1;
            minLevel = args.has("--min-drop-level") ? level(args.value("--min-drop-level")) : MatrixRule.BEST;
            maxFps = args.has("--max-fps") ? Double.parseDouble(args.value("--max-fps")) : Double.POSITIVE_INFINITY;
        } catch (NumberFormatException e) {
            throw new UsageException("--max-fps needs a number, got '" + args.value("--max-fps") + "'");
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
        Duration duration = args.has("--duration") ? args.seconds("--duration", null, 366 * 24 * 3600.0) : null;
        int count = args.intValue("--count", Integer.MAX_VALUE, 1, Integer.MAX_VALUE);
        boolean issueLines = args.has("--issue-lines");
        boolean progress = args.has("--progress");
        MatrixDevice device = MatrixDevice.ofThisMachine(0);
        MatrixReportSlicer slicer = new MatrixReportSlicer(slice.toNanos(), () -> device);

        int[] printed = {0};
        Object lock = new Object();
        boolean[] done = {false};
        // Ctrl-C or SIGTERM: the open slices are reported, as Matrix does when an Activity pauses.
        Thread flushOnExit = new Thread(() -> {
            synchronized (lock) {
                if (!done[0]) {
                    done[0] = true;
                    print(slicer.flush(wallClock.getAsLong()), format, issueLines, minLevel, maxFps,
                            count - printed[0], out);
                }
            }
        }, "gfxstats-matrix-report-flush");
        Runtime.getRuntime().addShutdownHook(flushOnExit);
        long start = System.nanoTime();
        try (SceneFeed feed = feeds.open(args, env, interval, args.value("--package"))) {
            while (printed[0] < count) {
                LiveSnapshot s = TopCommand.next(feed);
                if (s == null) {
                    break;
                }
                LiveSnapshot stamped = new LiveSnapshot(s.monotonicNanos(),
                        s.wallMillis() > 0 ? s.wallMillis() : wallClock.getAsLong(), s.scenes(), s.ringDropped());
                synchronized (lock) {
                    printed[0] += print(slicer.accept(stamped), format, issueLines, minLevel, maxFps,
                            count - printed[0], out);
                    if (progress) {
                        err.println(progressLine(slicer.openFrames()));
                        err.flush();
                    }
                }
                if (duration != null && System.nanoTime() - start >= duration.toNanos()) {
                    break;
                }
            }
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(flushOnExit);
            } catch (IllegalStateException e) {
                // shutting down: the hook reports
            }
        }
        synchronized (lock) {
            if (!done[0] && printed[0] < count) {
                done[0] = true;
                print(slicer.flush(wallClock.getAsLong()), format, issueLines, minLevel, maxFps, count - printed[0], out);
            }
        }
        return 0;
    }

    private static int print(List<MatrixReport> reports, MatrixFormat format, boolean issueLines, int minLevel,
            double maxFps, int room, PrintStream out) {
        int printed = 0;
        for (MatrixReport r : reports) {
            if (printed >= room || r.fps() > maxFps || worst(r) < minLevel) {
                continue;
            }
            out.println(issueLines ? format.issueLine(r) : format.json(r));
            printed++;
        }
        out.flush();
        return printed;
    }

    /** One line: "open slices: pkg/scene 57 frames, ..." or "open slices: none". */
    static String progressLine(Map<LiveScene.Key, Long> open) {
        StringBuilder line = new StringBuilder("open slices: ");
        if (open.isEmpty()) {
            return line.append("none").toString();
        }
        String sep = "";
        for (Map.Entry<LiveScene.Key, Long> e : open.entrySet()) {
            line.append(sep).append(TerminalText.escape(e.getKey().packageName())).append('/')
                    .append(TerminalText.escape(e.getKey().scene())).append(' ').append(e.getValue()).append(" frames");
            sep = ", ";
        }
        return line.toString();
    }

    private static int worst(MatrixReport r) {
        for (int l = MatrixRule.FROZEN; l > MatrixRule.BEST; l--) {
            if (r.dropLevel(l) > 0) {
                return l;
            }
        }
        return MatrixRule.BEST;
    }

    private static int level(String name) {
        String n = name.trim().toUpperCase(Locale.ROOT).replace("DROPPED_", "");
        for (int l = MatrixRule.BEST; l <= MatrixRule.FROZEN; l++) {
            if (MatrixRule.levelName(l).equals(n)) {
                return l;
            }
        }
        throw new IllegalArgumentException("--min-drop-level must be BEST, NORMAL, MIDDLE, HIGH or FROZEN: " + name);
    }
}
