package io.gfxstats.testing;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A program a test needs from the system (Prometheus, Chromium, tmux...). {@code scripts/ci-deps},
 * which {@code .ci/run} calls first, installs them; a test never skips for want of one, it fails
 * saying what to run, so a CI without the program cannot pass by testing less.
 */
public final class ExternalTool {
    private ExternalTool() {
    }

    /** The program's path on {@code $PATH}; fails naming scripts/ci-deps and the Debian package. */
    public static Path require(String program, String debianPackage) {
        String path = System.getenv("PATH");
        if (path != null) {
            for (String dir : path.split(File.pathSeparator)) {
                Path candidate = Path.of(dir.isEmpty() ? "." : dir, program);
                if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                    return candidate;
                }
            }
        }
        throw new AssertionError(program + " is not installed: run scripts/ci-deps (it installs Debian package '"
                + debianPackage + "'; .ci/run calls it before the tests)");
    }
}
