package io.gfxstats.cli;

import io.gfxstats.testing.JavaProcess;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/** {@code gfxstats replay ...} as a real JVM, its stdout and stderr collected line by line. */
final class ReplayProcess implements AutoCloseable {
    private final Process process;
    private final List<String> out = new CopyOnWriteArrayList<>();
    private final List<String> err = new CopyOnWriteArrayList<>();
    private final Thread outReader;
    private final Thread errReader;
    private volatile long recorded;

    private ReplayProcess(Process process) {
        this.process = process;
        this.outReader = collect(process.getInputStream(), out, "replay-stdout");
        this.errReader = collect(process.getErrorStream(), err, "replay-stderr");
    }

    /** Starts {@code gfxstats <args>} with the environment variable GFXSTATS_SOCKET removed. */
    static ReplayProcess start(String... args) throws IOException {
        ProcessBuilder pb = JavaProcess.builder(Main.class, args);
        pb.environment().remove("GFXSTATS_SOCKET");
        return new ReplayProcess(pb.start());
    }

    private Thread collect(InputStream stream, List<String> into, String name) {
        Thread t = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    if (line.startsWith("recorded ") && line.endsWith(" frames")) {
                        recorded = Long.parseLong(line.substring("recorded ".length(), line.length() - " frames".length()));
                    }
                    into.add(line);
                }
            } catch (IOException ignored) {
                // the process is gone
            }
        }, name);
        t.setDaemon(true);
        t.start();
        return t;
    }

    /** The count of the last {@code recorded N frames} line so far. */
    long recorded() {
        return recorded;
    }

    /** The process's standard input. */
    java.io.OutputStream stdin() {
        return process.getOutputStream();
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /** Waits for the exit and for both streams to be read to the end; returns the exit code. */
    int waitFor(long seconds) throws InterruptedException {
        if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
            throw new AssertionError("replay did not finish within " + seconds + " s; stderr: " + err);
        }
        outReader.join(5_000);
        errReader.join(5_000);
        return process.exitValue();
    }

    List<String> out() {
        return new ArrayList<>(out);
    }

    List<String> err() {
        return new ArrayList<>(err);
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            process.toHandle().destroyForcibly();
            process.onExit().join();
        }
    }
}
