package io.gfxstats.repo;

import io.gfxstats.testing.SourceTree;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Facts that once lived in several copies and drifted, now in one place each: the length of a
 * UTC day (io.gfxstats.store.Days) and the waiting of a paced loop (io.gfxstats.demo.Pacer; the
 * replay's FramePacer schedules on it). A second copy in the main sources fails here, naming the
 * one to use. The CLI has one command-line parser (io.gfxstats.cli.Args): no other class in the
 * cli package splits {@code --name=value} or reports a missing option value itself.
 * (the JVM options: JvmFlagsTest; the buffer layout: BufferFormatDocTest.)
 */
class OneCopyTest {
    /** Text that betrays a copy -> the only file allowed to hold it. */
    private static final Map<String, String> ONLY_IN = Map.of(
            "86_400_000L", "io/gfxstats/store/Days.java",
            "86400000L", "io/gfxstats/store/Days.java",
            "24 * 60 * 60", "io/gfxstats/store/Days.java",
            "LockSupport.parkNanos", "io/gfxstats/demo/Pacer.java");

    @Test
    void shouldKeepEachFactInOneMainSourceFile() throws IOException {
        List<String> copies = new ArrayList<>();
        for (Path main : SourceTree.mainRoots()) {
            for (Path file : SourceTree.files(List.of(main)).stream().filter(f -> f.toString().endsWith(".java")).toList()) {
                String text = Files.readString(file);
                String name = main.relativize(file).toString();
                ONLY_IN.forEach((needle, home) -> {
                    if (text.contains(needle) && !name.equals(home)) {
                        copies.add(name + " has " + needle + " (use " + home + ")");
                    }
                });
            }
        }
        copies.sort(null);
        assertEquals(List.of(), copies);
    }

    /** What only an argument parser does: split an option at '=', say that a value is missing. */
    private static final List<String> PARSER_TEXT = List.of("indexOf('=')", "needs a value\"");

    @Test
    void shouldParseTheCommandLineInOneClass() throws IOException {
        Path parser = SourceTree.mainSource("io/gfxstats/args/Args.java");
        List<String> parsers = new ArrayList<>();
        for (Path root : SourceTree.mainRoots()) {
            try (Stream<Path> files = Files.walk(root)) {
                for (Path file : files.filter(f -> f.toString().endsWith(".java")).sorted().toList()) {
                    String text = Files.readString(file);
                    for (String needle : PARSER_TEXT) {
                        if (text.contains(needle) && !file.equals(parser)) {
                            parsers.add(root.relativize(file) + " has " + needle + " (use io.gfxstats.args.Args)");
                        }
                    }
                }
            }
        }
        assertEquals(List.of(), parsers);
        assertTrue(Files.isRegularFile(parser), "the parser is args/Args.java, for the CLI and the daemon alike");
    }
}
