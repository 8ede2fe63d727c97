package io.gfxstats.cli;

import io.gfxstats.dump.DumpFormat;
import io.gfxstats.dump.ProtoDumpWriter;
import io.gfxstats.dump.TextDumpWriter;
import io.gfxstats.proto.GraphicsStatsProto;
import io.gfxstats.trace.ClockOffset;
import io.gfxstats.trace.ProcessInfo;
import io.gfxstats.trace.ProcessSummary;
import io.gfxstats.trace.Trace;
import io.gfxstats.trace.TraceFormatException;
import io.gfxstats.trace.TraceFrame;
import io.gfxstats.trace.TraceFrames;
import io.gfxstats.trace.TraceParser;
import io.gfxstats.trace.output.CsvWriter;
import io.gfxstats.trace.output.FrameInfoMapping;
import io.gfxstats.trace.output.JsonWriter;
import io.gfxstats.trace.output.Progress;
import io.gfxstats.trace.output.SqliteWriter;
import io.gfxstats.trace.output.SummaryWriter;
import io.gfxstats.trace.output.TraceReport;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code gfxstats trace FILE|-}: frames of an OpenHarmony (hitrace) or Android (atrace) text trace,
 * offline. OpenHarmony frames exactly as SmartPerf-Host's trace_streamer computes them, with the
 * vsync clock put on the trace clock; Android frames from doFrame/DrawFrames. See docs/trace.md.
 */
final class TraceCommand implements Command {
    static final String NAME = "trace";
    /** Exit code of {@code --fail-on-janky-percent} when a selected process is above the threshold. */
    static final int EXIT_TOO_JANKY = 3;

    enum Format { SUMMARY, CSV, JSON, SQLITE, DUMPSYS, PROTO }

    enum Platform { AUTO, OHOS, ANDROID }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String synopsis() {
        return "trace FILE|- [--platform auto|ohos|android] [--process NAME|PID]... [--clock-offset auto|none|NS]"
                + " [--format summary|csv|json|sqlite|dumpsys|proto] [--out PATH] [--refresh-interval NS]"
                + " [--fail-on-janky-percent P]   frames of an OpenHarmony/Android text trace";
    }

    private static void help(PrintStream out) {
        out.println("usage: gfxstats trace FILE|- [options]");
        out.println();
        out.println("Frames of a hitrace (OpenHarmony) or atrace (Android) text trace, plain or gzip, without a daemon.");
        out.println("OpenHarmony frames are computed exactly as SmartPerf-Host's trace_streamer does (docs/trace.md).");
        out.println();
        out.println("  FILE|-                     the trace text; - reads stdin");
        out.println("  --platform P               auto (default: whatever the trace holds), ohos, android");
        out.println("  --process NAME|PID         only this process (repeatable); a name matches exactly or as a part");
        out.println("  --clock-offset C           auto (default): put vsync times on the trace clock, estimated from");
        out.println("                             'H:VSync now:' lines; none: raw, as trace_streamer; NS: add NS");
        out.println("  --format F                 summary (default), csv, json, sqlite (needs --out), dumpsys, proto");
        out.println("  --out PATH                 write there instead of stdout");
        out.println("  --refresh-interval NS      Android frame period and the trackers' refresh interval");
        out.println("                             (default: 60 Hz for Android frames, the frames' median period for dumpsys)");
        out.println("  --fail-on-janky-percent P  exit 3 when a selected process has more than P% janky frames");
    }

