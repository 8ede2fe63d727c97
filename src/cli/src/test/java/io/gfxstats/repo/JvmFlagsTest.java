package io.gfxstats.repo;

import io.airlift.compress.zstd.ZstdCompressor;
import io.airlift.compress.zstd.ZstdInputStream;
import io.gfxstats.buffer.BufferFiles;
import io.gfxstats.buffer.BufferSpec;
import io.gfxstats.buffer.BufferWriter;
import io.gfxstats.buffer.JvmFlags;
import io.gfxstats.buffer.StripeWriter;
import io.gfxstats.stats.Counters;
import io.gfxstats.stats.Pipeline;
import io.gfxstats.testing.SourceTree;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The JVM options of our own processes: written once; a client that maps a buffer needs none of
 * them, and with them the command line's libraries warn about nothing, on the JDK running the
 * tests and on JDK 25.
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
        for (Path jdk : jdks()) {
            Path work = Files.createDirectories(dir.resolve(jdk.getFileName().toString()));
            // No option at all, as an application that just puts the jars on its class path.
            assertEquals("counted 1" + System.lineSeparator(), run(jdk, List.of(), MapOnce.class, work.toString()),
                    jdk + " prints nothing of its own: no warning");
        }
    }

    @Test
    void shouldDecodeZstdWithOurOptionsAndNoWarning() throws Exception {
        // The command line's zstd decoder uses sun.misc.Unsafe, which JDK 24 and later warn about
        // unless told otherwise (jvm.args): a warning would land in the middle of a command's output.
        for (Path jdk : jdks()) {
            assertEquals("decoded 100000" + System.lineSeparator(), run(jdk, JvmFlags.all(), UnzstdOnce.class),
                    jdk + " prints nothing of its own: no warning");
        }
    }

    /** The JDK running the tests and JDK 25, once each (the tests may run on JDK 25 itself). */
    private static List<Path> jdks() throws Exception {
        assertTrue(Files.isDirectory(JDK_25), "JDK 25 at " + JDK_25 + " (this machine kind has it)");
        Set<Path> jdks = new LinkedHashSet<>();
        jdks.add(Path.of(System.getProperty("java.home")).toRealPath());
        jdks.add(JDK_25.toRealPath());
        return List.copyOf(jdks);
    }

    /** Standard output and error of {@code main} run on {@code jdk} with {@code options}, after it exited 0. */
    private static String run(Path jdk, List<String> options, Class<?> main, String... args) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(jdk.resolve("bin/java").toString());
        command.addAll(options);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), main.getName()));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), jdk + ": " + output);
        return output;
    }

    /** The command line's zstd decoder in miniature: a frame of aircompressor's decoded through its stream. */
    public static final class UnzstdOnce {
        public static void main(String[] args) throws Exception {
            byte[] data = new byte[100_000];
            for (int i = 0; i < data.length; i++) {
                data[i] = (byte) (i % 251 * 7);
            }
            ZstdCompressor compressor = new ZstdCompressor();
            byte[] frame = new byte[compressor.maxCompressedLength(data.length)];
            int size = compressor.compress(data, 0, data.length, frame, 0, frame.length);
            try (InputStream in = new ZstdInputStream(new ByteArrayInputStream(frame, 0, size))) {
                byte[] back = in.readAllBytes();
                if (!Arrays.equals(data, back)) {
                    throw new AssertionError("zstd round trip changed the data");
                }
                System.out.println("decoded " + back.length);
            }
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
