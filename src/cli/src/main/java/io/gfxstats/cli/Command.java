package io.gfxstats.cli;

import java.io.InputStream;
import java.io.PrintStream;

/** One subcommand of the gfxstats command line. */
interface Command {
    /** Exit code for bad usage, unreadable input, daemon not reachable. */
    int EXIT_ERROR = 2;

    String name();

    /** One line for the usage text. */
    String synopsis();

    int run(String[] args, InputStream in, PrintStream out, PrintStream err) throws Exception;
}
