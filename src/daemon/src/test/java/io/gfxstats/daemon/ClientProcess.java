package io.gfxstats.daemon;

import io.gfxstats.testing.JavaProcess;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** A real {@link FrameClient} process whose progress lines a test can follow. */
public final class ClientProcess implements AutoCloseable {
    private final Process process;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private volatile long recorded;

    private ClientProcess(Process process) {
        this.process = process;
        Thread reader = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    if (line.startsWith("recorded ")) {
                        recorded = Long.parseLong(line.substring("recorded ".length()).trim());
                    }
                    lines.add(line);
                }
            } catch (IOException ignored) {
                // the process was killed
            }
        }, "client-output");
        reader.setDaemon(true);
        reader.start();
    }

    public static ClientProcess start(DaemonProcess daemon, String pkg, long version, long frames, int batch, long pauseMillis,
                               String... mode) throws IOException {
        String[] args = new String[6 + mode.length];
        args[0] = daemon.socket().toString();
        args[1] = pkg;
        args[2] = Long.toString(version);
        args[3] = Long.toString(frames);
        args[4] = Integer.toString(batch);
        args[5] = Long.toString(pauseMillis);
        System.arraycopy(mode, 0, args, 6, mode.length);
        return new ClientProcess(JavaProcess.builder(FrameClient.class, args)
                .redirectError(ProcessBuilder.Redirect.appendTo(daemon.clientLog().toFile())).start());
    }

    /** Waits for a line starting with {@code prefix}. */
    public String await(String prefix, long timeoutSeconds) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
        while (true) {
            long left = deadline - System.nanoTime();
            String line = lines.poll(Math.max(left, 0), TimeUnit.NANOSECONDS);
            if (line == null) {
                throw new AssertionError("client did not print '" + prefix + "' within " + timeoutSeconds + " s");
            }
            if (line.startsWith(prefix)) {
                return line;
            }
        }
    }

    /** Lets a client in stdin mode record its next batch. */
    void proceed() throws IOException {
        process.getOutputStream().write('\n');
        process.getOutputStream().flush();
    }

    long recorded() {
        return recorded;
    }

    long pid() {
        return process.pid();
    }

    int waitFor() throws InterruptedException {
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            throw new AssertionError("client did not finish within 60 s");
        }
        return process.exitValue();
    }

    void kill() {
        process.toHandle().destroyForcibly();
        process.onExit().join();
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            kill();
        }
    }
}
