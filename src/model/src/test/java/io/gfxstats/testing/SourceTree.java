package io.gfxstats.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * Where the repository keeps its sources: one Maven module per consumer under {@code src/NAME}
 * (docs/architecture.md). Tests that read sources, classes or files of the repository ask here
 * instead of spelling a module's path, so that moving a class between modules changes no test.
 * Paths are relative to the repository's root, the working directory of every test.
 */
public final class SourceTree {
    /** The Java modules, lowest layer first (the reactor's order). */
    public static final List<String> MODULES = List.of("model", "client", "daemon", "cli", "bench");

    private SourceTree() {
    }

    public static Path module(String name) {
        return Path.of("src", name);
    }

    /** Each module's src/main/java that exists. */
    public static List<Path> mainRoots() {
        return roots("main", "java");
    }

    /** Each module's src/test/java that exists. */
    public static List<Path> testRoots() {
        return roots("test", "java");
    }

    /** Each module's target/classes that exists (after compile). */
    public static List<Path> classRoots() {
        return MODULES.stream().map(m -> module(m).resolve("target").resolve("classes")).filter(Files::isDirectory).toList();
    }

    /** The main source file of a class such as {@code io/gfxstats/buffer/BufferDescriptor.java}, in whichever module holds it. */
    public static Path mainSource(String relative) {
        return find(mainRoots(), relative);
    }

    /** A main resource such as {@code io/gfxstats/buffer/jvm.args}, in whichever module holds it. */
    public static Path mainResource(String relative) {
        return find(roots("main", "resources"), relative);
    }

    public static Path testSource(String relative) {
        return find(testRoots(), relative);
    }

    /** The captures under the model module's test resources. */
    public static Path testData() {
        return module("model").resolve(Path.of("src", "test", "resources", "testdata"));
    }

    /** Every regular file below the roots, sorted. */
    public static List<Path> files(List<Path> roots) {
        return roots.stream().flatMap(r -> {
            try (Stream<Path> walk = Files.walk(r)) {
                return walk.filter(Files::isRegularFile).sorted().toList().stream();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }).toList();
    }

    private static List<Path> roots(String set, String kind) {
        return MODULES.stream().map(m -> module(m).resolve("src").resolve(set).resolve(kind)).filter(Files::isDirectory).toList();
    }

    private static Path find(List<Path> roots, String relative) {
        for (Path root : roots) {
            Path p = root.resolve(relative);
            if (Files.exists(p)) {
                return p;
            }
        }
        throw new IllegalStateException(relative + " is in no module's " + roots);
    }
}
