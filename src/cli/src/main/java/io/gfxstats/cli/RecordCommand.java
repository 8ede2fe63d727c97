package io.gfxstats.cli;

import io.gfxstats.args.Args;
import io.gfxstats.args.UsageException;
import io.gfxstats.client.DaemonBufferProvider;
import io.gfxstats.client.SessionOptions;
import io.gfxstats.client.StatsSession;
import io.gfxstats.record.LineFormat;
import io.gfxstats.record.LineInput;
import io.gfxstats.record.LineRecorder;
import io.gfxstats.stats.Pipeline;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * {@code gfxstats record --package P --version-code V [--pipeline gl|vulkan] [--format
 * times|framestats] [FILE|-]}: a live client for renderers in any language. It registers with the
 * daemon like an app and records each frame as its line arrives on standard input, a file or a
 * FIFO; the frames reach the daemon through the mapped buffer, nothing is flushed per line.
 */
final class RecordCommand extends OptionsCommand {
    static final Duration DEFAULT_ATTACH_TIMEOUT = Duration.ofSeconds(30);
    /** Exit status when some lines were malformed (the others were recorded). */
    static final int EXIT_MALFORMED = 1;

    private final Map<String, String> env;

    RecordCommand() {
        this(System.getenv());
    }

    RecordCommand(Map<String, String> env) {
        this.env = env;
    }

    @Override
    public String name() {
        return "record";
    }

    @Override
    public String synopsis() {
        return "record --package P --version-code V [--pipeline gl|vulkan] [--format times|framestats] [--socket PATH]"
                + " [--attach-timeout S] [FILE|-]"
                + "   record frames piped in by any program";
    }

    @Override
    Args options() {
        return new Args("record")
                .value("--package", "P", "package name (e.g. com.example.renderer)")
                .value("--version-code", "V", "version code, 0 or more")
                .value("--pipeline", "gl|vulkan", "render pipeline registered, shown by dump --proto (default: gl)")
                .value("--format", "times|framestats", "what a line holds (default times), see below")
                .value(DaemonCall.SOCKET_OPTION, "PATH", DaemonCall.SOCKET_HELP)
                .value("--attach-timeout", "S", "at the end, how long to wait for a daemon that has not answered"
                        + " yet (default " + DEFAULT_ATTACH_TIMEOUT.toSeconds() + ")")
                .positional("FILE");
    }

    @Override
    String about() {
        return """
                    A live client for renderers written in any language: registers with the daemon like an
                    app and records one frame per line read from FILE (a file or a FIFO) or standard input
                    (no FILE, or -), as each line arrives, until the end of the input. Frames go into the
                    mapped buffer the daemon reads; nothing is flushed or sent per line.

                    --format times (default): intended_vsync,vsync,frame_completed,gpu_completed,frame_interval
                      CLOCK_MONOTONIC nanoseconds; gpu_completed = frame_completed if unknown; frame_interval
                      0 = 16666667 (60 Hz). Jank as Android counts it from these times (deadline, missed vsync).
                    --format framestats: rows as `dumpsys gfxinfo PKG framestats` prints them, in the order of
                      a `Flags,...` header line (Android 12+'s 23 columns when none); every jank cause counted.
                      A new header starts a new window.
                    Blank lines and # comments are skipped; a malformed line is reported and skipped (exit
                    status 1 at the end). Prints `recorded N frames` when the input ends.
                    Examples: docs/client-api.md.""";
    }

