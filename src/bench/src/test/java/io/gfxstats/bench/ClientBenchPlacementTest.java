package io.gfxstats.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** scripts/bench client's woken-drain figure split by where the two CPUs were in each iteration. */
class ClientBenchPlacementTest {
    private static ClientBench.Stats stats(String name, double[] wall, double[] transfer) {
        ClientBench.Stats s = new ClientBench.Stats(name);
        for (double w : wall) {
            s.wall.add(w);
        }
        for (double t : transfer) {
            s.transfer.add(t);
        }
        return s;
    }

    @Test
    void shouldSplitTheWokenDrainIterationsAtTwiceTheRunsLeastProbe() {
        ClientBench.Stats ours = stats(ClientBench.OURS_1T, new double[] {14, 15, 37, 36, 16, 99},
                new double[] {44, 46, 230, 240, 87.9, Double.NaN});
        // The least probe of the whole run may come from another benchmark's iterations.
        ClientBench.Stats peer = stats(ClientBench.PEER_1T, new double[] {24, 24, 24},
                new double[] {45, 231, 44});
        ClientBench.Placement p = ClientBench.Placement.of(ours, peer, List.of(ours, peer));
        assertEquals("line_transfer_least_ns=44.0 record_near_ns=15.0 ratio_near=0.63 near_iterations=3 "
                + "record_far_ns=37.0 ratio_far=1.54 far_iterations=2", p.line());
        assertEquals(String.format("%ngfxstatsRecord1t, by where the two CPUs were after each iteration (a cache "
                + "line's time between them, probed; near: under twice the run's least, 44 ns): near in 3 iterations, "
                + "median 15.0 ns a frame (**0.63** of AtomicHistogram's median); far in 2, median 37.0 ns (**1.54**).%n"),
                p.sentence());
    }
}
