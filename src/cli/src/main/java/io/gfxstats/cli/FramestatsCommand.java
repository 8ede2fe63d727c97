package io.gfxstats.cli;

import io.gfxstats.args.Args;
import io.gfxstats.args.UsageException;
import io.gfxstats.dump.DumpFormat;
import io.gfxstats.dump.ProtoDumpWriter;
import io.gfxstats.dump.TextDumpWriter;
import io.gfxstats.framestats.ColumnSet;
import io.gfxstats.framestats.DeviceStats;
import io.gfxstats.framestats.FramestatsBlock;
import io.gfxstats.framestats.FramestatsMatrix;
import io.gfxstats.framestats.FramestatsReplay;
import io.gfxstats.matrix.MatrixDevice;
import io.gfxstats.matrix.MatrixFormat;
import io.gfxstats.matrix.MatrixLevels;
import io.gfxstats.matrix.MatrixReport;
import io.gfxstats.proto.GraphicsStatsProto;
import io.gfxstats.stats.ProfileData;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;
import java.util.stream.Stream;

/**
 * {@code gfxstats framestats [--proto | --check] [--refresh-interval NS] [--format F] FILE|-}:
 * replays the frames of {@code adb shell dumpsys gfxinfo <pkg> framestats} output (or a bare
 * framestats CSV) through the jank trackers and prints what {@code dumpsys graphicsstats} would
 * print for them: one text block per window, or with {@code --proto} one
 * GraphicsStatsServiceDumpProto. {@code --check} instead compares each replay with the statistics
 * the device printed for the window, where the dump holds all of the window's frames.
 * {@code --matrix} prints Tencent Matrix {@code Trace_FPS} reports instead, one JSON line per window.
 */
final class FramestatsCommand extends OptionsCommand {
    static final String NAME = "framestats";
    /** Exit code of {@code --check} when a replay differs from what the device printed. */
    static final int EXIT_MISMATCH = 1;

    private enum Mode { TEXT, PROTO, CHECK, MATRIX }

    private final LongSupplier clock;

    FramestatsCommand() {
        this(System::currentTimeMillis);
    }

