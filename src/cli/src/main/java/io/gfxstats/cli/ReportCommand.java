package io.gfxstats.cli;

import io.gfxstats.args.Args;
import io.gfxstats.args.UsageException;
import io.gfxstats.buffer.SceneGroup;
import io.gfxstats.dayfile.DayFileException;
import io.gfxstats.framestats.FramestatsBlock;
import io.gfxstats.framestats.FramestatsReplay;
import io.gfxstats.proto.GfxstatsSceneStats;
import io.gfxstats.proto.GraphicsStatsProto;
import io.gfxstats.proto.GraphicsStatsServiceDumpProto;
import io.gfxstats.report.FrameSeries;
import io.gfxstats.report.FrameTimelineBlocks;
import io.gfxstats.report.HtmlReport;
import io.gfxstats.report.FrameLogFrames;
import io.gfxstats.report.PerfettoFrames;
import io.gfxstats.report.ReportData;
import io.gfxstats.rpc.GfxStatsClient;
import io.gfxstats.rpc.GfxStatsClientException;
import io.gfxstats.rpc.v1.DumpRequest;
import io.gfxstats.rpc.v1.SceneEntry;
import io.gfxstats.rpc.v1.ScenesRequest;
import io.gfxstats.stats.ProfileData;
import io.gfxstats.timeline.FrameTimelineClassifier;
import io.gfxstats.timeline.Thresholds;
import io.gfxstats.timeline.log.FrameLogClassifier;
import io.gfxstats.timeline.log.FrameLogException;
import io.gfxstats.timeline.perfetto.PerfettoReport;
import io.gfxstats.trace.TraceFrames;
import io.gfxstats.trace.output.FrameInfoMapping;
import io.gfxstats.trace.output.TraceReport;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.CharacterCodingException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code gfxstats report [--package P] [--days N] --out FILE.html} from the daemon, or
 * {@code gfxstats report --framestats FILE --out FILE.html} offline: one self-contained HTML
 * file with the dump's numbers and charts of them.
 */
final class ReportCommand extends OptionsCommand {
    static final int MAX_DAYS = 3650;

    private final Map<String, String> env;

    ReportCommand() {
        this(System.getenv());
    }

    ReportCommand(Map<String, String> env) {
        this.env = env;
    }

    @Override
    public String name() {
        return "report";
    }

    @Override
    public String synopsis() {
        return "report [--package P] [--days N] [--framestats FILE | --trace FILE | --perfetto FILE | --timeline-log FILE] --out FILE.html [--socket PATH] [--deadline SECONDS]"
                + "   an HTML report with charts";
    }

    @Override
    Args options() {
        return new Args("report")
                .value("--out", "FILE.html", "where to write the report (required; replaced atomically)")
                .value("--package", "P", "only this package")
                .value("--days", "N", "only the newest N days of the daemon's (default: every retained day)")
                .value("--framestats", "FILE", "offline: replay a `dumpsys gfxinfo PKG framestats` capture instead"
                        + " of asking the daemon (- for standard input)")
                .value("--trace", "FILE", "offline: the frames of an OpenHarmony or Android text trace, as"
                        + " `gfxstats trace --format dumpsys` counts them (--package selects processes)")
                .value("--perfetto", "FILE", "offline: the FrameTimeline frames of a Perfetto trace, as"
                        + " `gfxstats timeline perfetto` counts them")
                .value("--timeline-log", "FILE", "offline: the display frames of a frame log (JSON Lines), as"
                        + " `gfxstats timeline classify` classifies them with its default thresholds")
                .value(DaemonCall.SOCKET_OPTION, "PATH", DaemonCall.SOCKET_HELP)
                .value(DaemonCall.DEADLINE_OPTION, "SECONDS", DaemonCall.DEADLINE_HELP);
    }

