package io.gfxstats.cli;

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
final class ReplayCommand implements Command {
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
                + Pipeline.OPTION_VALUES + "] FILE|-   record a framestats capture into the daemon as a live client";
    }

    @Override
    public int run(String[] args, InputStream in, PrintStream out, PrintStream err) throws Exception {
        String packageName = null;
        Long versionCode = null;
        String socket = null;
        double rate = 0;
        long refresh = ReplayOptions.DEFAULT_REFRESH_INTERVAL_NANOS;
        Duration attachTimeout = ReplayOptions.DEFAULT_ATTACH_TIMEOUT;
        boolean verbose = false;
        Pipeline pipeline = null;
        String input = null;
        for (int i = 0; i < args.length; i++) {
            Args.Token token = Args.Token.of(args[i]);
            String arg = token.name();
            String value = token.value();
            switch (arg) {
                case "-h", "--help" -> {
                    help(out);
                    return 0;
                }
                case "--package" -> packageName = value != null ? value : Args.next(args, ++i, arg);
                case "--version-code" -> versionCode = versionCode(value != null ? value : Args.next(args, ++i, arg));
                case "--socket" -> {
                    socket = value != null ? value : Args.next(args, ++i, arg);
                    if (socket.isBlank()) {
                        throw new UsageException("--socket needs a path");
                    }
                }
                case "--rate" -> rate = rate(value != null ? value : Args.next(args, ++i, arg));
                case "--refresh-interval" ->
                        refresh = Args.refreshInterval(value != null ? value : Args.next(args, ++i, arg));
                case "--pipeline" -> pipeline = Args.pipeline(value != null ? value : Args.next(args, ++i, arg));
                case "--attach-timeout" -> attachTimeout = seconds(value != null ? value : Args.next(args, ++i, arg));
                case "--verbose" -> {
                    if (value != null) {
                        throw new UsageException("--verbose takes no value");
                    }
                    verbose = true;
                }
                default -> {
                    if (arg.startsWith("-") && !arg.equals("-")) {
                        throw new UsageException("unknown option '" + args[i] + "' (try: gfxstats replay --help)");
                    }
                    if (input != null) {
                        throw new UsageException("one input only, got '" + input + "' and '" + args[i] + "'");
                    }
                    input = args[i];
                }
            }
        }
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
            if (outcome.buffer().isPresent()) {
                err.println(prefix + "the daemon at " + socketPath + " did not come back within "
                        + options.attachTimeoutText() + last + "; the " + outcome.frames()
                        + " frames are kept in " + outcome.buffer().get().path()
                        + ", which the daemon saves when it next starts");
            } else {
                err.println(prefix + "no daemon at " + socketPath + " within " + options.attachTimeoutText()
                        + last + "; the " + outcome.frames() + " frames were not stored");
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

    private static void help(PrintStream out) {
        out.println("usage: gfxstats replay --package P --version-code V [options] FILE|-");
        out.println();
        out.println("Records the frames of 'adb shell dumpsys gfxinfo <pkg> framestats' output (or a bare framestats");
        out.println("CSV) into the daemon as a live client process of package P, one tracker per window, so that P's");
        out.println("entry gains exactly what 'gfxstats framestats' computes for the file, summed over its windows.");
        out.println();
        out.println("  FILE|-                 the capture; - reads stdin");
        out.println("  --package P            package to count the frames for");
        out.println("  --version-code V       its version code (0 or more)");
        out.println("  --socket PATH          the daemon's socket (default: $" + SocketPaths.SOCKET_ENV
                + ", else the state directory's)");
        out.println("  --rate FPS             record FPS frames per second (default: as fast as possible)");
        out.println("  --refresh-interval NS  display refresh interval in nanoseconds (default "
                + ReplayOptions.DEFAULT_REFRESH_INTERVAL_NANOS + ")");
        out.println("  --pipeline " + Pipeline.OPTION_VALUES + "      the render pipeline registered (default: the capture's,");
        out.println("                         gl when it does not say)");
        out.println("  --attach-timeout S     after the last frame, wait up to S seconds for the daemon to hold the");
        out.println("                         counts (default " + ReplayOptions.DEFAULT_ATTACH_TIMEOUT.toSeconds()
                + "); exit 2 if it does not");
        out.println("  --verbose              also print the client library's log");
        out.println();
        out.println("Prints 'recorded N frames' as it goes. Exit 0 once the daemon holds every frame.");
    }

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