    @Override
    public int run(String[] args, InputStream in, PrintStream out, PrintStream err) throws Exception {
        String input = null;
        Platform platform = Platform.AUTO;
        List<String> processes = new ArrayList<>();
        ClockOffset clock = ClockOffset.AUTO;
        Format format = Format.SUMMARY;
        Path outPath = null;
        long refresh = 0;
        double failAbove = -1;
        boolean optionsEnded = false;
        for (int i = 0; i < args.length; i++) {
            if (optionsEnded || !args[i].startsWith("--") || args[i].equals("-")) {
                if (!optionsEnded && args[i].startsWith("-") && !args[i].equals("-")) {
                    if (args[i].equals("-h")) {
                        help(out);
                        return 0;
                    }
                    throw new UsageException("unknown option '" + args[i] + "' (try: gfxstats trace --help)");
                }
                if (input != null) {
                    throw new UsageException("one input only, got '" + input + "' and '" + args[i] + "'");
                }
                input = args[i];
                continue;
            }
            Args.Token token = Args.Token.of(args[i]);
            String arg = token.name();
            if (arg.equals("--")) {
                optionsEnded = true;
                continue;
            }
            if (arg.equals("--help")) {
                help(out);
                return 0;
            }
            String value = token.value() != null ? token.value() : Args.next(args, ++i, arg);
            switch (arg) {
                case "--platform" -> platform = choice(Platform.class, arg, value);
                case "--process" -> processes.add(value);
                case "--clock-offset" -> {
                    try {
                        clock = ClockOffset.parse(value);
                    } catch (IllegalArgumentException e) {
                        throw new UsageException(e.getMessage());
                    }
                }
                case "--format" -> format = choice(Format.class, arg, value);
                case "--out" -> outPath = Path.of(value);
                case "--refresh-interval" -> refresh = Args.refreshInterval(value);
                case "--fail-on-janky-percent" -> failAbove = percent(value);
                default -> throw new UsageException("unknown option '" + arg + "' (try: gfxstats trace --help)");
            }
        }
        if (input == null) {
            throw new UsageException("missing input: FILE, or - for stdin (try: gfxstats trace --help)");
        }
        if (format == Format.SQLITE && outPath == null) {
            throw new UsageException("--format sqlite needs --out PATH (a database file)");
        }
        if (outPath != null && Files.isDirectory(outPath)) {
            throw new UsageException("cannot write " + outPath + ": is a directory");
        }
        if (outPath != null) {
            Path parent = outPath.toAbsolutePath().getParent();
            if (parent != null && !Files.isDirectory(parent)) {
                throw new UsageException("cannot write " + outPath + ": no such directory " + parent);
            }
        }

        Trace trace = read(input, in, clock, err);
        long androidPeriod = refresh > 0 ? refresh : io.gfxstats.frame.TrackerConfig.NANOS_60HZ;
        List<TraceFrames.ProcessFrames> all = TraceFrames.of(trace, androidPeriod);
        List<TraceFrames.ProcessFrames> selected = select(all, platform, processes, trace);
        String platformName = platformName(trace, platform);
        TraceReport report = TraceReport.of(input, platformName, trace, selected);
        final long refreshNanos = refresh;
        final Format textFormat = format;

        switch (format) {
            case SQLITE -> SqliteWriter.write(trace, input, outPath);
            case PROTO -> {
                err.println("gfxstats trace: clock offset " + trace.clockOffset());
                writeBytes(outPath, out, o -> new ProtoDumpWriter().write(dumpEntries(selected, refreshNanos), o));
            }
            case DUMPSYS -> {
                err.println("gfxstats trace: clock offset " + trace.clockOffset());
                writeBytes(outPath, out, o -> new TextDumpWriter(DumpFormat.ANDROID14).write(dumpEntries(selected, refreshNanos), o));
            }
            default -> writeText(outPath, out, p -> {
                switch (textFormat) {
                    case CSV -> CsvWriter.write(report, p);
                    case JSON -> JsonWriter.write(report, p);
                    default -> SummaryWriter.write(report, p);
                }
            });
        }
        if (failAbove >= 0) {
            for (ProcessSummary s : report.summaries()) {
                if (s.jankyPercent() > failAbove) {
                    err.println(String.format(Locale.ROOT,
                            "gfxstats trace: %s (pid %d) has %.2f%% janky frames, above %s%%",
                            s.name(), s.pid(), s.jankyPercent(), stripZeros(failAbove)));
                    return EXIT_TOO_JANKY;
                }
            }
        }
        return 0;
    }

    private static String stripZeros(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
    }

    private static <E extends Enum<E>> E choice(Class<E> type, String option, String value) throws UsageException {
        for (E e : type.getEnumConstants()) {
            if (e.name().toLowerCase(Locale.ROOT).equals(value)) {
                return e;
            }
        }
        List<String> names = new ArrayList<>();
        for (E e : type.getEnumConstants()) {
            names.add(e.name().toLowerCase(Locale.ROOT));
        }
        throw new UsageException(option + " takes one of " + String.join(", ", names) + ", got '" + value + "'");
    }

