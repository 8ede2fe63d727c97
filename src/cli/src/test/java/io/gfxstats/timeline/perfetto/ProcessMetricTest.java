package io.gfxstats.timeline.perfetto;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.gfxstats.timeline.JankType;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The compact metric against the plain one (sets of tokens, a sorted list of durations). */
class ProcessMetricTest {
    private static void shouldMatchThePlainCount(boolean ascendingTokens) {
        Random random = new Random(ascendingTokens ? 1 : 2);
        ProcessMetric metric = new ProcessMetric(1);
        Set<Long> tokens = new HashSet<>();
        Set<Long> app = new HashSet<>();
        List<Long> durations = new ArrayList<>();
        int appBit = JankType.toProto(JankType.APP_DEADLINE_MISSED);
        long token = 0;
        // Three blocks and more, a few layers per token, some durations of hours (past an int).
        for (int i = 0; i < 200_000; i++) {
            token = ascendingTokens ? token + random.nextInt(2) : random.nextInt(150_000);
            int jank = random.nextInt(9) == 0 ? appBit : 1;
            long dur = random.nextInt(50) == 0 ? 3_600_000_000_000L + random.nextInt(1000) : random.nextInt(40_000_000);
            boolean dropped = random.nextInt(100) == 0;
            metric.add(token, jank, 1 + random.nextInt(3), dur, dropped);
            tokens.add(token);
            if (jank == appBit) {
                app.add(token);
            }
            if (!dropped) {
                durations.add(dur);
            }
        }
        durations.sort(null);
        assertEquals(tokens.size(), metric.totalFrames());
        assertEquals(app.size(), metric.missedAppFrames());
        assertEquals(durations.get(durations.size() - 1), metric.durMax());
        assertEquals(durations.stream().mapToLong(Long::longValue).sum() / durations.size(), metric.durAvg());
        for (double p : new double[] {0, 50, 90, 95, 99, 100}) {
            double rank = p / 100 * (durations.size() - 1);
            int lo = (int) Math.floor(rank);
            int hi = Math.min(lo + 1, durations.size() - 1);
            double expected = durations.get(lo) + (rank - lo) * (durations.get(hi) - durations.get(lo));
            assertEquals(expected, metric.durPercentile(p), 1e-6, "p" + p);
        }
    }

    @Test
    void shouldCountAscendingTokensAndExactPercentilesAsThePlainMetricDoes() {
        shouldMatchThePlainCount(true);
    }

    @Test
    void shouldCountTokensInAnyOrderAsThePlainMetricDoes() {
        shouldMatchThePlainCount(false);
    }
}