    @Override
    String about() {
        return """
                Writes one HTML file that needs nothing else to be viewed (no network): the dump's
                numbers (total and janky frames, percentiles, jank causes), the frame-time histogram
                with the 16.7 ms / 33.3 ms marks and the percentiles, jank causes per day as stacked
                bars, frames and jank % per day, the GPU histogram, and tables per package and day;
                from the daemon also per-scene and FrameTimeline breakdowns (the numbers
                `gfxstats dump --frametimeline` prints) when its clients record them. A Perfetto
                trace or a frame log leads with each frame over time and the numbers of
                `gfxstats timeline perfetto` / `timeline classify` for it.
                Charts are drawn by uPlot, inlined into the file.""";
    }

    @Override
    int execute(Args.Parsed args, InputStream in, PrintStream out, PrintStream err) throws Exception {
        Path target = Path.of(args.required("--out"));
        String pkg = args.value("--package");
        int days = args.intValue("--days", 0, 1, MAX_DAYS);
        List<GraphicsStatsProto> entries;
        List<SceneEntry> sceneEntries = List.of();
        List<FrameTimelineBlocks.Block> timeline = List.of();
        String title;
        String source;
        FrameSeries frames = null;
        args.exclusive("--framestats", "--trace");
        args.exclusive("--perfetto", "--trace");
        args.exclusive("--perfetto", "--framestats");
        for (String other : List.of("--framestats", "--trace", "--perfetto", DaemonCall.SOCKET_OPTION, "--days",
                "--package")) {
            args.exclusive("--timeline-log", other);
        }
        String cutNote = null;
        if (args.has("--timeline-log")) {
            String file = args.value("--timeline-log");
            entries = List.of();
            frames = frameLog(file, in);
            title = "gfxstats report: " + (file.equals("-") ? "frame log" : Path.of(file).getFileName());
            source = "display frames of the frame log " + (file.equals("-") ? "on standard input" : file)
                    + ", classified as `gfxstats timeline classify` does (SurfaceFlinger's "
                    + FrameTimelineClassifier.RULES_AS_OF + " rules, default thresholds)";
        } else if (args.has("--perfetto")) {
            args.exclusive("--perfetto", DaemonCall.SOCKET_OPTION);
            args.exclusive("--perfetto", "--days");
            args.exclusive("--perfetto", "--package");
            String file = args.value("--perfetto");
            PerfettoReport report = new PerfettoReport();
            PerfettoFrames sink = new PerfettoFrames(report);
            cutNote = TimelinePerfetto.read(file, in, report, sink, TimelinePerfetto.DEFAULT_MAX_PACKET_MIB << 20,
                    TimelinePerfetto.DEFAULT_SORT_WINDOW);
            entries = List.of();
            frames = sink.series();
            title = "gfxstats report: " + (file.equals("-") ? "Perfetto trace" : Path.of(file).getFileName());
            source = "FrameTimeline of the Perfetto trace " + (file.equals("-") ? "on standard input" : file)
                    + (cutNote == null ? "" : ", read up to a cut:" + cutNote);
        } else if (args.has("--trace")) {
            args.exclusive("--trace", DaemonCall.SOCKET_OPTION);
            args.exclusive("--trace", "--days");
            String file = args.value("--trace");
            TraceReport traced = traceFrames(file, pkg, in, err);
            entries = traceEntries(traced.processes());
            frames = FrameSeries.ofTrace(traced.processes(), traced.summaries());
            title = "gfxstats report: " + (file.equals("-") ? "trace" : Path.of(file).getFileName());
            source = "frames of the trace " + (file.equals("-") ? "on standard input" : file);
        } else if (args.has("--framestats")) {
            args.exclusive("--framestats", DaemonCall.SOCKET_OPTION);
            args.exclusive("--framestats", "--days");
            String file = args.value("--framestats");
            List<FramestatsBlock> blocks = FramestatsInput.read(file, in).stream()
                    .filter(b -> pkg == null || pkg.equals(FramestatsReplay.toProto(b, new ProfileData()).getPackageName()))
                    .toList();
            entries = framestats(blocks);
            frames = FrameSeries.of(blocks);
            title = "gfxstats report: " + (file.equals("-") ? "framestats capture" : Path.of(file).getFileName());
            source = "offline replay of " + (file.equals("-") ? "standard input" : file);
        } else {
            entries = fromDaemon(args, pkg);
            sceneEntries = scenesFromDaemon(args, pkg);
            timeline = FrameTimelineBlocks.of(entries);
            title = "gfxstats report" + (pkg != null ? ": " + pkg : "");
            source = "daemon at " + DaemonCall.socket(args, env) + (days > 0 ? ", newest " + days + " days" : "");
        }
        if (pkg != null && entries.isEmpty() && timeline.isEmpty()) {
            throw new UsageException("no statistics for package " + pkg);
        }
        ReportData data;
        try {
            data = ReportData.of(entries, days, title, source, System.currentTimeMillis());
        } catch (DayFileException.HistogramMismatch e) {
            throw new UsageException("cannot report: " + e.getMessage(), e);
        }
        data = data.withScenes(sceneRows(sceneEntries, ReportData.oldestKept(entries, days)))
                .withFrameTimeline(timeline, ReportData.oldestKept(entries, days)).withFrames(frames);
        write(target, data);
        // An offline input has no days: its "packages" are the capture's windows or the trace's processes.
        if (args.has("--timeline-log")) {
            out.println("wrote " + target + ": " + frames.samples().size() + " frames drawn");
            return 0;
        }
        if (args.has("--perfetto")) {
            out.println("wrote " + target + ": " + frames.samples().size() + " frames drawn of "
                    + frames.table().rows().size() + " processes");
            if (cutNote != null) {
                err.println("gfxstats report: " + args.value("--perfetto") + ": read up to the cut;" + cutNote);
                return 1;
            }
            return 0;
        }
        String parts = args.has("--trace") ? " processes" : args.has("--framestats") ? " windows" : null;
        out.println("wrote " + target + ": " + data.total().totalFrames() + " frames, " + (parts != null
                ? data.apps().size() + parts : data.days().size() + " days, " + data.apps().size() + " packages"));
        return 0;
    }

