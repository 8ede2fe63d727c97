package io.gfxstats.cli;

import io.gfxstats.args.Args;
import io.gfxstats.args.UsageException;
import io.gfxstats.trace.ClockOffset;
import io.gfxstats.trace.TraceReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The command line of {@code gfxstats trace}, checked as a whole before the trace is read, so that a
 * long read never ends in a usage error.
 *
 * @param outPath   null for stdout
 * @param refresh   0 for the defaults described in {@link #spec}'s --refresh-interval
 * @param failAbove the janky-percent threshold, -1 for none
 */
record TraceOptions(String input, Platform platform, List<String> processes, ClockOffset clock, Format format,
                    Path outPath, long refresh, double failAbove, int sortWindow) {

    enum Format { SUMMARY, CSV, JSON, SQLITE, DUMPSYS, PROTO }

    enum Platform { AUTO, OHOS, ANDROID }

    static final String SYNOPSIS =
            "trace FILE|- [--platform auto|ohos|android] [--process NAME|PID]... [--clock-offset auto|none|NS]"
            + " [--format summary|csv|json|sqlite|dumpsys|proto] [--out PATH] [--refresh-interval NS]"
            + " [--fail-on-janky-percent P] [--sort-window N]   frames of an OpenHarmony/Android text trace";

    static Args spec() {
        return new Args("trace")
                .positional("FILE|-")
                .value("--platform", "P", "auto (default: whatever the trace holds), ohos, android")
                .repeatable("--process", "NAME|PID", "only this process; a name matches exactly or as a part")
                .value("--clock-offset", "C", "auto (default): put vsync times on the trace clock, estimated from"
                        + " 'H:VSync now:' lines; none: raw, as trace_streamer; NS: add NS")
                .value("--format", "F", "summary (default), csv, json, sqlite (needs --out), dumpsys, proto")
                .value("--out", "PATH", "write there instead of stdout")
                .value("--refresh-interval", "NS", "Android frame period and the trackers' refresh interval"
                        + " (default: 60 Hz for Android frames, the frames' median period for dumpsys)")
                .value("--fail-on-janky-percent", "P", "exit 3 when a selected process has more than P% janky frames")
                .value("--sort-window", "N", "marker lines held to put the trace in time order (default "
                        + TraceReader.SORT_WINDOW + ", at most " + TraceReader.MAX_SORT_WINDOW + ")");
    }

    /** The help's text below the options. */
    static final String ABOUT = "Frames of a hitrace (OpenHarmony) or atrace (Android) text trace, plain or gzip, without a daemon.\n"
            + "OpenHarmony frames are computed exactly as SmartPerf-Host's trace_streamer does (docs/trace.md).\n"
            + "FILE|- is the trace text; - reads stdin.";

    /** The options of {@code argv}; empty when they ask for help ({@code --help}, {@code -h}). */
    static Optional<TraceOptions> parse(String[] argv) throws UsageException {
        Args.Parsed args = spec().parse(argv);
        return args.help() ? Optional.empty() : Optional.of(of(args));
    }

    /** The options of parsed arguments that are not a help request. */
    static TraceOptions of(Args.Parsed args) throws UsageException {
        if (args.positionals().size() > 1) {
            throw new UsageException("one input only, got '" + args.positionals().get(0) + "' and '"
                    + args.positionals().get(1) + "'");
        }
        String input = args.positionals().isEmpty() ? null : args.positionals().get(0);
        Platform platform = args.has("--platform") ? choice(Platform.class, "--platform", args.value("--platform"))
                : Platform.AUTO;
        List<String> processes = args.values("--process");
        ClockOffset clock = ClockOffset.AUTO;
        if (args.has("--clock-offset")) {
            try {
                clock = ClockOffset.parse(args.value("--clock-offset"));
            } catch (IllegalArgumentException e) {
                throw new UsageException(e.getMessage());
            }
        }
        Format format = args.has("--format") ? choice(Format.class, "--format", args.value("--format")) : Format.SUMMARY;
        Path outPath = args.has("--out") ? Path.of(args.value("--out")) : null;
        long refresh = args.has("--refresh-interval") ? Args.refreshInterval(args.value("--refresh-interval")) : 0;
        double failAbove = args.has("--fail-on-janky-percent") ? percent(args.value("--fail-on-janky-percent")) : -1;
        int sortWindow = args.has("--sort-window") ? sortWindow(args.value("--sort-window")) : TraceReader.SORT_WINDOW;
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
        return new TraceOptions(input, platform, List.copyOf(processes), clock, format, outPath, refresh,
                failAbove, sortWindow);
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

    private static int sortWindow(String value) throws UsageException {
        try {
            int n = Integer.parseInt(value.trim());
            if (n >= 1 && n <= TraceReader.MAX_SORT_WINDOW) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new UsageException("--sort-window must be a whole number of lines from 1 to " + TraceReader.MAX_SORT_WINDOW
                + ", got '" + value + "'");
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
}
