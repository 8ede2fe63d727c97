package io.gfxstats.cli;

import io.gfxstats.args.UsageException;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Entry point of {@code scripts/gfxstats}. */
public final class Main {
    private Main() {
    }

    static Map<String, Command> commands() {
        Map<String, Command> commands = new LinkedHashMap<>();
        for (Command c : List.<Command>of(
                new FramestatsCommand(),
                new DumpCommand(),
                new PullCommand(),
                new ReplayCommand(),
                new CollectCommand(),
                new SynthCommand(),
                new TopCommand(),
                new MatrixReportCommand(),
                new TraceCommand(),
                new TimelineCommand(),
                new RecordCommand(),
                new ReportCommand(),
                new ScenesCommand())) {
            commands.put(c.name(), c);
        }
        return commands;
    }

    public static void main(String[] args) {
        // People read this output: only warnings and errors from the libraries, unless asked.
        if (System.getProperty("org.slf4j.simpleLogger.defaultLogLevel") == null) {
            System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        }
        System.exit(run(args, System.out, System.err));
    }

    public static int run(String[] args, PrintStream out, PrintStream err) {
        Map<String, Command> commands = commands();
        if (args.length == 0 || args[0].equals("-h") || args[0].equals("--help") || args[0].equals("help")) {
            usage(commands, args.length == 0 ? err : out);
            return args.length == 0 ? Command.EXIT_ERROR : 0;
        }
        if (args[0].equals("--version") || args[0].equals("version")) {
            out.println(Version.line());
            return 0;
        }
        Command command = commands.get(args[0]);
        if (command == null && args[0].equals("run")) {
            err.println("gfxstats run: start it through scripts/gfxstats (it runs scripts/gfxstats-run, no JVM)");
            return Command.EXIT_ERROR;
        }
        if (command == null) {
            err.println("gfxstats: unknown command '" + args[0] + "' (try: gfxstats --help)");
            return Command.EXIT_ERROR;
        }
        try {
            int code = command.run(Arrays.copyOfRange(args, 1, args.length), System.in, out, err);
            out.flush();
            return code;
        } catch (UsageException e) {
            out.flush();
            err.println("gfxstats " + command.name() + ": " + e.getMessage());
            return Command.EXIT_ERROR;
        } catch (Exception e) {
            out.flush();
            err.println("gfxstats " + command.name() + ": " + e);
            return Command.EXIT_ERROR;
        }
    }

    private static void usage(Map<String, Command> commands, PrintStream to) {
        to.println("usage: gfxstats <command> [options]     (gfxstats --version: the version)");
        to.println();
        for (Command c : commands.values()) {
            to.println("  " + c.synopsis());
        }
        // Handled by the launcher script before any JVM starts (scripts/gfxstats-run, docs/native.md).
        to.println("  " + RUN_SYNOPSIS);
    }

    /** {@code gfxstats run}: the launcher script runs it itself (scripts/gfxstats-run); listed here for --help. */
    static final String RUN_SYNOPSIS = "run [--package P] [--version-code N] -- CMD [ARGS...]"
            + "   run an unmodified Vulkan or OpenGL program with frame counting (native layer and hook)";
}
