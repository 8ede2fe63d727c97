package io.gfxstats.daemon.registry;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
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

    /**
     * Whether a process with this pid runs and is not a zombie. A SIGKILLed client stays a zombie
     * until its parent waits for it (a launcher or shell may take its time, or never do), and
     * {@link #pidAlive} (ProcessHandle) counts a zombie as alive; what a zombie left in shared
     * memory will not change any more. Reads /proc/PID/stat: the state is the first field after
     * the command's closing parenthesis. Falls back to {@link #pidAlive} without /proc.
     */
    public static boolean running(int pid) {
        if (!PROC_MOUNTED) {
            return pidAlive(pid);
        }
        if (pid <= 0) {
            return false;
        }
        String stat;
        try {
            stat = Files.readString(Path.of("/proc", Integer.toString(pid), "stat"), StandardCharsets.US_ASCII);
        } catch (IOException | UncheckedIOException e) {
            return false; // gone (or never was)
        }
        int close = stat.lastIndexOf(')');
        if (close < 0 || close + 2 >= stat.length()) {
            return pidAlive(pid); // not the format the kernel writes: ask the JDK
        }
        char state = stat.charAt(close + 2);
        return state != 'Z' && state != 'X' && state != 'x';
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
