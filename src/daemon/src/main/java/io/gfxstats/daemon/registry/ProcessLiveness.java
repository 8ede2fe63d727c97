package io.gfxstats.daemon.registry;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Optional;

/** Whether a buffer's owner still runs: its pid exists and it kept its heartbeat fresh. */
public final class ProcessLiveness {
    private static final boolean PROC_MOUNTED = Files.isDirectory(Path.of("/proc/self"));
    /** The kernel's flag of a task in its exit (include/linux/sched.h). */
    private static final long PF_EXITING = 0x4;

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
     * Whether a process with this pid can still run its own code: it exists, is not a zombie and
     * is not exiting. A SIGKILLed client stays a zombie until its parent waits for it (a launcher
     * or shell may take its time, or never do), and {@link #pidAlive} (ProcessHandle) counts a
     * zombie as alive. Before it is a zombie it is exiting: the kernel marks the task (PF_EXITING)
     * first, then frees its memory and closes its files, and only then makes it a zombie, so the
     * daemon sees the client's connection close while the state still reads R. What such a
     * process left in shared memory will not change any more either. Reads /proc/PID/stat. Falls
     * back to {@link #pidAlive} without /proc.
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
        Boolean runs = runs(stat);
        return runs != null ? runs : pidAlive(pid); // not the format the kernel writes: ask the JDK
    }

    /**
     * Whether a /proc/PID/stat line is a task that can still run its code, null when the line is
     * not in the kernel's format. After the command's closing parenthesis come the state (field
     * 3), then ppid, pgrp, session, tty_nr, tpgid and the flags (field 9).
     */
    static Boolean runs(String stat) {
        int close = stat.lastIndexOf(')');
        if (close < 0 || close + 2 >= stat.length()) {
            return null;
        }
        String[] f = stat.substring(close + 2).trim().split(" ");
        if (f.length < 7 || f[0].length() != 1) {
            return null;
        }
        char state = f[0].charAt(0);
        if (state == 'Z' || state == 'X' || state == 'x') {
            return false;
        }
        try {
            return (Long.parseUnsignedLong(f[6]) & PF_EXITING) == 0;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /**
     * Whether a running process still writes into a buffer file: {@link #running} and
     * {@link #mayMap}. A native client that exec()s another program keeps its pid and runs on, but
     * its old image is gone with its mappings (the kernel replaces the memory before it closes the
     * descriptors marked close-on-exec, such as the client's connection): what its rings hold is
     * then as final as after a SIGKILL.
     */
    public static boolean writesInto(int pid, Path buffer) {
        return running(pid) && mayMap(pid, buffer);
    }

    /**
     * Whether process {@code pid} may map {@code file}: false only when its /proc/PID/maps could
     * be read and no line names the file (by its name, or by its inode), true when the maps
     * cannot be read (another user's process and no capability to trace it, or no /proc).
     */
    public static boolean mayMap(int pid, Path file) {
        if (!PROC_MOUNTED) {
            return true;
        }
        long inode;
        try {
            inode = ((Number) Files.getAttribute(file, "unix:ino")).longValue();
        } catch (IOException | UnsupportedOperationException | UncheckedIOException e) {
            inode = -1; // only the name then
        }
        String name = file.getFileName().toString();
        try (BufferedReader in = Files.newBufferedReader(Path.of("/proc", Integer.toString(pid), "maps"),
                StandardCharsets.ISO_8859_1)) {
            String line;
            while ((line = in.readLine()) != null) {
                if (mapsLineNames(line, name, inode)) {
                    return true;
                }
            }
            return false;
        } catch (NoSuchFileException e) {
            return false; // gone
        } catch (AccessDeniedException e) {
            return true; // not ours to read: assume it does
        } catch (IOException | UncheckedIOException e) {
            // A process gone while its maps were read (ESRCH) maps nothing; else: assume it does.
            return Files.isDirectory(Path.of("/proc", Integer.toString(pid)));
        }
    }

    /**
     * Whether a /proc/PID/maps line ("start-end perms offset dev inode path") maps the file with
     * this name or inode; the path ends in " (deleted)" once the file was unlinked. A same-named
     * file elsewhere, or another device's equal inode, answers true: the caller then only waits.
     */
    static boolean mapsLineNames(String line, String name, long inode) {
        String[] f = line.trim().split("\\s+", 6);
        if (f.length < 5) {
            return false;
        }
        try {
            if (inode > 0 && Long.parseLong(f[4]) == inode) {
                return true;
            }
        } catch (NumberFormatException e) {
            // not the kernel's format: the name alone
        }
        if (f.length < 6) {
            return false; // anonymous memory
        }
        String path = f[5];
        if (path.endsWith(" (deleted)")) {
            path = path.substring(0, path.length() - " (deleted)".length());
        }
        return path.equals(name) || path.endsWith("/" + name);
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
