package io.gfxstats.cli;

import io.gfxstats.args.UsageException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/** Runs the command line in-process and keeps what it printed. */
record CliRun(int exit, byte[] stdout, String stderr) {
    static CliRun main(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = Main.run(args, new PrintStream(out, true), new PrintStream(err, true, StandardCharsets.UTF_8));
        return new CliRun(exit, out.toByteArray(), err.toString(StandardCharsets.UTF_8));
    }

    /** One command, with its own environment and standard input. */
    static CliRun command(Command command, String stdin, String... args) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream errStream = new PrintStream(err, true, StandardCharsets.UTF_8);
        int exit;
        try {
            exit = command.run(args, new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)),
                    new PrintStream(out, true), errStream);
        } catch (UsageException e) {
            errStream.println("gfxstats " + command.name() + ": " + e.getMessage());
            exit = Command.EXIT_ERROR;
        }
        return new CliRun(exit, out.toByteArray(), err.toString(StandardCharsets.UTF_8));
    }

    String out() {
        return new String(stdout, StandardCharsets.UTF_8);
    }

    /** The single line printed on stderr; fails unless exactly one line was printed. */
    String onlyErrorLine() {
        if (!stderr.endsWith("\n") || stderr.indexOf('\n') != stderr.length() - 1) {
            throw new AssertionError("expected exactly one line on stderr, got: [" + stderr + "]");
        }
        return stderr.substring(0, stderr.length() - 1);
    }
}
