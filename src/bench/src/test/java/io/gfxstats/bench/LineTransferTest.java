package io.gfxstats.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The probe that goes with every cross-core figure: a time from two CPUs, none from one, and its
 * threads gone at the end. No time is asserted beyond being one.
 */
class LineTransferTest {
    @Test
    void shouldTimeALineBetweenTheFirstTwoCpusAndEndItsThreads() throws Exception {
        int[] cpus = RenderThreadBench.firstTwoCpus();
        double ns;
        try (LineTransfer probe = new LineTransfer()) {
            ns = probe.oneWayNanos();
        }
        if (cpus[1] < 0) {
            assertTrue(Double.isNaN(ns), "one CPU: no figure, got " + ns);
        } else {
            assertTrue(ns > 0 && Double.isFinite(ns), "a time between two CPUs, got " + ns);
        }
        assertTrue(Thread.getAllStackTraces().keySet().stream().noneMatch(t -> t.getName().startsWith("line-transfer-")),
                "the probe's threads end with it");
    }

    @Test
    void shouldGiveNoFigureToAProcessOnOneCpu() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(List.of("taskset", "-c", Integer.toString(RenderThreadBench.firstTwoCpus()[0]),
                java, "-cp", System.getProperty("java.class.path"), LineTransfer.class.getName(), "2"))
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(2, TimeUnit.MINUTES), "the probe ends");
        assertEquals(0, p.exitValue(), out);
        assertEquals("line_transfer_ns=NaN\nline_transfer_ns=NaN\n", out);
    }
}
