package io.gfxstats.repo;

import io.gfxstats.testing.SourceTree;

import io.gfxstats.buffer.BufferFiles;
import io.gfxstats.buffer.BufferSpec;
import io.gfxstats.buffer.BufferWriter;
import io.gfxstats.buffer.JvmFlags;
import io.gfxstats.buffer.StripeWriter;
import io.gfxstats.stats.Counters;
import io.gfxstats.stats.Pipeline;
import io.gfxstats.testing.JavaProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The JVM options of our own processes: written once; and a client that maps a buffer needs none
 * of them, on the JDK running the tests and on JDK 25.
 */
class JvmFlagsTest {
    private static final Path FILE = SourceTree.mainResource("io/gfxstats/buffer/jvm.args");
    /** The second JDK of this machine kind (the developers' guide): the client must work there too. */
    private static final Path JDK_25 = Path.of("/usr/lib/jvm/temurin-25-jdk-amd64");

    @Test
    void shouldWriteTheOptionsInOnePlace() throws Exception {
        // In pieces, so that this file is not a copy itself.
        // The JDK's own modules opened to our code; the compiler's options for Error Prone (jdk.compiler,
        // in the build's javac) are not ours.
        List<String> options = List.of("enable-native" + "-access=", "add-" + "opens=java.base", "add-" + "exports=java.base");
        List<String> copies = new ArrayList<>();
        for (Path file : SelfContainedRepositoryTest.repositoryFiles()) {
            String text = SelfContainedRepositoryTest.read(file);
            if (text == null || file.equals(FILE)) {
                continue;
            }
            for (String option : options) {
                if (text.contains(option)) {
                    copies.add(file + ": " + option);
                }
            }
        }
        assertEquals(List.of(), copies, "only " + FILE + " lists JVM options");
        assertEquals(JvmFlags.all(), Files.readAllLines(FILE).stream().filter(l -> !l.isBlank()).toList(),
                "JvmFlags reads the same file the scripts and the build read");
    }

    @Test
    void shouldMapAndCountWithNoJvmOptionAndNoWarning(@TempDir Path dir) throws Exception {
        List<Path> jdks = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"))));
        assertTrue(Files.isDirectory(JDK_25), "JDK 25 at " + JDK_25 + " (this machine kind has it)");
        jdks.add(JDK_25);
        for (Path jdk : jdks) {
            Path work = Files.createDirectories(dir.resolve(jdk.getFileName().toString()));
            // No option at all, as an application that just puts the jars on its class path.
            Process p = new ProcessBuilder(jdk.resolve("bin/java").toString(), "-cp", System.getProperty("java.class.path"),
                    MapOnce.class.getName(), work.toString()).redirectErrorStream(true).start();
            String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(p.waitFor(60, TimeUnit.SECONDS));
            assertEquals(0, p.exitValue(), jdk + ": " + output);
            assertEquals("counted 1" + System.lineSeparator(), output, jdk + " prints nothing of its own: no warning");
        }
    }

    /** A client in miniature: maps a buffer, counts a frame, reads it back. */
    public static final class MapOnce {
        public static void main(String[] args) throws Exception {
            Path file = Path.of(args[0], "b.gfxbuf");
            BufferFiles.create(file, BufferSpec.builder().pid(ProcessHandle.current().pid()).uid(1000)
                    .packageName("com.example.app").versionCode(1).registrationId("reg-flags")
                    .statsStartMillis(1_700_000_000_000L).pipeline(Pipeline.GL).stripeCount(1).build(),
                    BufferFiles.OWNER_READ_WRITE);
            try (BufferWriter writer = BufferWriter.open(file)) {
                StripeWriter stripe = writer.claimStripe();
                stripe.increment(Counters.TOTAL_FRAMES);
                stripe.release();
                System.out.println("counted " + writer.snapshot().totalFrames());
            }
        }
    }
}
