package io.gfxstats.daemon;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A test's daemon on a fresh state directory under /tmp, and the client processes the test
 * starts against it: {@link #close()} kills those, stops the daemon and deletes the directory,
 * so a test that fails halfway leaves nothing behind either.
 */
public final class DaemonFixture implements AutoCloseable {
    private final Path state;
    private final DaemonProcess daemon;
    private final List<Process> processes = new ArrayList<>();

    private DaemonFixture(Path state, DaemonProcess daemon) {
        this.state = state;
        this.daemon = daemon;
    }

    /** A daemon with the test defaults on a new directory named {@code prefix...} under /tmp. */
    public static DaemonFixture start(String prefix) throws Exception {
        Path state = Files.createTempDirectory(Path.of("/tmp"), prefix);
        try {
            return new DaemonFixture(state, new DaemonProcess(state).start());
        } catch (Exception | Error e) {
            TestFiles.deleteTree(state);
            throw e;
        }
    }

    public Path state() {
        return state;
    }

    public DaemonProcess daemon() {
        return daemon;
    }

    /** Kills {@code p} (and waits for it) when the fixture closes; returns it. */
    public Process track(Process p) {
        processes.add(p);
        return p;
    }

    @Override
    public void close() throws IOException {
        for (Process p : processes) {
            p.destroyForcibly();
            p.onExit().join();
        }
        daemon.close();
        TestFiles.deleteTree(state);
    }
}
