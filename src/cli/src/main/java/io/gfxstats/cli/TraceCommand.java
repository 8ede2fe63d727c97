package io.gfxstats.cli;

import io.gfxstats.args.Args;
import io.gfxstats.args.UsageException;
import io.gfxstats.frame.TrackerConfig;
import io.gfxstats.trace.ClockOffset;
import io.gfxstats.trace.ProcessInfo;
import io.gfxstats.trace.ProcessSummary;
import io.gfxstats.trace.Trace;
import io.gfxstats.trace.TraceFormatException;
import io.gfxstats.trace.TraceFrame;
import io.gfxstats.trace.TraceFrames;
import io.gfxstats.trace.TraceParser;
import io.gfxstats.trace.output.Progress;
import io.gfxstats.trace.output.TraceReport;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.zip.ZipException;

/**
 * {@code gfxstats trace FILE|-}: frames of an OpenHarmony (hitrace) or Android (atrace) text trace,
 * offline. OpenHarmony frames exactly as SmartPerf-Host's trace_streamer computes them, with the
 * vsync clock put on the trace clock; Android frames from doFrame/DrawFrames. See docs/trace.md.
 * Options are {@link TraceOptions}, writing is {@link TraceOutput}; this class reads the trace and
 * picks the processes.
 */
final class TraceCommand extends OptionsCommand {
    static final String NAME = "trace";
    /** Exit code of {@code --fail-on-janky-percent} when a selected process is above the threshold. */
    static final int EXIT_TOO_JANKY = 3;

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String synopsis() {
        return TraceOptions.SYNOPSIS;
    }

    @Override
    Args options() {
        return TraceOptions.spec();
    }

    @Override
    String about() {
        return TraceOptions.ABOUT;
    }

    @Override
    int execute(Args.Parsed args, InputStream in, PrintStream out, PrintStream err) throws Exception {
        TraceOptions options = TraceOptions.of(args);
        Trace trace = read(options.input(), in, options.clock(), options.sortWindow(),
                options.format() == TraceOptions.Format.SQLITE, err);
        long unsorted = trace.stats().unsortedLines();
        if (unsorted > 0) {
            err.println("gfxstats trace: " + options.input() + ": " + unsorted + " marker line" + (unsorted == 1 ? " is" : "s are")
                    + " out of time order by more than " + options.sortWindow()
                    + " lines; read where they stand (widen with --sort-window N)");
        }
        long skipped = trace.stats().skippedLines();
        if (skipped > 0) {
            err.println("gfxstats trace: " + options.input() + ": skipped " + skipped + " tracing_mark_write line"
                    + (skipped == 1 ? "" : "s") + " without the ftrace row header (the first is line "
                    + trace.stats().firstSkippedLine() + "); the rest of the trace is read");
        }
        long androidPeriod = options.refresh() > 0 ? options.refresh() : TrackerConfig.NANOS_60HZ;
        List<TraceFrames.ProcessFrames> all = TraceFrames.of(trace, androidPeriod);
        List<TraceFrames.ProcessFrames> selected = select(all, options.platform(), options.processes(), trace);
        String platformName = platformName(trace, options.platform());
        TraceReport report = TraceReport.of(options.input(), platformName, trace, selected);
        TraceOutput.write(options, trace, selected, report, out, err);
        double failAbove = options.failAbove();
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

    /**
     * The frames {@code gfxstats trace} would count for these arguments (read, then selected by
     * --platform and --process): one place for the frame list, so {@code report --trace} draws and
     * counts the frames this command does.
     */
    static TraceReport selectedFrames(TraceOptions options, InputStream in, PrintStream err)
            throws UsageException, IOException {
        Trace trace = read(options.input(), in, options.clock(), options.sortWindow(), false, err);
        long androidPeriod = options.refresh() > 0 ? options.refresh() : TrackerConfig.NANOS_60HZ;
        List<TraceFrames.ProcessFrames> selected = select(TraceFrames.of(trace, androidPeriod), options.platform(),
                options.processes(), trace);
        return TraceReport.of(options.input(), platformName(trace, options.platform()), trace, selected);
    }

    private static String stripZeros(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
    }

    private static Trace read(String input, InputStream stdin, ClockOffset clock, int sortWindow, boolean callSlices,
                              PrintStream err)
            throws UsageException, IOException {
        try {
            if (input.equals("-")) {
                return TraceParser.parse(stdin, "stdin", clock, null, sortWindow, callSlices);
            }
            Path path = Path.of(input);
            if (Files.isDirectory(path)) {
                throw new UsageException("cannot read " + input + ": is a directory");
            }
            try (InputStream file = Files.newInputStream(path)) {
                Progress progress = Progress.forInput(err, Files.size(path));
                try {
                    return TraceParser.parse(file, input, clock, progress, sortWindow, callSlices);
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
        } catch (ZipException e) {
            throw new UsageException("cannot read " + input + ": corrupt gzip data (" + e.getMessage() + ")");
        } catch (EOFException e) {
            throw new UsageException("cannot read " + input + ": gzip data ends early");
        } catch (TraceFormatException e) {
            throw new UsageException(e.getMessage());
        } catch (OutOfMemoryError e) {
            throw new UsageException("cannot read " + input + ": the trace needs more memory than the "
                    + (Runtime.getRuntime().maxMemory() >> 20) + " MiB heap (GFXSTATS_JAVA_OPTS=-Xmx2g for more)");
        }
    }

    static String platformName(Trace trace, TraceOptions.Platform platform) {
        boolean ohos = trace.hasOhosMarkers() && platform != TraceOptions.Platform.ANDROID;
        boolean android = trace.hasAndroidFrames() && platform != TraceOptions.Platform.OHOS;
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

    private static List<TraceFrames.ProcessFrames> select(List<TraceFrames.ProcessFrames> all, TraceOptions.Platform platform,
                                                          List<String> wanted, Trace trace) throws UsageException {
        List<TraceFrames.ProcessFrames> out = new ArrayList<>();
        for (TraceFrames.ProcessFrames pf : all) {
            List<TraceFrame> frames = new ArrayList<>();
            for (TraceFrame f : pf.frames()) {
                boolean android = f.role().equals("android");
                if (platform == TraceOptions.Platform.AUTO || (platform == TraceOptions.Platform.ANDROID) == android) {
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
}
