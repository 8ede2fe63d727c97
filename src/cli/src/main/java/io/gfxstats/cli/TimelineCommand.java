package io.gfxstats.cli;

import io.gfxstats.args.Args;
import io.gfxstats.args.UsageException;
import io.gfxstats.timeline.FrameTimelineClassifier;
import io.gfxstats.timeline.Thresholds;
import io.gfxstats.timeline.log.FrameLogClassifier;
import io.gfxstats.timeline.log.FrameLogException;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * {@code gfxstats timeline classify|perfetto|feed}: SurfaceFlinger's FrameTimeline offline - the
 * classification of frame logs (JSON Lines), and the FrameTimeline events of Perfetto traces -
 * and a compositor's feed of display frames to the daemon (docs/frametimeline.md).
 */
final class TimelineCommand implements Command {
    static final String NAME = "timeline";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String synopsis() {
        return "timeline classify|perfetto|feed ...   FrameTimeline jank of frame logs and Perfetto traces";
    }

    @Override
    public List<Args> optionSpecs() {
        return List.of(classifySpec(), TimelinePerfetto.spec(), TimelineFeed.spec());
    }

    @Override
    public int run(String[] argv, InputStream in, PrintStream out, PrintStream err) throws Exception {
        if (argv.length == 0 || argv[0].equals("-h") || argv[0].equals("--help")) {
            PrintStream to = argv.length == 0 ? err : out;
            to.println("usage: gfxstats timeline classify [--present-threshold-ns N] [--deadline-threshold-ns N]"
                    + " [--start-threshold-ns N] [--extended-present-threshold] [--android 16|16-qpr2] FILE|-");
            to.println("       gfxstats timeline perfetto [--max-packet-mib N] [--sort-window N] TRACE|-");
            to.println("       gfxstats timeline feed [--socket PATH] FILE|-");
            to.println();
            to.println("  classify   classify a frame log (JSON Lines, one DisplayFrame per line) by SurfaceFlinger's "
                    + FrameTimelineClassifier.RULES_AS_OF + " rules");
            to.println("  perfetto   FrameTimeline jank per process and layer of a Perfetto trace");
            to.println("  feed       send a compositor's display frames (with output and msc) to the daemon");
            return argv.length == 0 ? EXIT_ERROR : 0;
        }
        String[] rest = Arrays.copyOfRange(argv, 1, argv.length);
        return switch (argv[0]) {
            case "classify" -> classify(rest, in, out);
            case "perfetto" -> TimelinePerfetto.run(rest, in, out, err);
            case "feed" -> TimelineFeed.run(rest, in, out, System.getenv());
            default -> throw new UsageException("unknown subcommand '" + argv[0] + "' (classify, perfetto or feed)");
        };
    }

    private static Args classifySpec() {
        return new Args("timeline classify")
                .value("--present-threshold-ns", "N", "present threshold (default 2000000, SurfaceFlinger's 2 ms)")
                .value("--deadline-threshold-ns", "N", "deadline threshold (default 0)")
                .value("--start-threshold-ns", "N", "start threshold of display frames (default 2000000)")
                .flag("--extended-present-threshold", "the 4 ms present threshold (Android's "
                        + "increase_missed_frame_jank_threshold)")
                .value("--android", "16|16-qpr2", "SurfaceFlinger's rules: 16 as released (default), or 16-qpr2 with "
                        + "buffer_stuffing_fix (a frame is Buffer Stuffing only if the layer's previous frame was due "
                        + "at its vsync, see last_expected_present)")
                .positional("FILE|-");
    }

    private static int classify(String[] argv, InputStream in, PrintStream out) throws UsageException {
        Args spec = classifySpec();
        Args.Parsed args = spec.parse(argv);
        if (args.help()) {
            out.print(spec.help("timeline classify [options] FILE|-",
                    "Classifies a frame log: JSON Lines, one DisplayFrame per line in presentation order,\n"
                    + "with the SurfaceFrames latched in it; writes one JSON line per frame (see docs/frametimeline.md)."));
            return 0;
        }
        if (args.positionals().size() != 1) {
            throw new UsageException("expected one input, FILE or - for stdin (try: gfxstats timeline classify --help)");
        }
        Thresholds base = args.has("--extended-present-threshold")
                ? Thresholds.ANDROID_16_EXTENDED : Thresholds.ANDROID_16_LEGACY;
        if (args.has("--extended-present-threshold") && args.has("--present-threshold-ns")) {
            throw new UsageException("--extended-present-threshold and --present-threshold-ns exclude each other");
        }
        Thresholds thresholds = new Thresholds(
                nanos(args, "--present-threshold-ns", base.presentNs()),
                nanos(args, "--deadline-threshold-ns", base.deadlineNs()),
                nanos(args, "--start-threshold-ns", base.startNs()));
        boolean bufferStuffingFix = android(args);
        String input = args.positionals().get(0);
        String name = input.equals("-") ? "stdin" : input;
        OutputStream stdout = BinaryStdout.of(out);
        try (Reader reader = open(input, in)) {
            Writer writer = new BufferedWriter(new OutputStreamWriter(stdout, StandardCharsets.UTF_8));
            long frames;
            try {
                frames = new FrameLogClassifier(thresholds, bufferStuffingFix).classify(reader, writer);
            } catch (FrameLogException e) {
                writer.flush();
                throw new UsageException(name + " " + e.getMessage(), e);
            }
            if (frames == 0) {
                throw new UsageException(name + ": no frames (the input is empty or blank; a frame log has one JSON"
                        + " object per line, see docs/frametimeline.md)");
            }
            return 0;
        } catch (CharacterCodingException e) {
            throw new UsageException("cannot read " + name + ": not UTF-8 text");
        } catch (IOException e) {
            if (e.getMessage() != null && e.getMessage().contains("standard output")) {
                return BinaryStdout.writeFailed(e);
            }
            if (BinaryStdout.isBrokenPipe(e)) {
                return BinaryStdout.writeFailed(e);
            }
            throw new UsageException("cannot read " + name + ": " + e.getMessage(), e);
        }
    }

    /** Whether {@code --android} asks for Android 16 QPR2's {@code buffer_stuffing_fix} rule. */
    private static boolean android(Args.Parsed args) throws UsageException {
        String v = args.value("--android");
        if (v == null || v.equals("16")) {
            return false;
        }
        if (v.equals("16-qpr2")) {
            return true;
        }
        throw new UsageException("option --android must be 16 or 16-qpr2, got '" + v + "'");
    }

    static Reader open(String input, InputStream stdin) throws UsageException, IOException {
        InputStream stream;
        if (input.equals("-")) {
            stream = stdin;
        } else {
            Path path = Path.of(input);
            if (Files.isDirectory(path)) {
                throw new UsageException("cannot read " + input + ": is a directory");
            }
            try {
                stream = Files.newInputStream(path);
            } catch (NoSuchFileException e) {
                throw new UsageException("cannot read " + input + ": no such file");
            } catch (AccessDeniedException e) {
                throw new UsageException("cannot read " + input + ": permission denied");
            }
        }
        return new InputStreamReader(stream, StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT));
    }

    private static long nanos(Args.Parsed args, String option, long fallback) throws UsageException {
        String v = args.value(option);
        if (v == null) {
            return fallback;
        }
        try {
            long n = Long.parseLong(v.trim());
            if (n >= 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new UsageException("option " + option + " must be a whole number of nanoseconds >= 0, got '" + v + "'");
    }
}
