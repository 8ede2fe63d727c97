package io.gfxstats.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.gfxstats.cli.Main;
import io.gfxstats.testing.JavaProcess;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The trace is streamed: {@value #MEGABYTES} MB of trace text piped into a {@code gfxstats trace -}
 * JVM whose heap is capped at {@value #HEAP}, many times smaller than the input.
 */
class TraceStreamingTest {
    static final int MEGABYTES = 160;
    static final String HEAP = "-Xmx32m";

    @Test
    void shouldReadAMuchLargerTraceThanItsHeap() throws Exception {
        List<String> cmd = JavaProcess.command(List.of(HEAP), Main.class, "trace", "-", "--format", "csv",
                "--process", "render_service");
        Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.PIPE).start();
        long ticks;
        Thread drain = new Thread(() -> {
            try {
                p.getInputStream().transferTo(OutputStream.nullOutputStream());
            } catch (IOException e) {
                // the process died: reported by its exit status
            }
        });
        drain.start();
        try (OutputStream in = p.getOutputStream()) {
            ticks = SyntheticTrace.write(in, (long) MEGABYTES << 20);
        } catch (IOException e) {
            // It stopped reading: its own words say why.
            assertTrue(p.waitFor(1, TimeUnit.MINUTES), "gfxstats trace stopped reading and did not exit");
            fail("gfxstats trace stopped reading its input (" + e.getMessage() + "), exit " + p.exitValue() + ": "
                    + new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8));
            return;
        }
        assertTrue(p.waitFor(5, TimeUnit.MINUTES), "gfxstats trace finished");
        drain.join();
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.exitValue(), err);
        assertEquals("", err);
        assertTrue(ticks > 5000, "frames: " + ticks);
    }
}
