package io.gfxstats.cli;

import io.gfxstats.testing.ExternalTool;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A real terminal for tests: a tmux server of its own (socket in a test directory), one session
 * running a command; keys are sent and the screen read as text. {@link #close()} kills the server.
 */
final class TmuxSession implements AutoCloseable {
    private final Path tmux;
    private final Path socket;

    private TmuxSession(Path tmux, Path socket) {
        this.tmux = tmux;
        this.socket = socket;
    }

    /** Starts {@code shellCommand} in a detached session of {@code columns} x {@code rows}. */
    static TmuxSession start(Path dir, int columns, int rows, String shellCommand) throws Exception {
        Path tmux = ExternalTool.require("tmux", "tmux");
        TmuxSession s = new TmuxSession(tmux, dir.resolve("tmux.sock"));
        s.run("-f", "/dev/null", "new-session", "-d", "-x", Integer.toString(columns), "-y", Integer.toString(rows),
                shellCommand);
        return s;
    }

    void sendKeys(String... keys) throws Exception {
        List<String> args = new ArrayList<>(List.of("send-keys", "-t", "0"));
        args.addAll(List.of(keys));
        run(args.toArray(String[]::new));
    }

    /** The visible screen as text; with {@code escapes}, colours included. */
    String screen(boolean escapes) throws Exception {
        return escapes ? run("capture-pane", "-p", "-e", "-t", "0") : run("capture-pane", "-p", "-t", "0");
    }

    /** Waits until the screen satisfies {@code condition}; fails with the last screen after {@code seconds}. */
    String await(Predicate<String> condition, double seconds, String what) throws Exception {
        long end = System.nanoTime() + (long) (seconds * 1e9);
        String screen = "";
        while (System.nanoTime() < end) {
            screen = screen(false);
            if (condition.test(screen)) {
                return screen;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("waited " + seconds + " s for " + what + "; screen:\n" + screen);
    }

    private String run(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(tmux.toString(), "-S", socket.toString()));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(20, TimeUnit.SECONDS) || p.exitValue() != 0) {
            p.destroyForcibly();
            throw new IOException("tmux " + String.join(" ", args) + " failed: " + out);
        }
        return out;
    }

    @Override
    public void close() throws IOException {
        try {
            run("kill-server");
        } catch (IOException e) {
            // already gone
        } catch (InterruptedException e) {
            // Interrupted while waiting for tmux: still ask the server to go, without waiting.
            Thread.currentThread().interrupt();
            new ProcessBuilder(tmux.toString(), "-S", socket.toString(), "kill-server").start();
        }
    }
}
