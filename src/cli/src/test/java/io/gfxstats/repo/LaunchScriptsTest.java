package io.gfxstats.repo;

import io.gfxstats.testing.SourceTree;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The launch scripts as a user and a service manager meet them, run from a copy of the
 * repository's scripts in a scratch tree (so the real target/ is never touched). Maven is the
 * one thing replaced: a recorder on PATH named mvn, which notes that it was called and behaves
 * as Maven does on screen (escape codes even in batch mode) - the point is whether, when and how
 * the scripts call it.
 */
class LaunchScriptsTest {
    @TempDir
    Path root;
    private Path calls;
    private Path bin;

    @BeforeEach
    void copyScripts() throws IOException {
        Files.createDirectories(root.resolve("scripts"));
        for (String script : List.of("lib.sh", "gfxstatsd", "gfxstats", "build", "uninstall")) {
            Files.copy(Path.of("scripts", script), root.resolve("scripts").resolve(script),
                    StandardCopyOption.COPY_ATTRIBUTES);
        }
        Path flags = SourceTree.mainResource("io/gfxstats/buffer/jvm.args");
        Files.createDirectories(root.resolve(flags).getParent());
        Files.copy(flags, root.resolve(flags));
        Files.createDirectories(root.resolve("proto"));
        Files.writeString(root.resolve("pom.xml"), "<project/>\n");
        calls = root.resolve("mvn-calls");
        bin = root.resolve("bin");
        Files.createDirectories(bin);
    }

    /** The recorder: appends its arguments, prints what Maven prints, then runs {@code body}. */
    private void mavenThat(String body) throws IOException {
        Path mvn = bin.resolve("mvn");
        Files.writeString(mvn, "#!/usr/bin/env bash\necho \"$*\" >> '" + calls + "'\nprintf '\\033[0m\\033[0m'\n"
                + body + "\n");
        Files.setPosixFilePermissions(mvn, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    private Result run(Map<String, String> env, String... command) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(command));
        cmd.set(0, root.resolve(command[0]).toString());
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(root.toFile());
        pb.environment().remove("INVOCATION_ID");
        pb.environment().remove("GFXSTATS_CLASSPATH");
        pb.environment().put("PATH", bin + ":" + System.getenv("PATH"));
        pb.environment().put("GFX_MAVEN_REPO", root.resolve("m2").toString());
        pb.environment().putAll(env);
        Path err = root.resolve("stderr");
        Process p = pb.redirectError(err.toFile()).redirectOutput(root.resolve("stdout").toFile()).start();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        return new Result(p.exitValue(), Files.readString(err, StandardCharsets.UTF_8));
    }

    private record Result(int status, String stderr) {
    }

    private boolean mavenCalled() {
        return Files.exists(calls);
    }

    @Test
    void shouldNeverRunMavenUnderSystemdAndSayWhatToDo() throws Exception {
        mavenThat("exit 0");
        Result r = run(Map.of("INVOCATION_ID", "0123456789abcdef"), "scripts/gfxstatsd", "--print-config");
        assertEquals(2, r.status(), r.stderr());
        assertTrue(r.stderr().contains("run scripts/build first"), r.stderr());
        assertFalse(mavenCalled(), "Maven under a service manager");
    }

    @Test
    void shouldNeverRunMavenWithNoBuild() throws Exception {
        mavenThat("exit 0");
        Result r = run(Map.of(), "scripts/gfxstatsd", "--no-build", "--print-config");
        assertEquals(2, r.status(), r.stderr());
        assertEquals("gfxstatsd: " + root.resolve("target/gfxstats.jar") + " is missing: run scripts/build first\n",
                r.stderr());
        assertFalse(mavenCalled());
    }

    @Test
    void shouldTakeNoBuildAnywhereOnTheLineAndListItInTheHelp() throws Exception {
        mavenThat("exit 0");
        Result r = run(Map.of(), "scripts/gfxstatsd", "--print-config", "--no-build");
        assertEquals(2, r.status(), r.stderr());
        assertEquals("gfxstatsd: " + root.resolve("target/gfxstats.jar") + " is missing: run scripts/build first\n",
                r.stderr());
        assertFalse(mavenCalled());
        assertTrue(io.gfxstats.daemon.config.DaemonArgs.usage().contains("\n  --no-build "),
                io.gfxstats.daemon.config.DaemonArgs.usage());
        assertTrue(io.gfxstats.daemon.config.DaemonArgs.parse(new String[] {"--no-build", "--print-config"})
                .printConfig());
    }

