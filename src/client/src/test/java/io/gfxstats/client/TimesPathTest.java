package io.gfxstats.client;

import io.gfxstats.buffer.BufferReader;
import io.gfxstats.buffer.BufferSnapshot;
import io.gfxstats.buffer.CounterGroups;
import io.gfxstats.buffer.FrameStream;
import io.gfxstats.buffer.StripeWriter;
import io.gfxstats.buffer.TestBuffers;
import io.gfxstats.frame.DaveyListener;
import io.gfxstats.frame.FrameInfo;
import io.gfxstats.frame.ModernJankTracker;
import io.gfxstats.frame.TrackerConfig;
import io.gfxstats.matrix.MatrixLevels;
import io.gfxstats.matrix.MatrixMode;
import io.gfxstats.scene.SceneCounters;
import io.gfxstats.scene.SceneFrameCounter;
import io.gfxstats.stats.Counters;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.*;

/**
 * {@link TimesPath} writes a frame's counters and Matrix values straight into the mapped memory;
 * these tests hold it to what the stripe's per-counter methods count for the same frames (the
 * rules into {@link StripeWriter} as a sink, the scene counter's stripe methods): every counter,
 * every scene counter and sum, for every Matrix mode, with scene switches, interval changes,
 * frames the rules do not count, late and frozen frames, full FrameInfo frames in between, and a
 * shared stripe.
 */
class TimesPathTest {
    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final long MS = 1_000_000L;
    private static final long[] INTERVALS = {0, 8_333_333, 11_111_111, FrameStream.INTERVAL, 33_333_333};
    private static final String[] SCENES = {"menu", "level-1", "level-2"};

    @TempDir
    Path tmp;

    private final List<AutoCloseable> toClose = new ArrayList<>();

    @AfterEach
    void tearDown() throws Exception {
        for (int i = toClose.size() - 1; i >= 0; i--) {
            toClose.get(i).close();
        }
    }

    /** The path before TimesPath: the scene selected, the rules counting through the stripe, the scene counter. */
    private static final class Reference {
        final ModernJankTracker rules = new ModernJankTracker(TrackerConfig.live(FrameStream.INTERVAL),
                DaveyListener.ignoring());
        final SceneFrameCounter scenes;
        final StripeWriter stripe = StripeWriter.inMemory();
        /** Scene slots by name and names by slot: the test's own numbering, shared by one session's references. */
        final Map<String, Integer> slots;
        final String[] names;
        /** The tracker's scene switch: the scene since {@code since}, and the one before. */
        String scene = SceneOptions.DEFAULT_SCENE;
        String previous = SceneOptions.DEFAULT_SCENE;
        long since = Long.MIN_VALUE;

        Reference(SceneOptions options) {
            this(options, new HashMap<>(), new String[16]);
        }

        Reference(SceneOptions options, Map<String, Integer> slots, String[] names) {
            this.slots = slots;
            this.names = names;
            scenes = options.enabled()
                    ? new SceneFrameCounter(options.matrixMode(), options.matrixLevels(), options.refreshRateHz())
                    : null;
        }

        void select(long intendedVsync) {
            if (scenes != null) {
                String name = intendedVsync >= since ? scene : previous;
                int slot = slots.computeIfAbsent(name, n -> slots.size() + 1);
                names[slot] = name;
                stripe.selectScene(slot);
            }
        }

        void record(long[] f) {
            long interval = f[4] > 0 ? f[4] : FrameStream.INTERVAL;
            select(f[0]);
            rules.finishFrame(f[0], f[1], f[2], f[3], interval, stripe);
            if (scenes != null) {
                scenes.count(f[0], f[2], interval, stripe);
            }
        }

        void record(FrameInfo frame) {
            select(frame.get(FrameInfo.INTENDED_VSYNC));
            rules.finishFrame(frame, stripe);
            if (scenes != null) {
                scenes.count(frame, stripe);
            }
        }

        long[] vector() {
            long[] v = new long[CounterGroups.VECTOR_LENGTH];
            for (int e = 0; e < v.length; e++) {
                v[e] = stripe.contributionOf(e);
            }
            return v;
        }
    }

    private StatsSession open(SceneOptions scenes, int stripes) throws IOException, InterruptedException {
        Path dir = tmp.resolve("buffers-" + toClose.size());
        Files.createDirectory(dir);
        DirectoryBufferProvider p = DirectoryBufferProvider.builder(dir).stripeCount(stripes)
                .pollInterval(Duration.ofMillis(20)).build();
        toClose.add(p);
        StatsSession session = StatsSession.open(SessionOptions.builder("com.example.times", 1)
                .daveyListener(DaveyListener.ignoring()).scenes(scenes).countWhenRingFull(true).build(), p);
        toClose.add(session);
        assertTrue(session.awaitAttached(WAIT));
        return session;
    }

