package io.gfxstats.cli;

import io.gfxstats.args.Args;
import io.gfxstats.args.UsageException;
import io.gfxstats.client.DaemonBufferProvider;
import io.gfxstats.framestats.FramestatsBlock;
import io.gfxstats.framestats.FramestatsFormatException;
import io.gfxstats.replay.CaptureReplay;
import io.gfxstats.replay.FramePacer;
import io.gfxstats.replay.ObservedProvider;
import io.gfxstats.replay.ProgressReporter;
import io.gfxstats.replay.Replay;
import io.gfxstats.replay.ReplayOptions;
import io.gfxstats.rpc.SocketPaths;
import io.gfxstats.stats.PackageRules;
import io.gfxstats.stats.Pipeline;
import java.io.InputStream;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * {@code gfxstats replay --package P --version-code V [--socket PATH] [--rate FPS]
 * [--refresh-interval NS] [--attach-timeout S] [--verbose] FILE|-}: records the frames of a
 * framestats capture into the daemon as a live client process of package P would, so that the
 * daemon's entry for P ends up with exactly what {@code gfxstats framestats} computes for the
 * capture, summed over its windows. See docs/replay.md.
 */
final class ReplayCommand extends OptionsCommand {
    static final String NAME = "replay";
    /**
     * Loggers quieted unless --verbose: the client library's lines repeat what the command prints
     * as notes.
     */
    private static final List<String[]> QUIET_LOGGERS = List.<String[]>of(
            new String[] {"org.slf4j.simpleLogger.log.io.gfxstats", "error"});
    private static final long MAX_ATTACH_TIMEOUT_SECONDS = 86_400;

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String synopsis() {
        return "replay --package P --version-code V [--socket PATH] [--rate FPS] [--refresh-interval NS] [--pipeline "
                + Pipeline.OPTION_VALUES + "] [--attach-timeout S] [--verbose] FILE|-   record a framestats capture into the daemon as a live client";
    }

    @Override
    Args options() {
        return new Args(NAME)
                .positional("FILE|-")
                .value("--package", "P", "package to count the frames for")
                .value("--version-code", "V", "its version code (0 or more)")
                .value("--socket", "PATH", "the daemon's socket (default: $" + SocketPaths.SOCKET_ENV
                        + ", else the state directory's)")
                .value("--rate", "FPS", "record FPS frames per second (default: as fast as possible)")
                .value("--refresh-interval", "NS", "display refresh interval in nanoseconds (default "
                        + ReplayOptions.DEFAULT_REFRESH_INTERVAL_NANOS + ")")
                .value("--pipeline", Pipeline.OPTION_VALUES, "the render pipeline registered (default: the capture's,"
                        + " gl when it does not say)")
                .value("--attach-timeout", "S", "after the last frame, wait up to S seconds for the daemon to hold the"
                        + " counts (default " + ReplayOptions.DEFAULT_ATTACH_TIMEOUT.toSeconds() + "); exit 2 if it does not")
                .flag("--verbose", "also print the client library's log");
    }

    @Override
    String about() {
        return ABOUT;
    }

