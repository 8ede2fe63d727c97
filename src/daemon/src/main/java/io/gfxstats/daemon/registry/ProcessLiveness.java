package io.gfxstats.daemon.registry;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/** Whether a buffer's owner still runs: its pid exists and it kept its heartbeat fresh. */
public final class ProcessLiveness {
    private static final boolean PROC_MOUNTED = Files.isDirectory(Path.of("/proc/self"));

    private ProcessLiveness() {
    }

    /**
     * Whether a process with this pid exists (a zombie does): one stat of /proc/PID, several
     * times cheaper than {@link #pidAlive}. Falls back to {@link #pidAlive} without /proc.
     */
    public static boolean pidExists(int pid) {
        if (!PROC_MOUNTED) {
            return pidAlive(pid);
        }
        return pid > 0 && Files.isDirectory(Path.of("/proc", Integer.toString(pid)));
    }

    public static boolean pidAlive(int pid) {
        Optional<ProcessHandle> h = ProcessHandle.of(pid);
        return h.isPresent() && h.get().isAlive();
    }

    /**
     * The heartbeat is written with the client's wall clock, so it is compared with the real
     * wall clock, never with the daemon's injected clock (which tests move across midnight).
     * A pid can be reused by an unrelated process; a stale heartbeat exposes that.
     */
    public static boolean heartbeatFresh(long heartbeatMillis, long timeoutMillis) {
        return heartbeatMillis > 0 && System.currentTimeMillis() - heartbeatMillis <= timeoutMillis;
    }
}
