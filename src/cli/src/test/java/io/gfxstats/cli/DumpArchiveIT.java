package io.gfxstats.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gfxstats.daemon.DaemonProcess;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
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
            try (Stream<Path> s = Files.walk(state)) {
                for (Path f : s.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(f);
                }
            }
        }
    }
}
