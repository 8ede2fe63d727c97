package io.gfxstats.cli;

import io.gfxstats.args.Args;
import java.io.InputStream;
import java.io.PrintStream;
import java.util.List;

/**
 * A command with one set of declared options. The parse and the help ({@code -h}, {@code --help})
 * happen here, the same way for every command, so a command declares its options and its help
 * text and sees only parsed values.
 */
abstract class OptionsCommand implements Command {
    /** The declared options: the one source of the parse and of the help text. */
    abstract Args options();

    /** The text the help prints below the options. */
    abstract String about();

    /** The help's usage line: the synopsis up to the three spaces before its description. */
    String helpUsage() {
        String synopsis = synopsis();
        int description = synopsis.indexOf("   ");
        return description < 0 ? synopsis : synopsis.substring(0, description);
    }

    /** Runs with the parsed options (never a help request). */
    abstract int execute(Args.Parsed args, InputStream in, PrintStream out, PrintStream err) throws Exception;

    @Override
    public final List<Args> optionSpecs() {
        return List.of(options());
    }

    @Override
    public final int run(String[] argv, InputStream in, PrintStream out, PrintStream err) throws Exception {
        Args options = options();
        Args.Parsed args = options.parse(argv);
        if (args.help()) {
            out.print(options.help(helpUsage(), about()));
            return 0;
        }
        return execute(args, in, out, err);
    }
}
