package io.gfxstats.repo;

import io.gfxstats.testing.SourceTree;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * scripts/bench on a machine where Maven may have to fetch things (no forced offline mode, the
 * dependency plugin pinned so that it can be resolved), and a tracked file rewritten only with
 * --update-docs. Run from a copy of the scripts in a scratch tree, with a copy of
 * docs/benchmarks.md; Maven is replaced by a recorder that notes its arguments and answers the
 * classpath request with this test JVM's own classpath, so the real load test runs, tiny.
 */
class BenchScriptTest {
    @TempDir
    Path root;

    private String run(String... args) throws Exception {
        Path bin = root.resolve("bin");
        Files.createDirectories(bin);
        Path mvn = bin.resolve("mvn");
        Path cp = root.resolve("test.classpath");
        Files.writeString(cp, System.getProperty("java.class.path"));
        Files.writeString(mvn, """
                #!/usr/bin/env bash
                echo "$*" >> '%s'
                for a in "$@"; do
                  case "$a" in -Dmdep.outputFile=*) cp '%s' "${a#-Dmdep.outputFile=}" ;; esac
                done
                """.formatted(root.resolve("mvn-calls"), cp));
        Files.setPosixFilePermissions(mvn, PosixFilePermissions.fromString("rwxr-xr-x"));
        List<String> cmd = new java.util.ArrayList<>(List.of(root.resolve("scripts/bench").toString()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(root.toFile()).redirectErrorStream(true);
        pb.environment().put("PATH", bin + ":" + System.getenv("PATH"));
        pb.environment().remove("GFXSTATS_CLASSPATH");
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(3, TimeUnit.MINUTES));
        assertEquals(0, p.exitValue(), out);
        return out;
    }

    @Test
    void shouldResolveOnlineIfNeededAndRewriteTheDocsOnlyWhenAsked() throws Exception {
        Files.createDirectories(root.resolve("scripts"));
        for (String script : List.of("lib.sh", "bench")) {
            Files.copy(Path.of("scripts", script), root.resolve("scripts").resolve(script),
                    StandardCopyOption.COPY_ATTRIBUTES);
        }
        Path flags = SourceTree.mainResource("io/gfxstats/buffer/jvm.args");
        Files.createDirectories(root.resolve(flags).getParent());
        Files.copy(flags, root.resolve(flags));
        Path doc = root.resolve("docs/benchmarks.md");
        Files.createDirectories(doc.getParent());
        Files.copy(Path.of("docs", "benchmarks.md"), doc);
        String before = Files.readString(doc);
        String[] tiny = {"load", "--duration", "1", "--quiet", "1", "--warmup", "200ms", "--sessions", "2",
                "--jvms", "1", "--flush", "500ms"};

        String out = run(tiny);
        assertEquals(before, Files.readString(doc), "a plain run leaves the tracked doc alone:\n" + out);
        String calls = Files.readString(root.resolve("mvn-calls"));
        assertFalse(List.of(calls.split("\\s+")).contains("-o"), "no forced offline Maven: " + calls);
        assertTrue(calls.contains("maven-dependency-plugin:3.8.1:build-classpath"), calls);

        List<String> withUpdate = new java.util.ArrayList<>(List.of(tiny));
        withUpdate.add(1, "--update-docs");
        run(withUpdate.toArray(String[]::new));
        assertNotEquals(before, Files.readString(doc), "--update-docs writes the figures into the doc");
    }
}
