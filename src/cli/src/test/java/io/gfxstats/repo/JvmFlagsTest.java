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

/** chronicle-bytes' JVM options: written once, and enough for a quiet client on the JDK running the tests. */
class JvmFlagsTest {
    private static final Path FILE = SourceTree.mainResource("io/gfxstats/buffer/jvm.args");

    @Test
    void shouldWriteTheModuleOptionsInOnePlace() throws Exception {
        // In pieces, so that this file is not a copy itself.
        List<String> options = List.of("java.lang.reflect" + "=ALL-UNNAMED", "sun.nio.ch" + "=ALL-UNNAMED",
                "jdk.internal" + ".ref=ALL-UNNAMED", "jdk.internal" + ".ref");
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
        assertEquals(List.of(), copies, "only " + FILE + " lists chronicle's module options");
        assertTrue(JvmFlags.all().contains("--add-exports=java.base/" + "sun.nio" + ".ch=ALL-UNNAMED"));
        assertEquals(JvmFlags.all(), Files.readAllLines(FILE).stream().filter(l -> !l.isBlank()).toList(),
                "JvmFlags reads the same file the scripts and the build read");
    }

    @Test
    void shouldBeAcceptedByTheJdkAndLeaveAClientWithoutWarnings(@TempDir Path dir) throws Exception {
        Process p = new ProcessBuilder(JavaProcess.command(MapOnce.class, dir.toString()))
                .redirectErrorStream(true).start();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.exitValue(), output);
        assertEquals("counted 1" + System.lineSeparator(), output,
                "a client on JDK " + Runtime.version().feature() + " prints nothing of its own: no warning");
        assertFalse(JvmFlags.systemProperties().isEmpty());
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
