package io.gfxstats.daemon.rpc;

import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.util.Locale;

/** One readable phrase for an exception, for lines an operator or user reads: never a class name alone. */
public final class Problems {
    private Problems() {
    }

    public static String describe(Throwable e) {
        if (e instanceof AccessDeniedException a) {
            return "permission denied: " + a.getFile();
        }
        if (e instanceof NoSuchFileException n) {
            return "no such file or directory: " + n.getFile();
        }
        if (e instanceof FileSystemException f && f.getReason() != null) {
            return f.getReason() + (f.getFile() == null ? "" : ": " + f.getFile());
        }
        if (e instanceof OutOfMemoryError) {
            return "out of memory";
        }
        String m = e.getMessage();
        if (m == null || m.isBlank()) {
            return e.getClass().getSimpleName().replaceAll("(Exception|Error)$", "").replaceAll("([a-z])([A-Z])", "$1 $2")
                    .toLowerCase(Locale.ROOT);
        }
        return m.strip().replace('\n', ' ');
    }
}
