package io.gfxstats.cli;

import io.gfxstats.args.Args;
import io.gfxstats.args.UsageException;
import io.gfxstats.buffer.SceneGroup;
import io.gfxstats.proto.GfxstatsSceneStats;
import io.gfxstats.rpc.v1.SceneEntry;
import io.gfxstats.rpc.v1.ScenesRequest;
import io.gfxstats.rpc.v1.ScenesResponse;
import io.gfxstats.text.TerminalText;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code gfxstats scenes}: frames per scene (docs/scenes.md) with Android's jank counters and
 * Matrix's dropped-frame levels, per day, package and version: today and the retained days,
 * live frames merged once as in the dump. A table for people, JSON ({@code --json}) for tools.
 */
final class ScenesCommand extends OptionsCommand {
    private static final DateTimeFormatter DAY = DateTimeFormatter.ofPattern("uuuu-MM-dd", Locale.ROOT)
            .withZone(ZoneOffset.UTC);
    private static final String[] HEADER = {"DAY", "PACKAGE", "VERSION", "SCENE", "FRAMES", "JANKY%", "MFPS",
        "BEST", "NORMAL", "MIDDLE", "HIGH", "FROZEN", "DROPPED"};

    private final Map<String, String> env;

    ScenesCommand() {
        this(System.getenv());
    }

    ScenesCommand(Map<String, String> env) {
        this.env = env;
    }

    @Override
    public String name() {
        return "scenes";
    }

    @Override
    public String synopsis() {
        return "scenes [--socket PATH] [--package P] [--day YYYY-MM-DD] [--json] [--deadline SECONDS]";
    }

    @Override
    Args options() {
        return new Args("scenes")
                .value(DaemonCall.SOCKET_OPTION, "PATH", DaemonCall.SOCKET_HELP)
                .value("--package", "P", "only this package")
                .value("--day", "YYYY-MM-DD", "only this UTC day (default: every retained day)")
                .flag("--json", "write the whole answer as JSON")
                .value(DaemonCall.DEADLINE_OPTION, "SECONDS", DaemonCall.DEADLINE_HELP);
    }

    @Override
    String about() {
        return "Frames per scene with jank and Matrix dropped-frame levels, per day, "
                    + "package and version (live frames included).";
    }

    @Override
    int execute(Args.Parsed args, InputStream in, PrintStream out, PrintStream err) throws UsageException {
        ScenesRequest.Builder request = ScenesRequest.newBuilder();
        if (args.value("--package") != null) {
            request.setPackageName(args.value("--package"));
        }
        if (args.value("--day") != null) {
            try {
                request.setDayStart(LocalDate.parse(args.value("--day")).atStartOfDay(ZoneOffset.UTC).toInstant()
                        .toEpochMilli());
            } catch (DateTimeParseException e) {
                throw new UsageException("--day must be a date like 2026-11-23: " + args.value("--day"), e);
            }
        }
        ScenesResponse response = DaemonCall.call(args, env, client -> client.scenes(request.build()));
        OutputStream stdout = BinaryStdout.of(out);
        try {
            String text = args.has("--json") ? DaemonCall.json(response) + "\n" : table(response);
            stdout.write(text.getBytes(StandardCharsets.UTF_8));
            stdout.flush();
        } catch (IOException e) {
            return BinaryStdout.writeFailed(e);
        }
        if (response.getEntriesCount() == 0 && !args.has("--json")) {
            err.println("gfxstats scenes: no scenes recorded" + (request.getPackageName().isEmpty() ? ""
                    : " for " + TerminalText.escape(request.getPackageName())) + " (sessions count them unless scenes are disabled)");
        }
        return 0;
    }

    static String table(ScenesResponse response) {
        List<String[]> rows = new ArrayList<>();
        rows.add(HEADER);
        for (SceneEntry e : response.getEntriesList()) {
            GfxstatsSceneStats s = e.getStats();
            long dropped = 0;
            for (long d : s.getLevelSumsList()) {
                dropped += d;
            }
            String[] r = new String[HEADER.length];
            r[0] = DAY.format(Instant.ofEpochMilli(e.getDayStart()));
            r[1] = TerminalText.escape(e.getPackageName());
            r[2] = Long.toString(e.getVersionCode());
            r[3] = TerminalText.escape(s.getScene());
            r[4] = Long.toString(s.getTotalFrames());
            r[5] = s.getTotalFrames() == 0 ? "-"
                    : String.format(Locale.ROOT, "%.2f", 100.0 * s.getJankyFrames() / s.getTotalFrames());
            r[6] = s.getMatrixFrames() == 0 ? "-" : String.format(Locale.ROOT, "%.1f", e.getMatrixFps());
            for (int l = 0; l < SceneGroup.LEVELS; l++) {
                r[7 + l] = Long.toString(l < s.getLevelCountsCount() ? s.getLevelCounts(l) : 0);
            }
            r[12] = Long.toString(dropped);
            rows.add(r);
        }
        int[] width = new int[HEADER.length];
        for (String[] r : rows) {
            for (int i = 0; i < r.length; i++) {
                width[i] = Math.max(width[i], r[i].length());
            }
        }
        StringBuilder b = new StringBuilder();
        for (String[] r : rows) {
            for (int i = 0; i < r.length; i++) {
                boolean left = i <= 1 || i == 3;
                String cell = left ? String.format("%-" + width[i] + "s", r[i]) : String.format("%" + width[i] + "s", r[i]);
                b.append(i == 0 ? "" : "  ").append(cell);
            }
            b.append("\n");
        }
        return b.toString().replaceAll(" +\n", "\n");
    }
}
