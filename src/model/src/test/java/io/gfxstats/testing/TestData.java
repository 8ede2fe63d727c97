package io.gfxstats.testing;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

/** The real captures copied into src/model/src/test/resources/testdata (read-only; sources and licenses in each folder's README). */
public final class TestData {
    private TestData() {
    }

    public static Path androidGfxinfo(String file) {
        return file("android-gfxinfo", file);
    }

    /** A file of one testdata folder ({@code android-gfxinfo}, {@code openharmony-trace}, {@code matrix}, ...). */
    public static Path file(String folder, String file) {
        String root = System.getProperty("gfx.testdata");
        Path base = root != null ? Paths.get(root) : SourceTree.testData();
        Path p = base.resolve(folder).resolve(file).toAbsolutePath().normalize();
        if (!Files.isRegularFile(p)) {
            throw new IllegalStateException("missing test capture " + p + " (expected under " + SourceTree.testData() + ")");
        }
        return p;
    }
}
