package io.gfxstats.demo;

import io.gfxstats.testing.Await;
import io.gfxstats.testing.SourceTree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gfxstats.daemon.DaemonProcess;
import io.gfxstats.proto.GraphicsStatsProto;
import io.gfxstats.testing.JavaProcess;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The README's client example is {@link RenderLoop}, and it works. */
class ReadmeTest {
    private static String readmeExample() throws Exception {
        String readme = Files.readString(Path.of("README.md"), StandardCharsets.UTF_8);
        int start = readme.indexOf("```java\nimport io.gfxstats.client.");
        assertTrue(start >= 0, "README has the client example");
        int end = readme.indexOf("```\n", start + 7);
        return readme.substring(start + "```java\n".length(), end);
    }

    @Test
    void shouldShowTheClientExampleExactlyAsTested() throws Exception {
        String source = Files.readString(SourceTree.testSource("io/gfxstats/demo/RenderLoop.java"),
                StandardCharsets.UTF_8);
        String withoutPackage = source.substring(source.indexOf("import "));
        assertEquals(withoutPackage, readmeExample());
    }

    @Test
    void shouldStoreTheFramesOfTheClientExample() throws Exception {
        Path state = Files.createTempDirectory(Path.of("/tmp"), "gfxreadme");
        try (DaemonProcess daemon = new DaemonProcess(state).start()) {
            ProcessBuilder pb = JavaProcess.builder(RenderLoop.class)
                    .redirectErrorStream(true).redirectOutput(daemon.clientLog().toFile());
            pb.environment().put("GFXSTATS_SOCKET", daemon.socket().toString());
            Process p = pb.start();
            assertTrue(p.waitFor(60, TimeUnit.SECONDS));
            assertEquals(0, p.exitValue(), Files.readString(daemon.clientLog()));

            Await.until(() -> daemon.health().getLiveBuffers() == 0 && daemon.entry("com.example.app", 42).isPresent(),
                    Duration.ofSeconds(60), daemon::logText);
            GraphicsStatsProto entry = daemon.entry("com.example.app", 42).orElse(null);
            assertTrue(entry != null, daemon.logText());
            assertEquals(601, entry.getSummary().getTotalFrames());
            assertEquals(60, entry.getSummary().getJankyFrames(), "every 10th frame");
        } finally {
            try (Stream<Path> s = Files.walk(state)) {
                for (Path f : s.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(f);
                }
            }
        }
    }
}
