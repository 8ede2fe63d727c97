package io.gfxstats.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gfxstats.daemon.DaemonProcess;
import io.gfxstats.daemon.TestFiles;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The dump path's class-data archive as `scripts/gfxstats dump` makes and uses it, on the jar the
 * build just packaged (archives hold classes from jars only, hence after {@code package}): the
 * training run (cli.DumpPathTraining, a server in a child JVM) must leave an archive from which
 * the small HTTP/2 client's classes are loaded, and the escape hatch GFXSTATS_DUMP_CLIENT=grpc must
 * print the same bytes.
 */
class DumpArchiveIT {
    private static final Path ARCHIVE = Path.of("target", "gfxstats-dump.jsa");

    @TempDir
    Path tmp;

    private record Run(int exit, byte[] stdout, String stderr) {
    }

    private Run gfxstats(List<String> env, String... args) throws Exception {
        List<String> cmd = new java.util.ArrayList<>(List.of(Path.of("scripts", "gfxstats").toAbsolutePath().toString()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.environment().remove("GFXSTATS_CLASSPATH");
        pb.environment().remove("GFXSTATS_CDS");
        pb.environment().remove("GFXSTATS_DUMP_CLIENT");
        pb.environment().remove("INVOCATION_ID");
        for (String kv : env) {
            pb.environment().put(kv.substring(0, kv.indexOf('=')), kv.substring(kv.indexOf('=') + 1));
        }
        Path err = tmp.resolve("stderr");
        Path out = tmp.resolve("stdout");
        Process p = pb.redirectError(err.toFile()).redirectOutput(out.toFile()).start();
        assertTrue(p.waitFor(180, TimeUnit.SECONDS), "gfxstats " + String.join(" ", args));
        return new Run(p.exitValue(), Files.readAllBytes(out), Files.readString(err, StandardCharsets.UTF_8));
    }

    @Test
    void shouldLoadTheSmallClientFromTheTrainedDumpArchive() throws Exception {
        assertTrue(Files.isRegularFile(Path.of("target", "gfxstats.jar")), "runs after package");
        Path state = Files.createTempDirectory(Path.of("/tmp"), "gfxcds");
        try (DaemonProcess daemon = new DaemonProcess(state).start()) {
            String socket = daemon.socket().toString();
            Run first = gfxstats(List.of(), "dump", "--socket", socket);
            assertEquals(0, first.exit(), first.stderr());
            assertTrue(Files.isRegularFile(ARCHIVE), "the dump path's archive exists after the first dump");
            String stamp = Files.readString(Path.of(ARCHIVE + ".stamp"));
            assertFalse(stamp.startsWith("failed"), "the training run failed: " + stamp);

            Path classes = tmp.resolve("class-load.log");
            Run second = gfxstats(List.of("GFXSTATS_JAVA_OPTS=-Xlog:class+load=info:file=" + classes),
                    "dump", "--socket", socket);
            assertEquals(0, second.exit(), second.stderr());
            assertFalse(second.stderr().contains("preparing"), "trained once: " + second.stderr());
            List<String> loaded = Files.readAllLines(classes);
            for (String cls : List.of("io.gfxstats.dumpclient.h2.StreamingCall", "io.gfxstats.dumpclient.h2.HpackDecoder",
                    "io.gfxstats.dumpclient.UnixDumpClient", "io.gfxstats.cli.DumpCommand")) {
                assertTrue(loaded.stream().anyMatch(l -> l.contains(" " + cls + " source: shared objects file")),
                        cls + " from the archive:\n" + String.join("\n", loaded.stream().filter(l -> l.contains(cls)).toList()));
            }
            assertFalse(loaded.stream().anyMatch(l -> l.contains(" io.grpc.")), "the small client loads no grpc-java");

            Run grpc = gfxstats(List.of("GFXSTATS_DUMP_CLIENT=grpc"), "dump", "--socket", socket);
            assertEquals(0, grpc.exit(), grpc.stderr());
            assertEquals(new String(first.stdout(), StandardCharsets.UTF_8), new String(grpc.stdout(), StandardCharsets.UTF_8));
        } finally {
            TestFiles.deleteTree(state);
        }
    }

    /**
     * scripts/gfxstatsd maps the command line's archive when it is current (its training serves
     * gRPC in-process, so the daemon's server classes are in it), and never trains one itself: with
     * a stale archive the daemon starts at once, from the jar.
     */
    @Test
    void shouldStartTheDaemonFromTheCommandLinesArchiveOnlyWhenItIsCurrent() throws Exception {
        Run help = gfxstats(List.of(), "--help");
        assertEquals(0, help.exit(), help.stderr());
        Path stamp = Path.of("target", "gfxstats-cli.jsa.stamp");
        String current = Files.readString(stamp);
        assertFalse(current.startsWith("failed"), "the training run failed: " + current);
        assertTrue(daemonClassSource("current").endsWith("source: shared objects file (top)"));
        Files.writeString(stamp, "made for another jar\n");
        try {
            assertTrue(daemonClassSource("stale").endsWith("gfxstats.jar"));
        } finally {
            Files.writeString(stamp, current);
        }
    }

    /** Where a daemon started by scripts/gfxstatsd loaded its gRPC server class from. */
    private String daemonClassSource(String name) throws Exception {
        Path state = Files.createTempDirectory(Path.of("/tmp"), "gfxcds");
        Path socket = state.resolve("s.sock");
        Path log = tmp.resolve(name + "-daemon.log");
        Path classes = tmp.resolve(name + "-class-load.log");
        ProcessBuilder pb = new ProcessBuilder(Path.of("scripts", "gfxstatsd").toAbsolutePath().toString(), "--no-build",
                "--state-dir", state.toString(), "--socket", socket.toString());
        pb.environment().remove("GFXSTATS_CLASSPATH");
        pb.environment().remove("GFXSTATS_CDS");
        pb.environment().remove("INVOCATION_ID");
        pb.environment().put("GFXSTATSD_JAVA_OPTS", "-Xlog:class+load=info:file=" + classes);
        Process daemon = pb.redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            io.gfxstats.testing.DaemonHealth.await(daemon, socket, java.time.Duration.ofSeconds(60),
                    () -> Files.readString(log));
            daemon.destroy();
            assertTrue(daemon.waitFor(60, TimeUnit.SECONDS), "the daemon stops on SIGTERM");
            assertFalse(Files.readString(log).contains("preparing"), "no training run: " + Files.readString(log));
            return Files.readAllLines(classes).stream()
                    .filter(l -> l.contains(" io.gfxstats.daemon.rpc.GfxStatsServer source: "))
                    .findFirst().orElseThrow(() -> new AssertionError("GfxStatsServer was not loaded"));
        } finally {
            daemon.destroyForcibly().waitFor();
            TestFiles.deleteTree(state);
        }
    }

    @Test
    void shouldTrainOnceWhenCommandsStartTogether() throws Exception {
        Path archive = Path.of("target", "gfxstats-dump.jsa");
        Files.deleteIfExists(archive);
        Files.deleteIfExists(Path.of(archive + ".stamp"));
        Path state = Files.createTempDirectory(Path.of("/tmp"), "gfxcds");
        try (DaemonProcess daemon = new DaemonProcess(state).start()) {
            List<Process> dumps = new java.util.ArrayList<>();
            List<Path> errs = new java.util.ArrayList<>();
            for (int i = 0; i < 3; i++) {
                Path err = tmp.resolve("stderr-" + i);
                ProcessBuilder pb = new ProcessBuilder(Path.of("scripts", "gfxstats").toAbsolutePath().toString(), "dump",
                        "--socket", daemon.socket().toString());
                pb.environment().remove("GFXSTATS_CLASSPATH");
                pb.environment().remove("GFXSTATS_CDS");
                pb.environment().remove("INVOCATION_ID");
                dumps.add(pb.redirectError(err.toFile()).redirectOutput(tmp.resolve("stdout-" + i).toFile()).start());
                errs.add(err);
            }
            int training = 0;
            for (int i = 0; i < dumps.size(); i++) {
                Process p = dumps.get(i);
                if (!p.waitFor(180, TimeUnit.SECONDS)) {
                    dumps.forEach(Process::destroyForcibly);
                    throw new AssertionError("a dump did not end");
                }
                String err = Files.readString(errs.get(i), StandardCharsets.UTF_8);
                assertEquals(0, p.exitValue(), err);
                training += err.contains("preparing the start-up archive") ? 1 : 0;
            }
            assertEquals(1, training, "one training run for three commands started together");
            assertTrue(Files.isRegularFile(archive));
        } finally {
            TestFiles.deleteTree(state);
        }
    }

    /**
     * src/cli/pom.xml's product-jar execution (its Ant steps, as they are there) in a pom of its
     * own, with the module's build directory and the checkout as {@code gfx.root}. Run in the
     * module itself, Maven first resolves the module's dependencies, among them its sibling modules,
     * from the local repository, where `mvn verify` on a fresh machine never put them: the test
     * passed only where an earlier `mvn install` had left them, and failed on a fresh machine.
     */
    private static Path productJarPom(Path dir) throws java.io.IOException {
        String module = Files.readString(Path.of("src", "cli", "pom.xml"));
        java.util.regex.Matcher execution = java.util.regex.Pattern.compile(
                "<execution>\\s*<id>product-jar</id>.*?</execution>", java.util.regex.Pattern.DOTALL).matcher(module);
        assertTrue(execution.find(), "src/cli/pom.xml has the product-jar execution");
        Path root = Path.of("").toAbsolutePath();
        String pom = """
                <project xmlns="http://maven.apache.org/POM/4.0.0">
                  <modelVersion>4.0.0</modelVersion>
                  <groupId>io.gfxstats.test</groupId>
                  <artifactId>product-jar</artifactId>
                  <version>1</version>
                  <packaging>pom</packaging>
                  <properties><gfx.root>%s</gfx.root></properties>
                  <build>
                    <directory>%s</directory>
                    <plugins><plugin>
                      <groupId>org.apache.maven.plugins</groupId>
                      <artifactId>maven-antrun-plugin</artifactId>
                      <version>3.1.0</version>
                      <executions>%s</executions>
                    </plugin></plugins>
                  </build>
                </project>
                """.formatted(root, root.resolve(Path.of("src", "cli", "target")), execution.group());
        Path file = dir.resolve("product-jar-pom.xml");
        Files.writeString(file, pom);
        return file;
    }

    /**
     * A daemon started from the checkout's jar, then the build's last step (src/cli/pom.xml's
     * product-jar execution, run by Maven itself) puts a different jar in its place: the daemon
     * must still stop cleanly on SIGTERM, loading the classes it had not needed yet. Written in
     * place, the new jar's different offsets made it fail with NoClassDefFoundError and run on.
     */
    @Test
    void shouldLetARunningDaemonStopCleanlyAfterARebuild() throws Exception {
        Path shaded = Path.of("src", "cli", "target", "gfxstats-shaded.jar");
        assertTrue(Files.isRegularFile(shaded), "runs after package");
        Path state = Files.createTempDirectory(Path.of("/tmp"), "gfxrebuild");
        Path socket = state.resolve("s.sock");
        Path log = tmp.resolve("daemon.log");
        ProcessBuilder pb = new ProcessBuilder(Path.of("scripts", "gfxstatsd").toAbsolutePath().toString(), "--no-build",
                "--state-dir", state.toString(), "--socket", socket.toString());
        pb.environment().remove("GFXSTATS_CLASSPATH");
        pb.environment().remove("INVOCATION_ID");
        Process daemon = pb.redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            io.gfxstats.testing.DaemonHealth.await(daemon, socket, java.time.Duration.ofSeconds(60),
                    () -> Files.readString(log));
            // A different jar from the build: one more entry moves every offset after it.
            Path different = tmp.resolve("different.jar");
            try (var in = new java.util.zip.ZipFile(shaded.toFile());
                 var out = new java.util.zip.ZipOutputStream(Files.newOutputStream(different))) {
                out.putNextEntry(new java.util.zip.ZipEntry("META-INF/gfxstats-rebuild-test.txt"));
                out.write("a rebuild\n".getBytes(StandardCharsets.UTF_8));
                out.closeEntry();
                for (var e = in.entries(); e.hasMoreElements(); ) {
                    var entry = e.nextElement();
                    out.putNextEntry(new java.util.zip.ZipEntry(entry.getName()));
                    try (var data = in.getInputStream(entry)) {
                        data.transferTo(out);
                    }
                    out.closeEntry();
                }
            }
            Files.copy(different, shaded, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            String mavenHome = System.getProperty("gfx.maven.home", "");
            String mvn = mavenHome.isEmpty() ? "mvn" : Path.of(mavenHome, "bin", "mvn").toString();
            List<String> build = new java.util.ArrayList<>(List.of(mvn, "-B", "-q", "-o", "-f",
                    productJarPom(tmp).toString(), "org.apache.maven.plugins:maven-antrun-plugin:3.1.0:run@product-jar"));
            String repo = System.getProperty("gfx.maven.repo", "");
            if (!repo.isEmpty()) {
                build.add("-Dmaven.repo.local=" + repo);
            }
            Process step = new ProcessBuilder(build).redirectErrorStream(true).start();
            String stepOut = new String(step.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(step.waitFor(180, TimeUnit.SECONDS));
            assertEquals(0, step.exitValue(), stepOut);
            assertEquals(Files.size(different), Files.size(Path.of("target", "gfxstats.jar")), "the build replaced the jar");

            daemon.destroy(); // SIGTERM
            assertTrue(daemon.waitFor(60, TimeUnit.SECONDS), "the daemon stopped on SIGTERM:\n" + Files.readString(log));
            String text = Files.readString(log);
            assertFalse(text.contains("NoClassDefFoundError") || text.contains("ClassNotFoundException"), text);
            assertEquals(0, daemon.exitValue(), text);
        } finally {
            daemon.destroyForcibly();
            TestFiles.deleteTree(state);
        }
    }
}
