package io.gfxstats.cli;

import io.gfxstats.collect.Collector;
import io.gfxstats.collect.Target;
import io.gfxstats.collect.TargetResult;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Per-target progress of {@code gfxstats collect} on a terminal: a line per target as it
 * finishes or retries, under which one status line (done, ok, failed, in flight, the target
 * waited for longest) is redrawn in place. Only for a terminal: in a pipe or file the command
 * prints its summary alone.
 */
final class CollectProgress implements Collector.Progress {
    private static final String CLEAR_LINE = "\r\033[K";

    private final PrintStream err;
    private final int total;
    private final Map<Integer, Long> inFlight = new ConcurrentHashMap<>();
    private final Map<Integer, Target> targets = new ConcurrentHashMap<>();
    private int done;
    private int ok;
    private ScheduledExecutorService ticker;

    CollectProgress(PrintStream err, int total) {
        this.err = err;
        this.total = total;
    }

    /**
     * Whether standard error is a terminal worth redrawing on: {@code /proc/self/fd/2} is a tty
     * device and TERM is not "dumb". (The JDK tells only whether stdin and stdout are.)
     */
    static boolean stderrIsTerminal(Map<String, String> env) {
        if ("dumb".equals(env.get("TERM"))) {
            return false;
        }
        try {
            String target = Files.readSymbolicLink(Path.of("/proc/self/fd/2")).toString();
            return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty");
        } catch (IOException | UnsupportedOperationException e) {
            return false;
        }
    }

    @Override
    public synchronized void started(int index, Target target) {
        inFlight.put(index, System.nanoTime());
        targets.put(index, target);
        status();
    }

    @Override
    public synchronized void retrying(int index, Target target, int failedAttempts, String error) {
        err.print(CLEAR_LINE + "  retry " + target + ": attempt " + failedAttempts + " failed: " + error + "\n");
        status();
    }

    @Override
    public synchronized void finished(int index, TargetResult r) {
        inFlight.remove(index);
        done++;
        if (r.ok()) {
            ok++;
        }
        err.print(CLEAR_LINE + String.format("  [%" + digits(total) + "d/%d] %s %s: ", done, total,
                r.ok() ? "ok    " : "FAILED", r.target())
                + (r.ok() ? r.entries() + " entries" : r.error()) + ", " + r.attempts()
                + (r.attempts() == 1 ? " attempt, " : " attempts, ") + r.millis() + " ms\n");
        status();
    }

    /** Shows the status line, redrawn every second so a slow target's wait shows too. */
    synchronized CollectProgress start() {
        ticker = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "gfxstats-collect-progress");
            t.setDaemon(true);
            return t;
        });
        ticker.scheduleAtFixedRate(() -> {
            synchronized (this) {
                if (ticker != null) {
                    status();
                }
            }
        }, 1, 1, TimeUnit.SECONDS);
        status();
        return this;
    }

    /** Clears the status line (before the command's own summary). */
    synchronized void end() {
        if (ticker != null) {
            ticker.shutdownNow();
            ticker = null;
        }
        err.print(CLEAR_LINE);
        err.flush();
    }

    private void status() {
        StringBuilder line = new StringBuilder(CLEAR_LINE).append("collect: ").append(done).append('/').append(total)
                .append(" done, ").append(ok).append(" ok, ").append(done - ok).append(" failed, ")
                .append(inFlight.size()).append(" in flight");
        long now = System.nanoTime();
        inFlight.entrySet().stream().min(Map.Entry.comparingByValue()).ifPresent(e -> line.append("; waiting ")
                .append((now - e.getValue()) / 1_000_000_000L).append(" s for ").append(targets.get(e.getKey())));
        err.print(line);
        err.flush();
    }

    private static int digits(int n) {
        return Integer.toString(n).length();
    }
}