    @Override
    int execute(Args.Parsed args, InputStream in, PrintStream out, PrintStream err) throws Exception {
        String packageName = args.value("--package");
        Long versionCode = args.has("--version-code") ? versionCode(args.value("--version-code")) : null;
        String socket = args.value("--socket");
        double rate = args.has("--rate") ? rate(args.value("--rate")) : 0;
        long refresh = args.has("--refresh-interval") ? Args.refreshInterval(args.value("--refresh-interval"))
                : ReplayOptions.DEFAULT_REFRESH_INTERVAL_NANOS;
        Duration attachTimeout = args.has("--attach-timeout") ? seconds(args.value("--attach-timeout"))
                : ReplayOptions.DEFAULT_ATTACH_TIMEOUT;
        boolean verbose = args.has("--verbose");
        Pipeline pipeline = args.has("--pipeline") ? Args.pipeline(args.value("--pipeline")) : null;
        if (args.positionals().size() > 1) {
            throw new UsageException("one input only, got '" + args.positionals().get(0) + "' and '"
                    + args.positionals().get(1) + "'");
        }
        String input = args.positionals().isEmpty() ? null : args.positionals().get(0);
        if (packageName == null) {
            throw new UsageException("--package is required (the package to count the frames for)");
        }
        if (PackageRules.problem(packageName).isPresent()) {
            throw new UsageException("invalid package name: " + PackageRules.problem(packageName).get());
        }
        if (versionCode == null) {
            throw new UsageException("--version-code is required");
        }
        if (input == null) {
            throw new UsageException("missing input: FILE, or - for stdin (try: gfxstats replay --help)");
        }
        ReplayOptions options;
        try {
            options = new ReplayOptions(packageName, versionCode, refresh, rate, attachTimeout, pipeline);
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
        boolean live = input.equals("-");
        List<FramestatsBlock> blocks = live ? null : FramestatsInput.read(input, in);

        if (!verbose) {
            quietLogs();
        }
        Path socketPath = SocketPaths.resolve(socket, System.getenv());
        String prefix = "gfxstats " + NAME + ": ";
        ObservedProvider provider = new ObservedProvider(new DaemonBufferProvider(socketPath), socketPath.toString(),
                note -> err.println(prefix + note));
        Replay.Outcome outcome;
        Optional<FramestatsFormatException> malformed = Optional.empty();
        if (live) {
            // Standard input is recorded as it arrives, so replay can be a live sink.
            Replay.LiveOutcome l = new Replay(options).runLive(in, "stdin", provider, ProgressReporter.standard(out),
                    note -> err.println(prefix + note));
            outcome = l.outcome();
            malformed = l.malformed();
            if (outcome.windows() == 0) {
                if (malformed.isPresent()) {
                    throw new UsageException(malformed.get().getMessage(), malformed.get());
                }
                throw new UsageException(FramestatsInput.noFramestats("stdin"));
            }
        } else {
            CaptureReplay capture = new CaptureReplay(blocks, refresh);
            outcome = new Replay(options).run(capture, provider, ProgressReporter.standard(out),
                    note -> err.println(prefix + note));
        }
        String last = outcome.problem().map(p -> " (last error: " + p + ")").orElse("");
        if (!outcome.delivered()) {
            String kept = outcome.buffer().map(b -> "; the " + outcome.frames() + " frames are kept in " + b.path()
                    + ", which the daemon saves when it next starts").orElse("; the " + outcome.frames()
                    + " frames were not stored");
            if (outcome.refusal().isPresent()) {
                // The reason names the daemon and what to do.
                err.println(prefix + "the session was refused: " + outcome.refusal().get() + kept);
            } else if (outcome.buffer().isPresent()) {
                err.println(prefix + "the daemon at " + socketPath + " did not come back within "
                        + options.attachTimeoutText() + last + kept);
            } else {
                err.println(prefix + "no daemon at " + socketPath + " within " + options.attachTimeoutText()
                        + last + kept);
            }
            return EXIT_ERROR;
        }
        if (malformed.isPresent()) {
            err.println(prefix + malformed.get().getMessage() + "; the " + outcome.frames()
                    + " frames before it were counted for " + packageName + " " + versionCode);
            return EXIT_ERROR;
        }
        out.println("done: " + outcome.frames() + " frames of " + outcome.windows() + " windows counted for "
                + packageName + " " + versionCode);
        return 0;
    }

    /** Takes effect for loggers not created yet, which in this process are all that matter. */
    private static void quietLogs() {
        for (String[] setting : QUIET_LOGGERS) {
            if (System.getProperty(setting[0]) == null) {
                System.setProperty(setting[0], setting[1]);
            }
        }
    }

    private static final String ABOUT =
            "Records the frames of 'adb shell dumpsys gfxinfo <pkg> framestats' output (or a bare framestats\n"
            + "CSV) into the daemon as a live client process of package P, one tracker per window, so that P's\n"
            + "entry gains exactly what 'gfxstats framestats' computes for the file, summed over its windows.\n"
            + "FILE|- is the capture; - reads stdin. Prints 'recorded N frames' as it goes. Exit 0 once the\n"
            + "daemon holds every frame.";

    private static long versionCode(String value) throws UsageException {
        try {
            long v = Long.parseLong(value.trim());
            if (v >= 0) {
                return v;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new UsageException("--version-code needs a whole number, 0 or more, got '" + value + "'");
    }

    private static double rate(String value) throws UsageException {
        try {
            return FramePacer.requireValidRate(Double.parseDouble(value.trim()));
        } catch (IllegalArgumentException e) {
            throw new UsageException("--rate needs frames per second, a number above 0 and at most "
                    + (long) FramePacer.MAX_RATE + ", got '" + value + "'");
        }
    }

    private static Duration seconds(String value) throws UsageException {
        try {
            BigDecimal s = new BigDecimal(value.trim());
            if (s.signum() >= 0 && s.compareTo(BigDecimal.valueOf(MAX_ATTACH_TIMEOUT_SECONDS)) <= 0) {
                return Duration.ofMillis(s.movePointRight(3).longValue());
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new UsageException("--attach-timeout needs seconds, 0 to " + MAX_ATTACH_TIMEOUT_SECONDS + ", got '"
                + value + "'");
    }
}