    /** With the clock that stamps Matrix reports' {@code time}. */
    FramestatsCommand(LongSupplier clock) {
        this.clock = clock;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String synopsis() {
        return "framestats [--proto|--check|--matrix] [--refresh-interval NS] [--format " + DumpFormat.names()
                + "|matrix-2.1|matrix-2.0]"
                + " [--slices matrix|window|process] [--levels N,M,H,F] [--issue-lines] [--time MS] FILE|-   replay 'dumpsys gfxinfo <pkg> framestats' output";
    }

    @Override
    Args options() {
        return new Args(NAME)
                .positional("FILE|-")
                .flag("--proto", "write one GraphicsStatsServiceDumpProto instead of text")
                .flag("--check", "compare each replay with the statistics the device printed"
                        + " (exit 1 if any window whose frames all fit in the dump differs)")
                .value("--refresh-interval", "NS", "display refresh interval in nanoseconds (default "
                        + FramestatsReplay.DEFAULT_REFRESH_INTERVAL_NANOS + "); used by the legacy accounting,"
                        + " for 16-column input, and for rows without FrameInterval")
                .value("--format", "F", "text layout of an Android release (" + DumpFormat.names()
                        + "; default android14, android9 for 16-column input); with --matrix: matrix-2.1 (default)"
                        + " or matrix-2.0, the keys, key order and arithmetic of that Matrix version")
                .flag("--matrix", "print Tencent Matrix Trace_FPS reports, one JSON line per report the Matrix version"
                        + " would print (scene = the window name; each row's refresh rate is 1e9 / its FrameInterval);"
                        + " frames left unreported are counted on stderr")
                .value("--slices", "S", "with --matrix: matrix (default) cuts each window's frames as the Matrix"
                        + " version does (2.1: every 10 s of FrameCompleted time, reported with more than 20 frames;"
                        + " 2.0: each 10,000 ms of summed frame cost, the rest never reported); window: one report"
                        + " per window with more than 20 frames; process (2.1 only): one slice sequence for all"
                        + " windows of a process, as Matrix 2.1's single listener has, named after each slice's"
                        + " last window")
                .value("--levels", "N,M,H,F", "with --matrix: lower bounds of the NORMAL, MIDDLE, HIGH, FROZEN levels"
                        + " (default " + MatrixLevels.DEFAULT + ")")
                .flag("--issue-lines", "with --matrix: wrap each report as Matrix logs it:"
                        + " tag[Trace_FPS]type[0];key[null];content[...]")
                .value("--time", "MS", "with --matrix: the reports' time (epoch ms; default now)");
    }

    @Override
    String about() {
        return "FILE|- is gfxinfo framestats output or a bare framestats CSV; - reads stdin.";
    }

    @Override
    int execute(Args.Parsed args, InputStream in, PrintStream out, PrintStream err) throws Exception {
        if (Stream.of("--proto", "--check", "--matrix").filter(args::has).count() > 1) {
            throw new UsageException("--proto, --check and --matrix exclude each other");
        }
        Mode mode = args.has("--proto") ? Mode.PROTO : args.has("--check") ? Mode.CHECK
                : args.has("--matrix") ? Mode.MATRIX : Mode.TEXT;
        long refresh = args.has("--refresh-interval") ? Args.refreshInterval(args.value("--refresh-interval"))
                : FramestatsReplay.DEFAULT_REFRESH_INTERVAL_NANOS;
        DumpFormat format = null;
        String formatName = args.value("--format");
        MatrixLevels levels = MatrixLevels.DEFAULT;
        if (args.has("--levels")) {
            try {
                levels = MatrixLevels.parse(args.value("--levels"));
            } catch (IllegalArgumentException e) {
                throw new UsageException(e.getMessage());
            }
        }
        FramestatsMatrix.Slicing slicing = FramestatsMatrix.Slicing.MATRIX;
        if (args.has("--slices")) {
            try {
                slicing = FramestatsMatrix.Slicing.parse(args.value("--slices"));
            } catch (IllegalArgumentException e) {
                throw new UsageException(e.getMessage());
            }
        }
        boolean issueLines = args.has("--issue-lines");
        Long time = null;
        if (args.has("--time")) {
            String value = args.value("--time");
            try {
                time = Long.parseLong(value.trim());
            } catch (NumberFormatException e) {
                throw new UsageException("--time needs epoch milliseconds, got '" + value + "'");
            }
        }
        if (args.positionals().size() > 1) {
            throw new UsageException("one input only, got '" + args.positionals().get(0) + "' and '"
                    + args.positionals().get(1) + "'");
        }
        String input = args.positionals().isEmpty() ? null : args.positionals().get(0);
        if (input == null) {
            throw new UsageException("missing input: FILE, or - for stdin (try: gfxstats framestats --help)");
        }
        MatrixFormat matrixFormat = MatrixFormat.V2_1;
        if (mode == Mode.MATRIX) {
            if (formatName != null) {
                try {
                    matrixFormat = MatrixFormat.parse(formatName);
                } catch (IllegalArgumentException e) {
                    throw new UsageException(e.getMessage());
                }
            }
        } else {
            if (formatName != null) {
                if (mode != Mode.TEXT) {
                    throw new UsageException("--format applies to text output only");
                }
                try {
                    format = DumpFormat.parse(formatName);
                } catch (IllegalArgumentException e) {
                    throw new UsageException(e.getMessage());
                }
            }
            if (issueLines || time != null || levels != MatrixLevels.DEFAULT || args.has("--slices")) {
                throw new UsageException("--slices, --levels, --issue-lines and --time apply to --matrix only");
            }
        }

        if (slicing == FramestatsMatrix.Slicing.PROCESS && matrixFormat != MatrixFormat.V2_1) {
            throw new UsageException("--slices process applies to --format matrix-2.1 only (Matrix 2.0 keeps a slice"
                    + " per scene)");
        }
        List<FramestatsBlock> blocks = FramestatsInput.read(input, in);
        if (mode == Mode.MATRIX) {
            FramestatsMatrix matrix = new FramestatsMatrix(matrixFormat, levels, MatrixDevice.UNKNOWN, refresh,
                    slicing);
            return writeMatrix(blocks, matrix, matrixFormat, issueLines, time != null ? time : clock.getAsLong(),
                    out, err);
        }
        return switch (mode) {
            case TEXT -> writeText(blocks, refresh, format, out);
            case PROTO -> writeProto(blocks, refresh, out);
            case CHECK -> check(blocks, refresh, out);
            case MATRIX -> throw new IllegalStateException();
        };
    }

    private static int writeMatrix(List<FramestatsBlock> blocks, FramestatsMatrix matrix, MatrixFormat format,
            boolean issueLines, long time, PrintStream out, PrintStream err) {
        if (matrix.slicing() == FramestatsMatrix.Slicing.PROCESS) {
            Map<String, List<FramestatsBlock>> byProcess = new LinkedHashMap<>();
            for (FramestatsBlock block : blocks) {
                byProcess.computeIfAbsent(block.process().orElse(block.name()), p -> new ArrayList<>()).add(block);
            }
            for (Map.Entry<String, List<FramestatsBlock>> e : byProcess.entrySet()) {
                FramestatsMatrix.ProcessResult result = matrix.reportProcess(e.getKey(), e.getValue(), time);
                for (MatrixReport report : result.reports()) {
                    out.println(issueLines ? format.issueLine(report) : format.json(report));
                }
                if (result.unreported() > 0 || result.reports().isEmpty()) {
                    err.println("not reported: process " + e.getKey() + " (" + e.getValue().size() + " windows): "
                            + result.unreported() + " of " + result.frames() + " frames"
                            + (result.refused() > 0 ? " (" + result.refused() + " outliers left out)" : "")
                            + ", " + matrix.unreportedReason());
                }
            }
            return 0;
        }
        for (FramestatsBlock block : blocks) {
            FramestatsMatrix.BlockResult result = matrix.report(block, time);
            for (MatrixReport report : result.reports()) {
                out.println(issueLines ? format.issueLine(report) : format.json(report));
            }
            if (result.unreported() > 0 || result.reports().isEmpty()) {
                err.println("not reported: " + block.name() + " (line " + block.headerLine() + "): "
                        + result.unreported() + " of " + result.frames() + " frames"
                        + (result.refused() > 0 ? " (" + result.refused() + " outliers left out)" : "")
                        + ", " + matrix.unreportedReason());
            }
        }
        return 0;
    }

    private static int writeText(List<FramestatsBlock> blocks, long refresh, DumpFormat format, PrintStream out)
            throws IOException {
        for (FramestatsBlock block : blocks) {
            DumpFormat blockFormat = format != null ? format
                    : block.columnSet() == ColumnSet.ANDROID9 ? DumpFormat.ANDROID9 : DumpFormat.ANDROID14;
            ProfileData data = FramestatsReplay.replay(block, refresh);
            new TextDumpWriter(blockFormat).write(List.of(FramestatsReplay.toProto(block, data)), out);
        }
        return 0;
    }

    private static int writeProto(List<FramestatsBlock> blocks, long refresh, PrintStream out) throws IOException {
        List<GraphicsStatsProto> entries = new ArrayList<>(blocks.size());
        for (FramestatsBlock block : blocks) {
            entries.add(FramestatsReplay.toProto(block, FramestatsReplay.replay(block, refresh)));
        }
        new ProtoDumpWriter().write(entries, out);
        return 0;
    }

    private static int check(List<FramestatsBlock> blocks, long refresh, PrintStream out) {
        int matched = 0;
        int differed = 0;
        int skipped = 0;
        for (FramestatsBlock block : blocks) {
            String where = block.name() + " (line " + block.headerLine() + ")";
            if (block.deviceStats().isEmpty()) {
                out.println("skip     " + where + ": the dump prints no statistics for this window");
                skipped++;
                continue;
            }
            DeviceStats device = block.deviceStats().get();
            if (!block.reproducesDeviceStats()) {
                out.println("skip     " + where + ": the device counted " + device.totalFrames()
                        + " frames, the dump holds only " + block.rowCount() + " rows");
                skipped++;
                continue;
            }
            ProfileData replay = FramestatsReplay.replay(block, refresh);
            List<String> differences = device.differencesFrom(replay);
            if (differences.isEmpty()) {
                out.println("match    " + where + ": " + replay.totalFrames() + " frames");
                matched++;
            } else {
                out.println("MISMATCH " + where + ":");
                for (String d : differences) {
                    out.println("           " + d);
                }
                differed++;
            }
        }
        out.println(matched + " matched, " + differed + " differed, " + skipped + " skipped");
        return differed > 0 ? EXIT_MISMATCH : 0;
    }
}
