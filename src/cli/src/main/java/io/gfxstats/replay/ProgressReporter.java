package io.gfxstats.replay;

import java.io.PrintStream;
import java.util.function.LongSupplier;

/**
 * Prints {@code recorded N frames} lines for a caller following a replay: after every
 * {@code everyFrames} frames, after at most {@code everyNanos} of time when frames are slower
 * than that, and once at the end. Each line is flushed at once.
 */
public final class ProgressReporter {
    public static final int DEFAULT_EVERY_FRAMES = 100;
    public static final long DEFAULT_EVERY_NANOS = 1_000_000_000L;

    private final PrintStream out;
    private final long everyFrames;
    private final long everyNanos;
    private final LongSupplier nanoClock;
    private long lastPrinted = -1;
    private long lastPrintedAt;

    public ProgressReporter(PrintStream out, long everyFrames, long everyNanos, LongSupplier nanoClock) {
        if (everyFrames <= 0 || everyNanos <= 0) {
            throw new IllegalArgumentException("progress intervals must be positive");
        }
        this.out = out;
        this.everyFrames = everyFrames;
        this.everyNanos = everyNanos;
        this.nanoClock = nanoClock;
        this.lastPrintedAt = nanoClock.getAsLong();
    }

    public static ProgressReporter standard(PrintStream out) {
        return new ProgressReporter(out, DEFAULT_EVERY_FRAMES, DEFAULT_EVERY_NANOS, System::nanoTime);
    }

    /** {@code frames} have been recorded so far. */
    public void recorded(long frames) {
        long now = nanoClock.getAsLong();
        long since = Math.max(lastPrinted, 0);
        if (frames - since >= everyFrames || (frames > since && now - lastPrintedAt >= everyNanos)) {
            print(frames, now);
        }
    }

    /** All {@code frames} are recorded: prints the final count unless it was the last line. */
    public void finished(long frames) {
        if (frames != lastPrinted) {
            print(frames, nanoClock.getAsLong());
        }
    }

    private void print(long frames, long now) {
        out.println("recorded " + frames + " frames");
        out.flush();
        lastPrinted = frames;
        lastPrintedAt = now;
    }
}
