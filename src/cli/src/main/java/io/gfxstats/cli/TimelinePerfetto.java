package io.gfxstats.cli;

import io.gfxstats.args.Args;
import io.gfxstats.args.UsageException;
import io.gfxstats.timeline.perfetto.FrameTimelineReader;
import io.gfxstats.timeline.perfetto.PerfettoJson;
import io.gfxstats.timeline.perfetto.PerfettoReport;
import io.gfxstats.timeline.perfetto.SliceSink;
import io.gfxstats.timeline.perfetto.TraceFormatException;
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
    /** How far one compressed packet may expand, in MiB, unless --max-packet-mib says otherwise. */
    static final long DEFAULT_MAX_PACKET_MIB = 64;
    /** Events held to sort the trace, unless --sort-window says otherwise. */
    static final int DEFAULT_SORT_WINDOW = 1 << 16;

    private TimelinePerfetto() {
    }

    static Args spec() {
        return new Args("timeline perfetto")
                .flag("--json", "one JSON object (the names of pull --json) instead of text")
                .value("--max-packet-mib", "N", "how far one compressed packet may expand before it is refused as a "
                        + "compression bomb (default 64)")
                .value("--sort-window", "N", "events held to put the trace in timestamp order (default 65536)")
                .positional("TRACE|-");
    }

    static int run(String[] argv, InputStream stdin, PrintStream out, PrintStream err) throws UsageException {
        Args spec = spec();
        Args.Parsed args = spec.parse(argv);
        if (args.help()) {
            out.print(spec.help("timeline perfetto [options] TRACE",
                    "Reads the FrameTimeline events (android.surfaceflinger.frametimeline) of a Perfetto trace -\n"
                    + "plain, deflate- or zstd-compressed packets, as a stream - and prints per process Perfetto's frame\n"
                    + "timeline metric and per layer the TimeStats-style summary (see docs/frametimeline.md). A trace\n"
                    + "cut short is read up to the cut (exit status 1, the cut named on stderr)."));
            return 0;
        }
        if (args.positionals().size() != 1) {
            throw new UsageException("expected one trace file (try: gfxstats timeline perfetto --help)");
        }
        long maxPacket = positive(args, "--max-packet-mib", DEFAULT_MAX_PACKET_MIB, 1 << 20) << 20;
        int window = (int) positive(args, "--sort-window", DEFAULT_SORT_WINDOW, 1 << 26);
        String input = args.positionals().get(0);
        PerfettoReport report = new PerfettoReport();
        String cutNote = read(input, stdin, report, report, maxPacket, window);
        OutputStream stdout = BinaryStdout.of(out);
        try {
            String text = args.has("--json") ? PerfettoJson.write(report) + "\n" : report.text();
            stdout.write(text.getBytes(StandardCharsets.UTF_8));
            stdout.flush();
        } catch (IOException e) {
            return BinaryStdout.writeFailed(e);
        }
        if (cutNote != null) {
            err.println("gfxstats timeline: " + input + ": read up to the cut;" + cutNote);
            return 1;
        }
        return 0;
    }

    /**
     * Reads a trace into {@code report} through {@code sink} (the report itself, or a sink that
     * passes every slice on to it) and finishes the report: what {@code timeline perfetto} and
     * {@code report --perfetto} both count. Returns the note on a cut trace, null for a whole one.
     */
    static String read(String input, InputStream stdin, PerfettoReport report, SliceSink sink, long maxPacket,
            int window) throws UsageException {
        Path path = Path.of(input);
        if (!input.equals("-") && Files.isDirectory(path)) {
            throw new UsageException("cannot read " + input + ": is a directory");
        }
        FrameTimelineReader.Result result;
        try (InputStream in = input.equals("-") ? stdin : Files.newInputStream(path)) {
            result = FrameTimelineReader.read(in, sink, maxPacket, window, input.equals("-") ? -1 : Files.size(path));
        } catch (NoSuchFileException e) {
            throw new UsageException("cannot read " + input + ": no such file");
        } catch (AccessDeniedException e) {
            throw new UsageException("cannot read " + input + ": permission denied");
        } catch (TraceFormatException e) {
            throw new UsageException(input + ": " + e.getMessage(), e);
        } catch (IOException e) {
            throw new UsageException("cannot read " + input + ": " + e.getMessage(), e);
        }
        report.finish(result);
        FrameTimelineReader.Cut cut = result.cut();
        String cutNote = cut == null ? null : " the trace ends inside packet " + cut.packet() + " (bytes "
                + cut.offset() + " to " + cut.fileBytes() + " of the file are a cut-off packet: an interrupted pull?)";
        if (report.surfaceFrames() == 0) {
            throw new UsageException(input + ": no FrameTimeline events (record with the data source "
                    + "android.surfaceflinger.frametimeline, Android 12 or newer)" + (cut == null ? "" : ";" + cutNote));
        }
        return cutNote;
    }

    private static long positive(Args.Parsed args, String option, long fallback, long max) throws UsageException {
        String v = args.value(option);
        if (v == null) {
            return fallback;
        }
        try {
            long n = Long.parseLong(v.trim());
            if (n >= 1 && n <= max) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new UsageException("option " + option + " must be a whole number from 1 to " + max + ", got '" + v + "'");
    }
}
