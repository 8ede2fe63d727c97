package io.gfxstats.testing;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * A program a test needs from the system (Prometheus, Chromium), installed by the project's own
 * {@code scripts/ensure-tool} when it is missing; the test is skipped, with the script's reason,
 * only when it truly cannot be installed (no root, no apt-get, no package).
 */
public final class ExternalTool {
    private ExternalTool() {
    }

    /** The program's path, installing Debian package {@code debianPackage} if needed. */
    public static Path require(String program, String debianPackage) throws IOException, InterruptedException {
        Path script = Path.of(System.getProperty("user.dir"), "scripts", "ensure-tool");
        Process p = new ProcessBuilder(script.toString(), program, debianPackage).start();
        p.getOutputStream().close();
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        if (!p.waitFor(15, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new IOException("installing " + debianPackage + " took more than 15 minutes");
        }
        // 3: cannot be installed here (no root, no apt-get, no such package): skip, saying why.
        assumeTrue(p.exitValue() != 3, "skipped: " + program + " is not available: " + err);
        if (p.exitValue() != 0) {
            throw new IOException("scripts/ensure-tool " + program + " failed (" + p.exitValue() + "): " + err);
        }
        return Path.of(out);
    }
}
