package io.gfxstats.cli;

import io.gfxstats.timeline.perfetto.FrameTimelineTrace;
import io.gfxstats.timeline.perfetto.PerfettoJson;
import io.gfxstats.timeline.perfetto.PerfettoReport;
import io.gfxstats.timeline.perfetto.TraceFormatException;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/** {@code gfxstats timeline perfetto TRACE}: the FrameTimeline jank of a Perfetto trace. */
final class TimelinePerfetto {
    private TimelinePerfetto() {
    }

    private static Args spec() {
        return new Args("timeline perfetto").positional("TRACE")
                .flag("--json", "one JSON object (the names of pull --json) instead of text");
    }

    static int run(String[] argv, PrintStream out) throws UsageException {
        Args spec = spec();
        Args.Parsed args = spec.parse(argv);
        if (args.help()) {
            out.print(spec.help("timeline perfetto [--json] TRACE",
                    "Reads the FrameTimeline events (android.surfaceflinger.frametimeline) of a Perfetto trace -\n"
                    + "plain, deflate- or zstd-compressed packets - and prints per process Perfetto's frame timeline\n"
                    + "metric and per layer the TimeStats-style summary (see docs/frametimeline.md)."));
            return 0;
        }
        if (args.positionals().size() != 1) {
            throw new UsageException("expected one trace file (try: gfxstats timeline perfetto --help)");
        }
        String input = args.positionals().get(0);
        Path path = Path.of(input);
        if (Files.isDirectory(path)) {
            throw new UsageException("cannot read " + input + ": is a directory");
        }
        FrameTimelineTrace trace;
        try (InputStream in = new BufferedInputStream(Files.newInputStream(path), 1 << 16)) {
            trace = FrameTimelineTrace.read(in);
        } catch (NoSuchFileException e) {
            throw new UsageException("cannot read " + input + ": no such file");
        } catch (AccessDeniedException e) {
            throw new UsageException("cannot read " + input + ": permission denied");
        } catch (TraceFormatException e) {
            throw new UsageException(input + ": " + e.getMessage(), e);
        } catch (IOException e) {
            throw new UsageException("cannot read " + input + ": " + e.getMessage(), e);
        }
        if (trace.slices().isEmpty()) {
            throw new UsageException(input + ": no FrameTimeline events (record with the data source "
                    + "android.surfaceflinger.frametimeline, Android 12 or newer)");
        }
        OutputStream stdout = BinaryStdout.of(out);
        try {
            PerfettoReport report = new PerfettoReport(trace);
            String text = args.has("--json") ? PerfettoJson.write(report, trace) + "\n" : report.text();
            stdout.write(text.getBytes(StandardCharsets.UTF_8));
            stdout.flush();
            return 0;
        } catch (IOException e) {
            return BinaryStdout.writeFailed(e);
        }
    }
}
