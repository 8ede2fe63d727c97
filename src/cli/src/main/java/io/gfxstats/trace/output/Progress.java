package io.gfxstats.trace.output;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.function.LongConsumer;
import java.util.function.LongSupplier;

/**
 * How far a long read has got, on one self-overwriting stderr line; shown only when stderr is a
 * terminal and the input is large, so pipes and logs stay clean. Updates at most every
 * {@link #INTERVAL_NANOS}; {@link #done()} clears the line.
 */
public final class Progress implements LongConsumer {
    /** Inputs smaller than this are read too fast to need progress. */
    public static final long MIN_BYTES = 32L << 20;
    static final long INTERVAL_NANOS = 250_000_000L;

    private final PrintStream err;
    private final long total;
    private final LongSupplier clock;
    private long lastShown;
    private boolean shown;

    public Progress(PrintStream err, long totalBytes, LongSupplier nanoClock) {
        this.err = err;
        this.total = totalBytes;
        this.clock = nanoClock;
        this.lastShown = nanoClock.getAsLong();
    }

    /** Progress for reading {@code size} bytes, or null when it should stay quiet. */
    public static Progress forInput(PrintStream err, long size) {
        if (size < MIN_BYTES || !stderrIsTerminal()) {
            return null;
        }
        return new Progress(err, size, System::nanoTime);
    }

    /** Whether file descriptor 2 is a terminal (Linux: /proc/self/fd/2 points at a tty device). */
    static boolean stderrIsTerminal() {
        try {
            String target = Files.readSymbolicLink(Path.of("/proc/self/fd/2")).toString();
            return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty");
        } catch (Exception e) {
            return false;
        }
    }

    @Override
    public void accept(long bytesRead) {
        long now = clock.getAsLong();
        if (now - lastShown < INTERVAL_NANOS) {
            return;
        }
        lastShown = now;
        shown = true;
        err.print(String.format(Locale.ROOT, "\rgfxstats trace: read %d of %d MiB (%d%%)  ", bytesRead >> 20,
                total >> 20, total > 0 ? Math.min(100, bytesRead * 100 / total) : 0));
        err.flush();
    }

    public void done() {
        if (shown) {
            err.print("\r" + " ".repeat(60) + "\r");
            err.flush();
        }
    }
}