    /**
     * The daemon's entries over every retained day, live frames included, with their FrameTimeline
     * counters and ring drops kept (gfxstats fields of the request: Android's proto without them
     * otherwise). A daemon older than those fields sends none, and the report has no FrameTimeline
     * part and no lost frames.
     */
    private List<GraphicsStatsProto> fromDaemon(Args.Parsed args, String pkg) throws UsageException, IOException {
        DumpRequest.Builder request = DumpRequest.newBuilder().setProto(true).setKeepFrameTimeline(true)
                .setKeepRingDropped(true);
        if (pkg != null) {
            request.setPackageName(pkg);
        }
        byte[] dump = DaemonCall.call(args, env, client -> client.dumpBytes(request.build()));
        return GraphicsStatsServiceDumpProto.parseFrom(dump).getStatsList();
    }

    /** The daemon's per-scene counters over its retained days; none when it has no Scenes call. */
    private List<SceneEntry> scenesFromDaemon(Args.Parsed args, String pkg) throws UsageException {
        try (GfxStatsClient client = DaemonCall.open(args, env)) {
            return client.scenes(ScenesRequest.newBuilder()
                    .setPackageName(pkg == null ? "" : pkg).build()).getEntriesList();
        } catch (GfxStatsClientException e) {
            return List.of();
        }
    }