    @Override
    int execute(Args.Parsed args, InputStream in, PrintStream out, PrintStream err) throws Exception {
        String pkg = args.required("--package");
        long version = parseVersion(args.required("--version-code"));
        LineFormat format = LineFormat.TIMES;
        if (args.has("--format")) {
            try {
                format = LineFormat.parse(args.value("--format"));
            } catch (IllegalArgumentException e) {
                throw new UsageException(e.getMessage());
            }
        }
        // GL unless told, like synth and replay: UNKNOWN is a value Android never writes (docs/client-api.md).
        Pipeline pipeline = args.has("--pipeline") ? Args.pipeline(args.value("--pipeline")) : Pipeline.GL;
        Duration attachTimeout = args.seconds("--attach-timeout", DEFAULT_ATTACH_TIMEOUT, 3600);
        if (args.positionals().size() > 1) {
            throw new UsageException("one input at most, got " + args.positionals().size()
                    + " (try: gfxstats record --help)");
        }
        String file = args.positionals().isEmpty() ? "-" : args.positionals().get(0);
        SessionOptions options;
        try {
            // Lines arrive faster than real time (a file, a pipe): a full ring is counted, not dropped.
            options = SessionOptions.builder(pkg, version).pipeline(pipeline).countWhenRingFull(true).build();
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
        Path socket = DaemonCall.socket(args, env);
        InputStream input = file.equals("-") ? in : open(file);

        AtomicReference<StatsSession> opened = new AtomicReference<>();
        Supplier<StatsSession> sessionAtFirstFrame = () -> {
            if (opened.get() == null) {
                opened.set(StatsSession.open(options, new DaemonBufferProvider(socket)));
            }
            return opened.get();
        };
        LineRecorder recorder = new LineRecorder(format, sessionAtFirstFrame, options.refreshIntervalNanos(),
                problem -> err.println("gfxstats record: " + problem));
        // SIGTERM/SIGINT while reading: what is counted is in the mapped buffer (the daemon saves
        // it when this process is gone); only frames counted before the daemon answered need it
        // to answer, so wait for that as at the end of the input.
        Thread hook = new Thread(() -> {
            StatsSession session = opened.get();
            try {
                if (session != null) {
                    session.awaitAttached(attachTimeout);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "gfxstats-record-stop");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            try (InputStream source = input) {
                LineInput.pump(source, recorder);
            } catch (IOException e) {
                err.println("gfxstats record: reading " + (file.equals("-") ? "standard input" : file) + " failed: "
                        + e.getMessage() + "; keeping the " + recorder.recorded() + " frames read before");
            }
            recorder.finish();
            StatsSession session = opened.get();
            if (session == null) {
                err.println("gfxstats record: no frame in the input: nothing was sent to the daemon");
            } else if (!session.awaitAttached(attachTimeout)) {
                session.close();
                throw new UsageException(session.refusal()
                        .map(reason -> "the session was refused: " + reason + "; ") // it names the daemon and the fix
                        .orElse("no gfxstats daemon answered at " + socket + " within " + attachTimeout.toSeconds()
                                + " s (is gfxstatsd running? set --socket or GFXSTATS_SOCKET); ")
                        + recorder.recorded() + " frames were not stored");
            } else {
                session.close();
            }
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the hook runs
            }
        }
        out.println("recorded " + recorder.recorded() + " frames"
                + (recorder.inFlight() > 0 ? ", " + recorder.inFlight() + " rows of frames in flight skipped" : "")
                + (recorder.malformed() > 0 ? ", " + recorder.malformed() + " malformed lines skipped" : ""));
        return recorder.malformed() > 0 ? EXIT_MALFORMED : 0;
    }

    private static InputStream open(String file) throws UsageException {
        try {
            // A FIFO blocks here until a writer opens it, as `cat FIFO` does.
            return Files.newInputStream(Path.of(file));
        } catch (NoSuchFileException e) {
            throw new UsageException("no such file: " + file);
        } catch (IOException e) {
            throw new UsageException("cannot read " + file + ": " + e.getMessage());
        }
    }

    private static long parseVersion(String value) throws UsageException {
        try {
            long v = Long.parseLong(value.trim());
            if (v >= 0) {
                return v;
            }
        } catch (NumberFormatException e) {
            // below
        }
        throw new UsageException("--version-code needs a whole number, 0 or more, got '" + value + "'");
    }
}
