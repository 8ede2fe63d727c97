package io.gfxstats.testing;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * After every test class, whatever it started and left running is killed (SIGKILL), failed test
 * or not: a daemon, client or app a test spawned must never outlive it and load the rest of the
 * build. Processes already told to stop get a few seconds to go by themselves; the others are
 * named on standard error. Registered for every test class of the build through the JUnit
 * extension service file and {@code junit.jupiter.extensions.autodetection.enabled}.
 */
public final class LeftoverProcesses implements AfterAllCallback {
    private static final long GRACE_NANOS = TimeUnit.SECONDS.toNanos(5);

    @Override
    public void afterAll(ExtensionContext context) throws InterruptedException {
        killLeftBy(context.getDisplayName());
    }

    /**
     * Kills this JVM's children still alive after the grace period, naming them after {@code who}.
     *
     * @return the pids killed
     */
    static List<Long> killLeftBy(String who) throws InterruptedException {
        long deadline = System.nanoTime() + GRACE_NANOS;
        List<ProcessHandle> left = alive();
        while (!left.isEmpty() && System.nanoTime() - deadline < 0) {
            Thread.sleep(50); // polling their exit: nothing else says when a child we did not start ends
            left = alive();
        }
        for (ProcessHandle p : left) {
            System.err.println("gfxstats tests: " + who + " left pid " + p.pid() + " running ("
                    + p.info().commandLine().orElse("?") + "); killed");
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        }
        return left.stream().map(ProcessHandle::pid).toList();
    }

    private static List<ProcessHandle> alive() {
        return ProcessHandle.current().children().filter(ProcessHandle::isAlive).toList();
    }
}