    /** Plays {@code count} random frames into a tracker and its reference, switching scenes now and then. */
    private static void play(WindowTracker tracker, Reference reference, long seed, int count) {
        SplittableRandom random = new SplittableRandom(seed);
        FrameStream full = new FrameStream(seed);
        long intended = 1_000 * MS;
        long interval = FrameStream.INTERVAL;
        for (int i = 0; i < count; i++) {
            if (random.nextInt(300) == 0) {
                interval = INTERVALS[random.nextInt(INTERVALS.length)];
            }
            intended += interval > 0 ? interval : FrameStream.INTERVAL;
            if (random.nextInt(150) == 0) {
                // From the next frame on, or from an earlier one still to come (straddling frames).
                String scene = random.nextInt(6) == 0 ? null : SCENES[random.nextInt(SCENES.length)];
                long since = intended + (random.nextBoolean() ? 0 : -2 * FrameStream.INTERVAL);
                tracker.setScene(scene, since);
                if (scene == null) {
                    reference.scene = SceneOptions.DEFAULT_SCENE;
                    reference.previous = SceneOptions.DEFAULT_SCENE;
                    reference.since = Long.MIN_VALUE;
                } else {
                    reference.previous = since - 1 >= reference.since ? reference.scene : reference.previous;
                    reference.scene = scene;
                    reference.since = since;
                }
            }
            if (random.nextInt(40) == 0) {
                FrameInfo f = full.next();
                tracker.record(f);
                reference.record(f);
                continue;
            }
            long[] f = frame(random, intended, interval);
            tracker.record(f[0], f[1], f[2], f[3], f[4]);
            reference.record(f);
        }
    }

    /** Mostly on-time frames, some late, frozen, uncounted (total or intended vsync not positive) or odd. */
    private static long[] frame(SplittableRandom random, long intended, long interval) {
        long start = random.nextInt(200) == 0 ? -random.nextLong(0, 3) : intended;
        long vsync = start + (random.nextInt(10) == 0 ? random.nextLong(1, 2 * FrameStream.INTERVAL) : 0);
        long duration = switch (random.nextInt(100)) {
            case 0 -> -random.nextLong(0, 5 * MS);
            case 1 -> random.nextLong(700 * MS, 3_000 * MS);
            case 2 -> (1L << 62) + random.nextLong(0, 10);
            default -> FrameStream.drawDuration(random);
        };
        long completed = start + duration;
        long gpu = switch (random.nextInt(8)) {
            case 0 -> 0;
            case 1 -> completed - random.nextLong(1, MS);
            default -> completed + random.nextLong(0, 30 * MS);
        };
        return new long[] {start, vsync, completed, gpu, interval};
    }

    private static BufferSnapshot snapshot(StatsSession session) throws IOException {
        session.flush();
        try (BufferReader r = BufferReader.open(session.buffer().orElseThrow().path(), TestBuffers.uid())) {
            return r.snapshot();
        }
    }

    private static void assertSameCounts(long[] expected, String[] expectedNames, BufferSnapshot snap) {
        long[] got = snap.vector();
        for (int c = 0; c < Counters.COUNT; c++) {
            assertEquals(expected[c], got[c], "counter " + c);
        }
        Map<String, long[]> want = SceneCounters.fromVector(expected, expectedNames);
        Map<String, long[]> have = SceneCounters.fromVector(got, SceneCounters.names(snap));
        assertEquals(want.keySet(), have.keySet());
        for (Map.Entry<String, long[]> e : want.entrySet()) {
            assertArrayEquals(e.getValue(), have.get(e.getKey()), "scene " + e.getKey());
        }
        assertTrue(expected[Counters.TOTAL_FRAMES] > 1_000);
    }

    @ParameterizedTest
    @EnumSource(MatrixMode.class)
    void shouldCountEveryCounterAndSceneValueLikeTheStripeMethods(MatrixMode mode) throws Exception {
        SceneOptions options = SceneOptions.DEFAULT.withMatrix(mode, MatrixLevels.DEFAULT);
        StatsSession session = open(options, 4);
        WindowTracker tracker = session.newTracker();
        Reference reference = new Reference(options);
        play(tracker, reference, 17 + mode.ordinal(), 20_000);
        tracker.close();
        BufferSnapshot snap = snapshot(session);
        assertSameCounts(reference.vector(), reference.names, snap);
        assertTrue(SceneCounters.fromVector(snap.vector(), SceneCounters.names(snap)).size() >= 3,
                "frames in several scenes");
    }

    @Test
    void shouldCountLikeTheStripeMethodsWithScenesOffAndAtAFixedRefreshRate() throws Exception {
        for (SceneOptions options : new SceneOptions[] {SceneOptions.DISABLED,
                SceneOptions.DEFAULT.withRefreshRateHz(90f)}) {
            StatsSession session = open(options, 4);
            WindowTracker tracker = session.newTracker();
            Reference reference = new Reference(options);
            play(tracker, reference, 5, 10_000);
            tracker.close();
            assertSameCounts(reference.vector(), reference.names, snapshot(session));
        }
    }

    @Test
    void shouldCountLikeTheStripeMethodsOnASharedStripe() throws Exception {
        // One writer stripe: the first tracker claims it, the second counts in the shared stripe.
        StatsSession session = open(SceneOptions.DEFAULT, 1);
        WindowTracker first = session.newTracker();
        WindowTracker second = session.newTracker();
        Reference a = new Reference(SceneOptions.DEFAULT);
        Reference b = new Reference(SceneOptions.DEFAULT, a.slots, a.names);
        play(first, a, 3, 5_000);
        play(second, b, 4, 5_000);
        first.close();
        second.close();
        long[] expected = a.vector();
        long[] other = b.vector();
        for (int e = 0; e < expected.length; e++) {
            expected[e] += other[e];
        }
        assertSameCounts(expected, a.names, snapshot(session));
    }
}