    private static double percent(String value) throws UsageException {
        try {
            double p = Double.parseDouble(value.trim());
            if (p >= 0 && p <= 100) {
                return p;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new UsageException("--fail-on-janky-percent takes a number from 0 to 100, got '" + value + "'");
    }

    private static Trace read(String input, InputStream stdin, ClockOffset clock, PrintStream err)
            throws UsageException, IOException {
        try {
            if (input.equals("-")) {
                return TraceParser.parse(stdin, "stdin", clock, null);
            }
            Path path = Path.of(input);
            if (Files.isDirectory(path)) {
                throw new UsageException("cannot read " + input + ": is a directory");
            }
            try (InputStream file = Files.newInputStream(path)) {
                Progress progress = Progress.forInput(err, Files.size(path));
                try {
                    return TraceParser.parse(file, input, clock, progress);
                } finally {
                    if (progress != null) {
                        progress.done();
                    }
                }
            }
        } catch (NoSuchFileException e) {
            throw new UsageException("cannot read " + input + ": no such file");
        } catch (AccessDeniedException e) {
            throw new UsageException("cannot read " + input + ": permission denied");
        } catch (java.util.zip.ZipException e) {
            throw new UsageException("cannot read " + input + ": corrupt gzip data (" + e.getMessage() + ")");
        } catch (java.io.EOFException e) {
            throw new UsageException("cannot read " + input + ": gzip data ends early");
        } catch (TraceFormatException e) {
            throw new UsageException(e.getMessage());
        }
    }

    static String platformName(Trace trace, Platform platform) {
        boolean ohos = trace.hasOhosMarkers() && platform != Platform.ANDROID;
        boolean android = trace.hasAndroidFrames() && platform != Platform.OHOS;
        if (ohos && android) {
            return "ohos+android";
        }
        if (android) {
            return "android";
        }
        if (ohos) {
            return "ohos";
        }
        return "no frame markers";
    }

    private static List<TraceFrames.ProcessFrames> select(List<TraceFrames.ProcessFrames> all, Platform platform,
                                                          List<String> wanted, Trace trace) throws UsageException {
        List<TraceFrames.ProcessFrames> out = new ArrayList<>();
        for (TraceFrames.ProcessFrames pf : all) {
            List<TraceFrame> frames = new ArrayList<>();
            for (TraceFrame f : pf.frames()) {
                boolean android = f.role().equals("android");
                if (platform == Platform.AUTO || (platform == Platform.ANDROID) == android) {
                    frames.add(f);
                }
            }
            if (!frames.isEmpty()) {
                out.add(new TraceFrames.ProcessFrames(pf.name(), pf.pid(), List.copyOf(frames)));
            }
        }
        if (wanted.isEmpty()) {
            return out;
        }
        List<TraceFrames.ProcessFrames> chosen = new ArrayList<>();
        for (String w : wanted) {
            boolean any = false;
            for (TraceFrames.ProcessFrames pf : out) {
                if (matches(pf, w, trace) && !chosen.contains(pf)) {
                    chosen.add(pf);
                    any = true;
                } else if (matches(pf, w, trace)) {
                    any = true;
                }
            }
            if (!any) {
                List<String> names = new ArrayList<>();
                for (TraceFrames.ProcessFrames pf : out) {
                    names.add(pf.name() + " (" + pf.pid() + ")");
                }
                throw new UsageException("no process with frames matches --process " + w
                        + (names.isEmpty() ? " (the trace has no frames)" : "; processes with frames: " + String.join(", ", names)));
            }
        }
        return chosen;
    }

    private static boolean matches(TraceFrames.ProcessFrames pf, String wanted, Trace trace) {
        if (wanted.chars().allMatch(Character::isDigit) && !wanted.isEmpty()) {
            long pid = Long.parseLong(wanted);
            if (pf.pid() == pid) {
                return true;
            }
            for (ProcessInfo p : trace.processes()) {
                if (p.pid() == pf.pid() && p.kernelTgid() == pid) {
                    return true;
                }
            }
            return false;
        }
        return pf.name().equals(wanted) || pf.name().contains(wanted);
    }

    private static List<GraphicsStatsProto> dumpEntries(List<TraceFrames.ProcessFrames> selected, long refresh) {
        List<GraphicsStatsProto> entries = new ArrayList<>();
        for (TraceFrames.ProcessFrames pf : selected) {
            entries.add(FrameInfoMapping.toProto(pf, refresh));
        }
        return entries;
    }

    @FunctionalInterface
    private interface ByteBody {
        void write(OutputStream out) throws IOException;
    }

    @FunctionalInterface
    private interface TextBody {
        void write(PrintStream out) throws IOException;
    }

    private static void writeBytes(Path path, PrintStream stdout, ByteBody body) throws IOException {
        if (path == null) {
            OutputStream o = BinaryStdout.of(stdout);
            body.write(o);
            o.flush();
            return;
        }
        try (OutputStream o = new BufferedOutputStream(Files.newOutputStream(path))) {
            body.write(o);
        }
    }

    private static void writeText(Path path, PrintStream stdout, TextBody body) throws IOException {
        if (path == null) {
            body.write(stdout);
            stdout.flush();
            return;
        }
        try (PrintStream p = new PrintStream(new BufferedOutputStream(Files.newOutputStream(path), 1 << 16), false,
                StandardCharsets.UTF_8)) {
            body.write(p);
            if (p.checkError()) {
                throw new IOException("cannot write " + path);
            }
        }
    }
}
