package io.gfxstats.collect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gfxstats.cli.SampleProtos;
import io.gfxstats.proto.GraphicsStatsServiceDumpProto;
import io.gfxstats.rpc.v1.PullRequest;
import io.gfxstats.rpc.v1.PullResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The collector's scheduling, retry and reporting, with a scripted puller and a fake clock. */
class CollectorTest {
    private static final long DAY = 1_699_920_000_000L;

    /** A clock that only moves when the collector sleeps or a pull takes time. */
    private final AtomicLong now = new AtomicLong();
    private final List<Duration> sleeps = Collections.synchronizedList(new ArrayList<>());

    private Collector collector(int concurrency, RetryPolicy retry, TargetPuller puller) {
        return new Collector(concurrency, retry, puller, now::get, d -> {
            sleeps.add(d);
            now.addAndGet(d.toNanos());
        });
    }

    private static PullResponse oneEntry(String pkg, int frames) {
        return PullResponse.newBuilder().setDayStart(DAY).setStats(GraphicsStatsServiceDumpProto.newBuilder()
                .addStats(SampleProtos.entry(pkg, 1, 10_001, DAY, DAY + 1, frames, 12))).build();
    }

    private static final List<Target> THREE = List.of(Target.tcp("a", 1), Target.tcp("b", 2), Target.tcp("c", 3));

    @Test
    void shouldRetryARetryableFailureWithGrowingPausesUntilItSucceeds() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        TargetPuller flaky = (t, r, d) -> {
            if (calls.incrementAndGet() <= 2) {
                throw new PullFailure("daemon restarting", true);
            }
            return oneEntry("com.a", 10);
        };

        Collector.Result result = collector(4, RetryPolicy.of(Duration.ofSeconds(20), 2), flaky)
                .collect(List.of(Target.tcp("a", 1)), false);

