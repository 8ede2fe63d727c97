package io.gfxstats.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ChildClassSharingTest {
    /** A main class no other test starts, so that this test knows how often it was started. */
    public static final class Probe {
        public static void main(String[] args) {
            System.out.println("probe " + args[0]);
        }
    }

    @Test
    void shouldStartAMainClassFromItsArchiveFromItsThirdStartWithOnlyTheProgramsOutput(@TempDir Path dir)
            throws Exception {
        assumeTrue(ChildClassSharing.get() != null, "class-data sharing for children is off (-Dgfx.test.cds=false)");
        List<String> sources = new ArrayList<>();
        for (int i = 1; i <= ChildClassSharing.TRAIN_AT + 1; i++) {
            Path log = dir.resolve("load-" + i + ".txt");
            List<String> cmd = JavaProcess.command(
                    List.of("-Xlog:class+load=info:file=" + log), Probe.class, Integer.toString(i));
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(p.waitFor(60, TimeUnit.SECONDS));
            assertEquals(0, p.exitValue(), out);
            assertEquals("probe " + i + "\n", out, "a child's output is its program's, no CDS line in it");
            String classPath = cmd.get(cmd.indexOf("-cp") + 1);
            for (String entry : classPath.split(File.pathSeparator)) {
                assertFalse(Files.isDirectory(Path.of(entry)), "the JVM dumps no archive with a directory: " + entry);
            }
            sources.add(Files.readAllLines(log).stream()
                    .filter(l -> l.contains(" " + Probe.class.getName() + " "))
                    .findFirst().orElseThrow());
        }
        assertFalse(sources.get(0).contains("shared objects file"), sources.get(0));
        assertFalse(sources.get(1).contains("shared objects file"), sources.get(1));
        assertTrue(sources.get(2).contains("shared objects file"), sources.get(2));
        assertTrue(sources.get(3).contains("shared objects file"), sources.get(3));
    }
}