    /** Per (package, scene), summed over the kept days. */
    static List<ReportData.Scene> sceneRows(List<SceneEntry> entries, long oldestKept) {
        Map<String, long[]> sums = new TreeMap<>();
        int levels = SceneGroup.LEVELS;
        for (SceneEntry e : entries) {
            if (e.getDayStart() < oldestKept) {
                continue;
            }
            GfxstatsSceneStats s = e.getStats();
            long[] v = sums.computeIfAbsent(e.getPackageName() + "\u0000" + s.getScene(), k -> new long[4 + levels]);
            v[0] += s.getTotalFrames();
            v[1] += s.getJankyFrames();
            v[2] += s.getMatrixFrames();
            v[3] += s.getFrameCostNanos();
            for (int l = 0; l < levels; l++) {
                v[4 + l] += l < s.getLevelCountsCount() ? s.getLevelCounts(l) : 0;
            }
        }
        List<ReportData.Scene> rows = new ArrayList<>();
        sums.forEach((k, v) -> {
            int sep = k.indexOf('\u0000');
            rows.add(new ReportData.Scene(k.substring(0, sep), k.substring(sep + 1), v[0], v[1],
                    Arrays.copyOfRange(v, 4, 4 + levels), v[2] == 0 || v[3] <= 0 ? 0 : 1e9 * v[2] / v[3]));
        });
        return rows;
    }

    private static List<GraphicsStatsProto> framestats(List<FramestatsBlock> blocks) {
        List<GraphicsStatsProto> entries = new ArrayList<>();
        for (FramestatsBlock b : blocks) {
            entries.add(FramestatsReplay.toProto(b, FramestatsReplay.replay(b, FramestatsReplay.DEFAULT_REFRESH_INTERVAL_NANOS)));
        }
        return entries;
    }

    /**
     * The trace's frames as {@code gfxstats trace} selects them, and as dump entries the way
     * {@code gfxstats trace --format proto} makes them (no --refresh: each process at its median
     * frame interval), so the page's numbers are that command's.
     */
    private static TraceReport traceFrames(String file, String pkg,
            InputStream in, PrintStream err) throws Exception {
        List<String> argv = new ArrayList<>(List.of(file));
        if (pkg != null) {
            argv.add("--process");
            argv.add(pkg);
        }
        return TraceCommand.selectedFrames(TraceOptions.parse(argv.toArray(String[]::new)).orElseThrow(), in, err);
    }

    /** A frame log through {@code timeline classify}'s classifier, its answers seen by the chart. */
    private static FrameSeries frameLog(String file, InputStream in) throws UsageException {
        String name = file.equals("-") ? "stdin" : file;
        FrameLogFrames sink = new FrameLogFrames();
        try (Reader reader = TimelineCommand.open(file, in)) {
            long n = new FrameLogClassifier(Thresholds.ANDROID_16_LEGACY, false).classify(reader, Writer.nullWriter(), sink);
            if (n == 0) {
                throw new UsageException(name + ": no frames (the input is empty or blank; a frame log has one JSON"
                        + " object per line, see docs/frametimeline.md)");
            }
        } catch (FrameLogException e) {
            throw new UsageException(name + " " + e.getMessage(), e);
        } catch (CharacterCodingException e) {
            throw new UsageException("cannot read " + name + ": not UTF-8 text");
        } catch (IOException e) {
            throw new UsageException("cannot read " + name + ": " + e.getMessage(), e);
        }
        return sink.series();
    }

    private static List<GraphicsStatsProto> traceEntries(List<TraceFrames.ProcessFrames> frames) {
        List<GraphicsStatsProto> entries = new ArrayList<>();
        for (TraceFrames.ProcessFrames pf : frames) {
            entries.add(FrameInfoMapping.toProto(pf, 0));
        }
        return entries;
    }

    /** Written beside the target and renamed over it: a reader never sees half a report. */
    private static void write(Path target, ReportData data) throws UsageException {
        Path dir = target.toAbsolutePath().getParent();
        Path tmp = null;
        try {
            tmp = Files.createTempFile(dir, "." + target.getFileName(), ".tmp");
            try (OutputStream o = Files.newOutputStream(tmp)) {
                HtmlReport.write(data, o);
            }
            // A report is for sharing: readable like any file the user writes (the temp file was 0600).
            Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rw-r--r--"));
            Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            try {
                if (tmp != null) {
                    Files.deleteIfExists(tmp);
                }
            } catch (IOException ignored) {
                // the write error below is the one to report
            }
            throw new UsageException("cannot write " + target + ": " + e.getMessage(), e);
        }
    }
}
