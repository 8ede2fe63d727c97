package io.gfxstats.cli;

import io.gfxstats.args.UsageException;
import java.io.BufferedOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;

/**
 * Standard output for bytes that must arrive untouched (a dump's text exactly as the daemon sent
 * it, serialized protos). For the process's real stdout this is the file descriptor itself, not
 * {@link System#out}: a PrintStream swallows write errors, so a closed pipe would go unnoticed
 * and the daemon would keep streaming into the void.
 */
final class BinaryStdout {
    private static final int BUFFER_BYTES = 64 * 1024;

    private BinaryStdout() {
    }

    /** A stream onto {@code out}; flush it when done, do not close it. */
    static OutputStream of(PrintStream out) {
        if (out == System.out) {
            out.flush();
            return new BufferedOutputStream(new FileOutputStream(FileDescriptor.out), BUFFER_BYTES);
        }
        return new Checked(out);
    }

    /** Whether a write failure means the reader went away (e.g. {@code gfxstats dump | head}). */
    static boolean isBrokenPipe(IOException e) {
        String m = e.getMessage();
        return m != null && m.contains("Broken pipe");
    }

    /**
     * What a command that failed to write its output exits with: {@link DumpCommand#EXIT_BROKEN_PIPE}
     * when the reader went away, else a one-line error.
     */
    static int writeFailed(IOException e) throws UsageException {
        if (isBrokenPipe(e)) {
            return DumpCommand.EXIT_BROKEN_PIPE;
        }
        throw new UsageException("cannot write to standard output: " + e.getMessage(), e);
    }

    /** Turns a PrintStream's silent error flag back into an exception. */
    private static final class Checked extends OutputStream {
        private final PrintStream out;

        Checked(PrintStream out) {
            this.out = out;
        }

        @Override
        public void write(int b) throws IOException {
            out.write(b);
            check();
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            out.write(b, off, len);
            check();
        }

        @Override
        public void flush() throws IOException {
            out.flush();
            check();
        }

        private void check() throws IOException {
            if (out.checkError()) {
                throw new IOException("write to standard output failed");
            }
        }
    }
}
