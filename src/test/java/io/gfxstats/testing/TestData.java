package io.gfxstats.testing;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

/** The shared real-device captures in ../shared/testdata (read-only). */
public final class TestData {
    private TestData() {
    }

    public static Path androidGfxinfo(String file) {
        String root = System.getProperty("gfx.testdata");
        Path base = root != null ? Paths.get(root) : Paths.get("..", "shared", "testdata");
        Path p = base.resolve("android-gfxinfo").resolve(file).toAbsolutePath().normalize();
        if (!Files.isRegularFile(p)) {
            throw new IllegalStateException("missing test capture " + p + " (shared/ must sit beside the repository)");
        }
        return p;
    }
}
