package io.gfxstats.cli;

import io.gfxstats.args.Args;
import java.io.InputStream;
import java.io.PrintStream;
import java.util.List;

/** One subcommand of the gfxstats command line. */
interface Command {
    /** Exit code for bad usage, unreadable input, daemon not reachable. */
    int EXIT_ERROR = 2;

    String name();

    /** One line for the usage text. */
    String synopsis();

    /**
     * The declared options of the command and of each of its subcommands, the one source of its
     * parse and of its help text (CommandLineRulesTest walks them).
     */
    List<Args> optionSpecs();

    int run(String[] args, InputStream in, PrintStream out, PrintStream err) throws Exception;
}