        TargetResult r = result.targets().get(0);
        assertTrue(r.ok());
        assertEquals(3, r.attempts());
        assertNull(r.error());
        assertEquals(List.of(Duration.ofMillis(250), Duration.ofMillis(500)), sleeps);
        assertEquals(10, result.merged().getStats(0).getSummary().getTotalFrames());
    }

    @Test
    void shouldGiveUpAfterTheConfiguredRetries() throws Exception {
        TargetPuller down = (t, r, d) -> {
            throw new PullFailure("gfxstats daemon at a:1 not reachable (connection refused)", true);
        };

        Collector.Result result = collector(4, RetryPolicy.of(Duration.ofSeconds(20), 3), down)
                .collect(List.of(Target.tcp("a", 1)), false);

        TargetResult r = result.targets().get(0);
        assertFalse(r.ok());
        assertEquals(4, r.attempts());
        assertEquals("gfxstats daemon at a:1 not reachable (connection refused)", r.error());
        assertEquals(List.of(Duration.ofMillis(250), Duration.ofMillis(500), Duration.ofMillis(1000)), sleeps);
        assertEquals(0, result.succeeded());
    }

    @Test
    void shouldNotRetryAFailureThatCannotPass() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        TargetPuller refused = (t, r, d) -> {
            calls.incrementAndGet();
            throw new PullFailure("refused the call: invalid bearer token (check the token file)", false);
        };

        TargetResult r = collector(4, RetryPolicy.of(Duration.ofSeconds(20), 5), refused)
                .collect(List.of(Target.tcp("a", 1)), false).targets().get(0);

        assertEquals(1, calls.get());
        assertEquals(1, r.attempts());
        assertTrue(sleeps.isEmpty());
    }

    @Test
    void shouldStopRetryingAtThePerTargetDeadlineAndGiveEachAttemptOnlyTheTimeLeft() throws Exception {
        List<Duration> given = new ArrayList<>();
        TargetPuller slow = (t, r, d) -> {
            given.add(d);
            now.addAndGet(d.toNanos());
            throw new PullFailure("gfxstats daemon at a:1 did not answer within " + d.toMillis() + " ms", true);
        };
        RetryPolicy policy = new RetryPolicy(Duration.ofSeconds(2), 10, Duration.ofMillis(100), Duration.ofSeconds(1));

        TargetResult r = collector(1, policy, slow).collect(List.of(Target.tcp("a", 1)), false).targets().get(0);

        // The first attempt uses the whole deadline; nothing is left for a second one.
        assertEquals(List.of(Duration.ofSeconds(2)), given);
        assertEquals(1, r.attempts());
        assertTrue(r.error().endsWith("(per-target deadline of 2 s reached)"), r.error());
        assertEquals(2000, r.millis());
    }

    @Test
    void shouldPullEveryTargetAndReportThemInListOrderWhateverOrderTheyFinish() throws Exception {
        CountDownLatch cFinished = new CountDownLatch(1);
        TargetPuller puller = (t, r, d) -> {
            if (t.host().equals("a")) {
                // a finishes last
                assertTrue(cFinished.await(10, TimeUnit.SECONDS));
            }
            if (t.host().equals("b")) {
                throw new PullFailure("b is down", false);
            }
            if (t.host().equals("c")) {
                cFinished.countDown();
            }
            return oneEntry("com." + t.host(), 5);
        };

        Collector.Result result = collector(3, RetryPolicy.of(Duration.ofSeconds(20), 0), puller).collect(THREE, true);

        assertEquals(THREE, result.targets().stream().map(TargetResult::target).toList());
        assertEquals(List.of(true, false, true), result.targets().stream().map(TargetResult::ok).toList());
        assertEquals(2, result.succeeded());
        assertEquals(List.of("com.a", "com.c"),
                result.merged().getStatsList().stream().map(p -> p.getPackageName()).toList());
    }

    @Test
    void shouldPassTheRequestedDayToEveryPull() throws Exception {
        Map<Target, PullRequest> requests = new ConcurrentHashMap<>();
        TargetPuller puller = (t, r, d) -> {
            requests.put(t, r);
            return oneEntry("com.x", 1);
        };

        collector(2, RetryPolicy.of(Duration.ofSeconds(20), 0), puller).collect(THREE, true);

        assertEquals(3, requests.size());
        assertTrue(requests.values().stream().allMatch(PullRequest::getLastFullDay));
    }

    @Test
    void shouldNeverRunMorePullsAtOnceThanTheConcurrency() throws Exception {
        AtomicInteger inFlight = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        CountDownLatch pairSeen = new CountDownLatch(1);
        TargetPuller puller = (t, r, d) -> {
            int n = inFlight.incrementAndGet();
            most.accumulateAndGet(n, Math::max);
            if (n == 2) {
                pairSeen.countDown();
            }
            // Hold the slot until two pulls overlapped, so a pool of any size gets the chance to exceed 2.
            pairSeen.await(200, TimeUnit.MILLISECONDS);
            Thread.sleep(5);
            inFlight.decrementAndGet();
            return oneEntry("com.x", 1);
        };
        List<Target> targets = new ArrayList<>();
        for (int i = 1; i <= 12; i++) {
            targets.add(Target.tcp("h" + i, i));
        }

        Collector.Result result = new Collector(2, RetryPolicy.of(Duration.ofSeconds(20), 0), puller).collect(targets, false);

        assertEquals(12, result.succeeded());
        assertEquals(2, most.get());
        assertEquals(12, result.merged().getStats(0).getSummary().getTotalFrames());
    }

    @Test
    void shouldReportAPullerBugAsThatTargetsFailure() throws Exception {
        TargetPuller buggy = (t, r, d) -> {
            if (t.host().equals("b")) {
                throw new IllegalStateException("boom");
            }
            return oneEntry("com.x", 1);
        };

        Collector.Result result = collector(1, RetryPolicy.of(Duration.ofSeconds(20), 3), buggy).collect(THREE, false);

        assertEquals(2, result.succeeded());
        assertEquals("unexpected failure: java.lang.IllegalStateException: boom", result.targets().get(1).error());
        assertEquals(1, result.targets().get(1).attempts());
    }

    @Test
    void shouldCapTheBackoff() {
        RetryPolicy p = new RetryPolicy(Duration.ofSeconds(60), 10, Duration.ofMillis(300), Duration.ofSeconds(1));

        assertEquals(Duration.ofMillis(300), p.backoff(1));
        assertEquals(Duration.ofMillis(600), p.backoff(2));
        assertEquals(Duration.ofSeconds(1), p.backoff(3));
        assertEquals(Duration.ofSeconds(1), p.backoff(9));
    }
}
