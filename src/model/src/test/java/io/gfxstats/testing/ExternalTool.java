package io.gfxstats.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A program a test runs (Prometheus, Chromium, tmux, a compiler): found on the PATH, or the test
 * fails saying how to install it - {@code scripts/ci-deps}, which {@code .ci/run} runs before the
 * build. The build never installs anything itself, and a missing program is never a silent skip.
 */
public final class ExternalTool {
    private ExternalTool() {
    }

    /** The program's path; fails naming {@code debianPackage} and scripts/ci-deps when it is not installed. */
    public static Path require(String program, String debianPackage) throws IOException {
        String path = System.getenv("PATH");
        for (String dir : (path == null ? "/usr/bin:/bin" : path).split(":", -1)) {
            Path p = Path.of(dir.isEmpty() ? "." : dir).resolve(program);
            if (Files.isRegularFile(p) && Files.isExecutable(p)) {
                return p;
            }
        }
        throw new IOException(program + " is not installed: run scripts/ci-deps (it installs Debian package '"
                + debianPackage + "'; .ci/run does this before the build)");
    }
}
