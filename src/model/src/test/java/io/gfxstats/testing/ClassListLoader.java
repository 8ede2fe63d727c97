package io.gfxstats.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The training JVM of {@link ChildClassSharing}: loads (without initializing) every class named in a
 * class list written by {@code -XX:DumpLoadedClassList}, so that the JVM's archive at exit holds
 * them. A name it cannot load (the list's last line cut short while its child still ran, a class
 * made at run time) is skipped.
 */
public final class ClassListLoader {
    private ClassListLoader() {
    }

    public static void main(String[] args) throws IOException {
        ClassLoader loader = ClassLoader.getSystemClassLoader();
        int loaded = 0;
        for (String line : Files.readAllLines(Path.of(args[0]))) {
            if (line.isEmpty() || line.startsWith("#") || line.startsWith("@")) {
                continue;
            }
            int space = line.indexOf(' ');
            String name = (space < 0 ? line : line.substring(0, space)).replace('/', '.');
            try {
                Class.forName(name, false, loader);
                loaded++;
            } catch (ClassNotFoundException | LinkageError e) {
                // Skipped: see the class comment.
            }
        }
        System.out.println(loaded + " classes loaded");
    }
}
