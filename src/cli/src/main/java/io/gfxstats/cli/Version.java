package io.gfxstats.cli;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/** The project's version, written into the jar by the build (resources-filtered/.../version.properties). */
final class Version {
    private Version() {
    }

    static String text() {
        Properties p = new Properties();
        try (InputStream in = Version.class.getResourceAsStream("version.properties")) {
            if (in != null) {
                p.load(in);
            }
        } catch (IOException e) {
            // unreadable: said below
        }
        return p.getProperty("version", "unknown");
    }

    /** What {@code gfxstats --version} prints: the program, its version and the Java it runs on. */
    static String line() {
        return "gfxstats " + text() + " (Java " + Runtime.version() + ")";
    }
}
