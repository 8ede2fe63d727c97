package io.gfxstats.cli;

import io.gfxstats.args.Args;
import io.gfxstats.args.UsageException;
import io.gfxstats.demo.JankProfile;
import io.gfxstats.demo.Pacer;
import io.gfxstats.demo.SynthOptions;
import io.gfxstats.demo.SyntheticRenderer;
import io.gfxstats.rpc.SocketPaths;
import io.gfxstats.stats.Pipeline;
import java.io.InputStream;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.Map;

/**
 * {@code gfxstats synth --package P --version-code V [--seconds S] [--fps F]
 * [--jank-profile smooth|janky|stutter] [--seed N] [--socket PATH]}: a live client process that
 * renders synthetic frames in real time and records them with the daemon, for demos and tests.
 */
final class SynthCommand extends OptionsCommand {
    static final Duration DEFAULT_DURATION = Duration.ofSeconds(10);
    static final int DEFAULT_FPS = 60;
    static final Duration DEFAULT_ATTACH_TIMEOUT = Duration.ofSeconds(30);

    private final Map<String, String> env;

    SynthCommand() {
        this(System.getenv());
    }

    SynthCommand(Map<String, String> env) {
        this.env = env;
    }

    @Override
    public String name() {
        return "synth";
    }

    @Override
    public String synopsis() {
        return "synth --package P --version-code V [--seconds S] [--fps F] [--jank-profile " + JankProfile.names()
                + "] [--seed N] [--pipeline " + Pipeline.OPTION_VALUES + "] [--socket PATH] [--attach-timeout S]   render synthetic frames as a live client";
    }

    @Override
    Args options() {
        return new Args("synth")
                .value("--package", "P", "package name (e.g. com.example.app)")
                .value("--version-code", "V", "version code, 0 or more")
                .value("--seconds", "S", "how long to render, decimals allowed (default " + DEFAULT_DURATION.toSeconds() + ")")
                .value("--fps", "F", "display refresh rate, 1.." + SynthOptions.MAX_FPS + " (default " + DEFAULT_FPS + ")")
                .value("--jank-profile", "NAME", "smooth: ~2-3 % janky; janky: ~15-25 % janky, every cause; stutter: smooth"
                        + " with a 100-450 ms hitch every 1.5-3 s (default janky)")
                .value("--seed", "N", "same seed, same frames and counters (default: random, printed)")
                .value("--pipeline", Pipeline.OPTION_VALUES, "the render pipeline registered (default gl)")
                .value("--socket", "PATH", DaemonCall.SOCKET_HELP)
                .value("--attach-timeout", "S", "give up when no daemon answers within S seconds (default "
                        + DEFAULT_ATTACH_TIMEOUT.toSeconds() + ")");
    }

    @Override
    String about() {
        return ABOUT;
    }

    @Override
    int execute(Args.Parsed args, InputStream in, PrintStream out, PrintStream err) throws Exception {
        String pkg = args.value("--package");
        Long version = args.has("--version-code") ? parseLong("--version-code", args.value("--version-code")) : null;
        Duration duration = args.has("--seconds") ? parseSeconds("--seconds", args.value("--seconds")) : DEFAULT_DURATION;
        int fps = args.has("--fps")
                ? (int) Math.min(Integer.MAX_VALUE, Math.max(Integer.MIN_VALUE, parseLong("--fps", args.value("--fps"))))
                : DEFAULT_FPS;
        JankProfile profile = args.has("--jank-profile") ? parseProfile(args.value("--jank-profile")) : JankProfile.JANKY;
        Long seed = args.has("--seed") ? parseLong("--seed", args.value("--seed")) : null;
        String socket = args.value("--socket");
        Duration attachTimeout = args.has("--attach-timeout")
                ? parseSeconds("--attach-timeout", args.value("--attach-timeout")) : DEFAULT_ATTACH_TIMEOUT;
        Pipeline pipeline = args.has("--pipeline") ? Args.pipeline(args.value("--pipeline")) : Pipeline.GL;
        if (pkg == null) {
            throw new UsageException("missing --package (try: gfxstats synth --help)");
        }
        if (version == null) {
            throw new UsageException("missing --version-code (try: gfxstats synth --help)");
        }
        SynthOptions options;
        try {
            options = new SynthOptions(pkg, version, duration, fps, profile,
                    seed != null ? seed : System.nanoTime() ^ ProcessHandle.current().pid(),
                    SocketPaths.resolve(socket, env), attachTimeout, pipeline);
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }

        SyntheticRenderer renderer = new SyntheticRenderer(options, Pacer.system(), out);
        // SIGTERM/SIGINT: stop rendering, let the session hand its counts over, then exit.
        Thread hook = new Thread(() -> {
            renderer.stop();
            try {
                renderer.awaitFinished(Duration.ofSeconds(5));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "gfxstats-synth-stop");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            renderer.run();
            return 0;
        } catch (SyntheticRenderer.DaemonUnavailableException e) {
            throw new UsageException(e.getMessage());
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // The hook is running (or ran): it waits for us.
            }
        }
    }

    private static final String ABOUT = "A live client process: registers with the daemon like an app, renders synthetic frames in\n"
            + "real time with realistic timing (every FrameInfo field, every Android jank cause) and\n"
            + "records them. Prints 'recorded N frames' about once a second, then a summary of what it\n"
            + "counted, which is what the daemon shows for this process.";

    private static long parseLong(String option, String value) throws UsageException {
        try {
            return Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            throw new UsageException(option + " needs a whole number, got '" + value + "'");
        }
    }

    private static Duration parseSeconds(String option, String value) throws UsageException {
        try {
            BigDecimal seconds = new BigDecimal(value.trim());
            if (seconds.signum() <= 0 || seconds.compareTo(BigDecimal.valueOf(SynthOptions.MAX_DURATION.toSeconds())) > 0) {
                throw new UsageException(option + " must be more than 0 and at most "
                        + SynthOptions.MAX_DURATION.toSeconds() + " seconds, got '" + value + "'");
            }
            return Duration.ofNanos(seconds.movePointRight(9).longValue());
        } catch (NumberFormatException e) {
            throw new UsageException(option + " needs a number of seconds, got '" + value + "'");
        }
    }

    private static JankProfile parseProfile(String value) throws UsageException {
        try {
            return JankProfile.parse(value);
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
    }
}