    @Test
    void shouldPrintOnlyTheHeaderCommentAsUninstallsHelp() throws Exception {
        Result r = run(Map.of(), "scripts/uninstall", "--help");
        assertEquals(0, r.status(), r.stderr());
        String out = Files.readString(root.resolve("stdout"));
        assertTrue(out.startsWith("Removes what scripts/install put in place"), out);
        assertTrue(out.endsWith("  scripts/uninstall [--user|--system] [--prefix DIR] [--no-reload]\n"), out);
        assertFalse(out.contains("set -"), "no line of the script's code: " + out);
    }

    @Test
    void shouldRunTheBuiltJarUnderSystemdEvenWhenSourcesAreNewer() throws Exception {
        mavenThat("exit 0");
        Path jar = root.resolve("target/gfxstats.jar");
        Files.createDirectories(jar.getParent());
        Files.write(jar, new byte[] {0x50, 0x4b, 0x05, 0x06, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0});
        Files.setLastModifiedTime(jar, FileTime.fromMillis(System.currentTimeMillis() - 60_000));
        Files.createDirectories(root.resolve("src/model/src/main/java"));
        Files.writeString(root.resolve("src/model/src/main/java/New.java"), "class New {}\n");
        Result r = run(Map.of("INVOCATION_ID", "0123456789abcdef"), "scripts/gfxstatsd", "--print-config");
        assertFalse(mavenCalled(), "Maven under a service manager");
        assertTrue(r.stderr().contains("older than the sources; running it anyway"), r.stderr());
        // An empty jar: the JVM was started on it (and found no daemon class in it).
        assertTrue(r.stderr().contains("io.gfxstats.daemon.DaemonMain"), r.stderr());
    }

    /** The JVM flags scripts/gfxstats starts {@code java} with for {@code args}, from a recorder named java on PATH. */
    private List<String> javaFlags(String... args) throws Exception {
        Path recorded = root.resolve("java-args");
        Path java = bin.resolve("java");
        Files.writeString(java, "#!/usr/bin/env bash\nprintf '%s\\n' \"$@\" > '" + recorded + "'\n");
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
        String[] command = new String[args.length + 1];
        command[0] = "scripts/gfxstats";
        System.arraycopy(args, 0, command, 1, args.length);
        Result r = run(Map.of("GFXSTATS_CLASSPATH", root.resolve("classes").toString()), command);
        assertEquals(0, r.status(), r.stderr());
        List<String> flags = Files.readAllLines(recorded);
        return flags.subList(0, flags.indexOf("io.gfxstats.cli.Main"));
    }

    @Test
    void shouldRunTimelineWithTheOptimizingCompilerAndShortCommandsWithout() throws Exception {
        // `timeline classify -` follows a compositor's frame log for as long as it runs: C1 alone
        // took 5.4 s of CPU where C2 needs 3.4 s (issue 23).
        List<String> classify = javaFlags("timeline", "classify", "-");
        assertFalse(classify.contains("-XX:TieredStopAtLevel=1"), classify.toString());
        assertTrue(classify.contains("-XX:+UseSerialGC"), classify.toString());
        List<String> perfetto = javaFlags("timeline", "perfetto", "trace.pftrace");
        assertFalse(perfetto.contains("-XX:TieredStopAtLevel=1"), perfetto.toString());
        // The control: a short command keeps the start-up flags.
        List<String> version = javaFlags("version");
        assertTrue(version.contains("-XX:TieredStopAtLevel=1"), version.toString());
    }

    @Test
    void shouldSayInOneCleanLineWhatTheFirstBuildDoes() throws Exception {
        mavenThat("mkdir -p target && : > target/gfxstats.jar");
        Result r = run(Map.of(), "scripts/build");
        assertEquals(0, r.status(), r.stderr());
        List<String> lines = r.stderr().lines().toList();
        assertEquals(2, lines.size(), r.stderr());
        assertTrue(lines.get(0).startsWith("gfxstats: building " + root.resolve("target/gfxstats.jar")), lines.get(0));
        assertTrue(lines.get(0).contains("downloads about 80 MB"), "no dependencies cached yet: " + lines.get(0));
        assertTrue(lines.get(1).startsWith("gfxstats: built "), lines.get(1));
        assertFalse(r.stderr().contains("\033"), "raw escape codes on stderr");
        assertTrue(Files.readString(calls).contains("-B"), "batch mode");
    }

    @Test
    void shouldShowMavensErrorsCleanedWhenTheBuildFails() throws Exception {
        mavenThat("printf '\\033[1;31m[ERROR] COMPILATION ERROR\\033[m\\n'; exit 1");
        Result r = run(Map.of(), "scripts/gfxstats", "--help");
        assertEquals(2, r.status(), r.stderr());
        assertTrue(r.stderr().contains("[ERROR] COMPILATION ERROR"), r.stderr());
        assertTrue(r.stderr().contains("gfxstats: build failed"), r.stderr());
        assertFalse(r.stderr().contains("\033"), "raw escape codes on stderr");
    }
}
