package io.gfxstats.daemon.rpc;

import io.gfxstats.testing.JavaProcess;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** Child JVMs of one test, killed with SIGKILL at the end whatever happened. */
final class Children implements AutoCloseable {
    private final List<Process> processes = new ArrayList<>();

    Process start(Class<?> main, String... args) throws IOException {
        Process p = JavaProcess.start(main, args);
        processes.add(p);
        return p;
    }

    /** Waits for the child's next stdout line starting with {@code prefix}; fails on EOF or timeout. */
    static String awaitLine(Process p, String prefix, long timeoutSeconds) throws Exception {
        BufferedReader reader = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        CompletableFuture<String> line = CompletableFuture.supplyAsync(() -> {
            try {
                for (String l = reader.readLine(); l != null; l = reader.readLine()) {
                    if (l.startsWith(prefix)) {
                        return l;
                    }
                }
                return null;
            } catch (IOException e) {
                return null;
            }
        });
        String result = line.get(timeoutSeconds, TimeUnit.SECONDS);
        if (result == null) {
            throw new AssertionError("child exited (" + (p.isAlive() ? "alive" : "code " + p.waitFor())
                    + ") without printing '" + prefix + "'");
        }
        return result;
    }

    @Override
    public void close() {
        for (Process p : processes) {
            p.destroyForcibly();
            try {
                p.waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
