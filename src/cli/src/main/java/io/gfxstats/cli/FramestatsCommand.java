package io.gfxstats.cli;

import io.gfxstats.dump.DumpFormat;
import io.gfxstats.dump.ProtoDumpWriter;
import io.gfxstats.dump.TextDumpWriter;
import io.gfxstats.framestats.ColumnSet;
import io.gfxstats.framestats.DeviceStats;
import io.gfxstats.framestats.FramestatsBlock;
import io.gfxstats.framestats.FramestatsReplay;
import io.gfxstats.framestats.FramestatsMatrix;
import io.gfxstats.matrix.MatrixDevice;
import io.gfxstats.matrix.MatrixFormat;
import io.gfxstats.matrix.MatrixLevels;
import io.gfxstats.proto.GraphicsStatsProto;
import io.gfxstats.stats.ProfileData;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * {@code gfxstats framestats [--proto | --check] [--refresh-interval NS] [--format F] FILE|-}:
 * replays the frames of {@code adb shell dumpsys gfxinfo <pkg> framestats} output (or a bare
 * framestats CSV) through the jank trackers and prints what {@code dumpsys graphicsstats} would
 * print for them: one text block per window, or with {@code --proto} one
 * GraphicsStatsServiceDumpProto. {@code --check} instead compares each replay with the statistics
 * the device printed for the window, where the dump holds all of the window's frames.
 * {@code --matrix} prints Tencent Matrix {@code Trace_FPS} reports instead, one JSON line per window.
 */
final class FramestatsCommand implements Command {
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
                + "|matrix-2.1|matrix-2.0] FILE|-   replay 'dumpsys gfxinfo <pkg> framestats' output";
    }

    @Override
    public int run(String[] args, InputStream in, PrintStream out, PrintStream err) throws Exception {
        Mode mode = Mode.TEXT;
        long refresh = FramestatsReplay.DEFAULT_REFRESH_INTERVAL_NANOS;
        DumpFormat format = null;
        String formatName = null;
        MatrixLevels levels = MatrixLevels.DEFAULT;
        boolean issueLines = false;
        Long time = null;
        String input = null;
        for (int i = 0; i < args.length; i++) {
            Args.Token token = Args.Token.of(args[i]);
            String arg = token.name();
            String value = token.value();
            switch (arg) {
                case "-h", "--help" -> {
                    out.println("usage: gfxstats " + synopsis());
                    out.println();
                    out.println("  FILE|-                 gfxinfo framestats output or a bare framestats CSV; - reads stdin");
                    out.println("  --proto                write one GraphicsStatsServiceDumpProto instead of text");
                    out.println("  --check                compare each replay with the statistics the device printed");
                    out.println("                         (exit 1 if any window whose frames all fit in the dump differs)");
                    out.println("  --refresh-interval NS  display refresh interval in nanoseconds (default "
                            + FramestatsReplay.DEFAULT_REFRESH_INTERVAL_NANOS + "); used by the legacy");
                    out.println("                         accounting, for 16-column input, and for rows without FrameInterval");
                    out.println("  --format F             text layout of an Android release (" + DumpFormat.names() + ");");
                    out.println("                         default android14, android9 for 16-column input");
                    out.println("  --matrix               print Tencent Matrix Trace_FPS reports, one JSON line per window");
                    out.println("                         with more than 20 frames (scene = the window name; each row's");
                    out.println("                         refresh rate is 1e9 / its FrameInterval); Matrix 2.1 arithmetic");
                    out.println("    --format F           matrix-2.1 (default) or matrix-2.0: keys, key order and arithmetic");
                    out.println("                         of that Matrix version");
                    out.println("    --levels N,M,H,F     lower bounds of the NORMAL, MIDDLE, HIGH, FROZEN levels (default "
                            + MatrixLevels.DEFAULT + ")");
                    out.println("    --issue-lines        wrap each report as Matrix logs it: tag[Trace_FPS]type[0];key[null];content[...]");
                    out.println("    --time MS            the reports' time (epoch ms; default now)");
                    out.println("                         windows not reported are named on stderr");
                    return 0;
                }
                case "--proto" -> mode = setMode(mode, Mode.PROTO, value);
                case "--check" -> mode = setMode(mode, Mode.CHECK, value);
                case "--matrix" -> mode = setMode(mode, Mode.MATRIX, value);
                case "--issue-lines" -> {
                    if (value != null) {
                        throw new UsageException("--issue-lines takes no value");
                    }
                    issueLines = true;
                }
                case "--levels" -> {
                    if (value == null) {
                        value = Args.next(args, ++i, arg);
                    }
                    try {
                        levels = MatrixLevels.parse(value);
                    } catch (IllegalArgumentException e) {
                        throw new UsageException(e.getMessage());
                    }
                }
                case "--time" -> {
                    if (value == null) {
                        value = Args.next(args, ++i, arg);
                    }
                    try {
                        time = Long.parseLong(value.trim());
                    } catch (NumberFormatException e) {
                        throw new UsageException("--time needs epoch milliseconds, got '" + value + "'");
                    }
                }
                case "--refresh-interval" -> {
                    if (value == null) {
                        value = Args.next(args, ++i, arg);
                    }
                    refresh = Args.refreshInterval(value);
                }
                case "--format" -> {
                    if (value == null) {
                        value = Args.next(args, ++i, arg);
                    }
                    formatName = value;
                }
                default -> {
                    if (arg.startsWith("-") && !arg.equals("-")) {
                        throw new UsageException("unknown option '" + args[i] + "' (try: gfxstats framestats --help)");
                    }
                    if (input != null) {
                        throw new UsageException("one input only, got '" + input + "' and '" + arg + "'");
                    }
                    input = args[i];
                }
            }
        }
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
            if (issueLines || time != null || levels != MatrixLevels.DEFAULT) {
                throw new UsageException("--levels, --issue-lines and --time apply to --matrix only");
            }
        }

        List<FramestatsBlock> blocks = FramestatsInput.read(input, in);
        if (mode == Mode.MATRIX) {
            FramestatsMatrix matrix = new FramestatsMatrix(matrixFormat, levels, MatrixDevice.UNKNOWN, refresh);
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

    private static Mode setMode(Mode current, Mode wanted, String value) throws UsageException {
        if (value != null) {
            throw new UsageException("--" + wanted.name().toLowerCase(java.util.Locale.ROOT) + " takes no value");
        }
        if (current != Mode.TEXT && current != wanted) {
            throw new UsageException("--proto, --check and --matrix exclude each other");
        }
        return wanted;
    }

    private static int writeMatrix(List<FramestatsBlock> blocks, FramestatsMatrix matrix, MatrixFormat format,
            boolean issueLines, long time, PrintStream out, PrintStream err) {
        for (FramestatsBlock block : blocks) {
            FramestatsMatrix.BlockResult result = matrix.report(block, time);
            if (result.report().isPresent()) {
                out.println(issueLines ? format.issueLine(result.report().get()) : format.json(result.report().get()));
            } else {
                err.println("not reported: " + block.name() + " (line " + block.headerLine() + "): " + result.frames()
                        + " frames" + (result.refused() > 0 ? " (" + result.refused() + " outliers left out)" : "")
                        + ", Matrix reports only more than 20");
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
