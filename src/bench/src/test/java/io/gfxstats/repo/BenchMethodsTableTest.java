package io.gfxstats.repo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * scripts/bench methods' table (scripts/bench-methods.awk) from run lines as RenderThreadBench and
 * bench.c print them: medians by client, method, work and where the two CPUs were, compared as text.
 */
class BenchMethodsTableTest {
    @TempDir
    Path dir;

    private String table(String... lines) throws Exception {
        Path runs = dir.resolve("runs.txt");
        Files.write(runs, List.of(lines), StandardCharsets.UTF_8);
        Process p = new ProcessBuilder("awk", "-f", Path.of("scripts", "bench-methods.awk").toString(),
                runs.toString(), runs.toString()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(1, TimeUnit.MINUTES));
        assertEquals(0, p.exitValue(), out);
        return out;
    }

    /**
     * Rows in the order of the runs' first lines, each one's placements near, moved, far, unknown;
     * of two runs the mean of the two, the median of an even count.
     */
    @Test
    void shouldGroupTheRunsByWhereTheCpusWereAtTwiceTheLeastProbe() throws Exception {
        String head = "| Client | Method | work per frame | CPUs (a line between them, ns) | runs | record ns/frame "
                + "| peer ns/frame | ratio of the medians | ratio (range over the runs) |\n"
                + "|---|---|---:|---|---:|---:|---:|---:|---:|\n";
        assertEquals(head
                        + "| C | same | - | near (32-64) | 1 | 4.30 | 7.55 | **0.57** | 0.57-0.57 |\n"
                        + "| C | cross | - | near (33-35) | 1 | 9.08 | 8.41 | **1.08** | 1.08-1.08 |\n"
                        + "| C | cross | - | moved (33-235) | 1 | 15.00 | 8.41 | **1.78** | 1.70-1.70 |\n"
                        + "| C | cross | - | far (231-240) | 2 | 22.55 | 8.41 | **2.68** | 2.70-2.80 |\n"
                        + "| Java | paced | 800 rounds, 1509 ns | moved (40-65) | 1 | 0.01 | 0.05 | - (peer < 0.1 ns) | - |\n"
                        + "| Java | paced | 800 rounds, 1500 ns | unknown | 1 | 3.01 | 2.89 | **1.04** | 1.04-1.04 |\n",
                table("lang=c method=same record_ns=4.30 peer_ns=7.55 ratio=0.57 work_ns=0.0 work=0 "
                                + "transfer_before_ns=32.1 transfer_after_ns=64",
                        "lang=c method=cross record_ns=23.1 peer_ns=8.41 ratio=2.80 work_ns=0.0 work=0 "
                                + "transfer_before_ns=240.1 transfer_after_ns=230.9",
                        "lang=c method=cross record_ns=9.08 peer_ns=8.41 ratio=1.08 work_ns=0.0 work=0 "
                                + "transfer_before_ns=33 transfer_after_ns=35",
                        "lang=c method=cross record_ns=15 peer_ns=8.41 ratio=1.7 work_ns=0.0 work=0 "
                                + "transfer_before_ns=33 transfer_after_ns=235",
                        "lang=c method=cross record_ns=22 peer_ns=8.41 ratio=2.70 work_ns=0.0 work=0 "
                                + "transfer_before_ns=235 transfer_after_ns=231",
                        // 65 is at least twice 32.1, 64 is not.
                        "lang=java method=paced record_ns=0.01 peer_ns=0.05 ratio=0.2 work_ns=1509.0 work=800 "
                                + "transfer_before_ns=40 transfer_after_ns=65",
                        // A line from before the probe: where the CPUs were is not known.
                        "lang=java method=paced record_ns=3.01 peer_ns=2.89 ratio=1.04 work_ns=1500.0 work=800"));
    }
}
