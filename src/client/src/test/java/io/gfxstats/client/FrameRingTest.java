package io.gfxstats.client;

import io.gfxstats.buffer.BufferReader;
import io.gfxstats.buffer.BufferSnapshot;
import io.gfxstats.buffer.ClientHealthGroup;
import io.gfxstats.buffer.FrameTimelineGroup;
import io.gfxstats.buffer.StripeWriter;
import io.gfxstats.buffer.FrameStream;
import io.gfxstats.buffer.TestBuffers;
import io.gfxstats.frame.DaveyListener;
import io.gfxstats.frame.FrameInfo;
import io.gfxstats.frame.ModernJankTracker;
import io.gfxstats.frame.TrackerConfig;
import io.gfxstats.scene.SceneCounters;
import io.gfxstats.stats.ProfileData;
import io.gfxstats.testing.Await;
import io.gfxstats.timeline.wayland.PresentationFeedback;
import io.gfxstats.timeline.Thresholds;
import io.gfxstats.timeline.TimelineCounter;
import io.gfxstats.timeline.TimelineFrame;
import io.gfxstats.timeline.recorder.TimelineRecorder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.*;

/** The frame ring between a tracker's recording thread and the session's drain thread. */
class FrameRingTest {
    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final long MS = 1_000_000L;
    private static final long FI = FrameStream.INTERVAL;

    @TempDir
    Path dir;

    private final List<AutoCloseable> toClose = new ArrayList<>();

    @AfterEach
    void tearDown() throws Exception {
        for (int i = toClose.size() - 1; i >= 0; i--) {
            toClose.get(i).close();
        }
    }

    private StatsSession open() throws Exception {
        DirectoryBufferProvider p = DirectoryBufferProvider.create(dir);
        toClose.add(p);
        StatsSession session = StatsSession.open(SessionOptions.builder("com.example.ring", 1)
                .daveyListener(DaveyListener.ignoring()).build(), p);
        toClose.add(session);
        assertTrue(session.awaitAttached(WAIT));
        return session;
    }

    private static BufferSnapshot snapshot(StatsSession session) throws IOException {
        try (BufferReader r = BufferReader.open(session.buffer().orElseThrow().path(), TestBuffers.uid())) {
            return r.snapshot();
        }
    }

    private static long total(StatsSession session) throws IOException {
        return snapshot(session).totalFrames();
    }

    @Test
    void shouldCountARecordedFrameOnlyWhenTheDrainHasRun() throws Exception {
        StatsSession session = open();
        WindowTracker tracker = session.newTracker();
        session.pauseDrain(true);
        long t = 1_000 * MS;
        for (int i = 0; i < 10; i++, t += FI) {
            tracker.record(t, t, t + 5 * MS, t + 6 * MS, FI);
        }
        assertEquals(10, tracker.pendingFrames(), "the frames wait in the ring");
        assertEquals(0, total(session), "record does not run the rules on the recording thread");
        session.pauseDrain(false);
        Await.until(() -> total(session) == 10, WAIT, "the drain thread counts the 10 frames");
        assertEquals(0, tracker.pendingFrames());
        assertEquals(0, session.droppedFrames());
    }

    @Test
    void shouldCountExactlyTheFramesBeyondAFullRingAsDropped() throws Exception {
        StatsSession session = open();
        WindowTracker tracker = session.newTracker();
        session.pauseDrain(true);
        long t = 1_000 * MS;
        int extra = 37;
        FrameInfo info = new FrameInfo();
        for (int i = 0; i < FrameRing.DEFAULT_CAPACITY + extra; i++, t += FI) {
            if (i % 2 == 0) {
                tracker.record(t, t, t + 5 * MS, t + 6 * MS, FI);
            } else {
                tracker.record(info.clear().setMainTimes(t, t, t + 5 * MS, t + 6 * MS, FI));
            }
        }
        assertEquals(extra, session.droppedFrames());
        session.flush();
        assertEquals(FrameRing.DEFAULT_CAPACITY, total(session), "every frame that fitted is counted");
        assertEquals(extra, ClientHealthGroup.ringDropped(snapshot(session).vector()),
                "the drops are in the mapped buffer, where the daemon reads them");
        session.pauseDrain(false);
        // Room again: the next frames are counted, the drop count stays.
        tracker.record(t, t, t + 5 * MS, t + 6 * MS, FI);
        session.flush();
        assertEquals(FrameRing.DEFAULT_CAPACITY + 1, total(session));
        assertEquals(extra, session.droppedFrames());
        tracker.close();
        assertEquals(extra, session.droppedFrames(), "a closed tracker's drops stay counted");
        assertEquals(extra, ClientHealthGroup.ringDropped(snapshot(session).vector()), "counted once, not again at close");
    }

    @Test
    void shouldCountAMillionFramesExactlyWhileTheDrainThreadCountsConcurrently() throws Exception {
        StatsSession session = open();
        ProfileData expected = new ProfileData();
        ModernJankTracker reference = new ModernJankTracker(TrackerConfig.live(FI), DaveyListener.ignoring());
        AtomicReference<Throwable> failure = new AtomicReference<>();
        WindowTracker tracker = session.newTracker();
        Thread renderer = new Thread(() -> {
            try {
                SplittableRandom random = new SplittableRandom(11);
                FrameInfo f = new FrameInfo();
                long intended = 1_000 * MS;
                for (int i = 0; i < 1_000_000; i++) {
                    intended += FI;
                    long vsync = intended + (random.nextInt(10) == 0 ? random.nextLong(1, FI) : 0);
                    long completed = intended + FrameStream.drawDuration(random);
                    long gpu = completed + random.nextLong(0, 6 * MS);
                    tracker.record(intended, vsync, completed, gpu, FI);
                    reference.finishFrame(f.clear().setMainTimes(intended, vsync, completed, gpu, FI), expected);
                    // Faster than any display, but never a whole ring ahead of the drain thread,
                    // which does all the counting (the test's thread only waits).
                    while (tracker.pendingFrames() > FrameRing.DEFAULT_CAPACITY / 2) {
                        LockSupport.parkNanos(100_000);
                    }
                }
            } catch (Throwable e) {
                failure.set(e);
            }
        }, "renderer");
        renderer.start();
        renderer.join();
        assertNull(failure.get());
        Await.until(() -> tracker.pendingFrames() == 0, WAIT, "the drain thread empties the ring");
        assertEquals(0, session.droppedFrames());
        assertArrayEquals(expected.toArray(), snapshot(session).counters());
    }

    @Test
    void shouldApplyASceneSwitchOnlyToFramesRecordedAfterItEvenBeforeTheDrainRan() throws Exception {
        StatsSession session = open();
        WindowTracker tracker = session.newTracker();
        session.pauseDrain(true);
        long since = 5_000 * MS;
        long t = since;
        for (int i = 0; i < 5; i++, t += FI) {
            tracker.record(t, t, t + 5 * MS, t + 6 * MS, FI); // intended after the switch, recorded before it
        }
        tracker.setScene("menu", since);
        for (int i = 0; i < 3; i++, t += FI) {
            tracker.record(t, t, t + 5 * MS, t + 6 * MS, FI);
        }
        session.setDefaultScene("home", since);
        tracker.setScene(null);
        tracker.record(t, t, t + 5 * MS, t + 6 * MS, FI);
        session.flush();
        BufferSnapshot snap = snapshot(session);
        Map<String, long[]> scenes = SceneCounters.fromVector(snap.vector(), SceneCounters.names(snap));
        assertEquals(5, scenes.get("default")[0]);
        assertEquals(3, scenes.get("menu")[0]);
        assertEquals(1, scenes.get("home")[0]);
    }

    @Test
    void shouldCountTheRingOnCloseAndRejectFramesAfterIt() throws Exception {
        StatsSession session = open();
        WindowTracker tracker = session.newTracker();
        session.pauseDrain(true);
        long t = 1_000 * MS;
        for (int i = 0; i < 20; i++, t += FI) {
            tracker.record(t, t, t + 5 * MS, t + 6 * MS, FI);
        }
        tracker.close();
        assertEquals(20, total(session), "close counts what the ring held");
        long late = t;
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> tracker.record(late, late, late + 5 * MS, late + 6 * MS, FI));
        assertEquals("tracker closed", e.getMessage());

        WindowTracker second = session.newTracker();
        for (int i = 0; i < 7; i++, t += FI) {
            second.record(t, t, t + 5 * MS, t + 6 * MS, FI);
        }
        Path buffer = session.buffer().orElseThrow().path();
        session.close();
        try (BufferReader r = BufferReader.open(buffer, TestBuffers.uid())) {
            assertEquals(27, r.snapshot().totalFrames(), "session close counts the rings first");
        }
        long after = t;
        e = assertThrows(IllegalStateException.class,
                () -> second.record(after, after, after + 5 * MS, after + 6 * MS, FI));
        assertEquals("session closed", e.getMessage());
    }

    @Test
    void shouldCountFramesAndTheTimelineExactlyAcrossAHandoverWhileTheDrainRuns() throws Exception {
        // The drain thread writes the tracker's stripe and moves it at a handover; the timeline
        // counts on the recording thread into a stripe of its own, moved by that thread. A new
        // buffer arrives halfway (the old file moved away) while both count.
        DirectoryBufferProvider p = DirectoryBufferProvider.builder(dir).pollInterval(Duration.ofMillis(20)).build();
        toClose.add(p);
        StatsSession session = StatsSession.open(SessionOptions.builder("com.example.ring", 1)
                .retry(Duration.ofMillis(10), Duration.ofMillis(40)).daveyListener(DaveyListener.ignoring()).build(), p);
        toClose.add(session);
        assertTrue(session.awaitAttached(WAIT));
        BufferRef first = session.buffer().orElseThrow();
        WindowTracker tracker = session.newTracker();
        TimelineRecorder timeline = tracker.timeline();
        StripeWriter referenceStripe = StripeWriter.inMemory();
        TimelineRecorder referenceTimeline = new TimelineRecorder(Thresholds.ANDROID_16_LEGACY,
                referenceStripe::incrementTimeline, TimelineRecorder.DEFAULT_CAPACITY, 0);
        ProfileData expected = new ProfileData();
        ModernJankTracker reference = new ModernJankTracker(TrackerConfig.live(FI), DaveyListener.ignoring());
        SplittableRandom random = new SplittableRandom(3);
        FrameInfo f = new FrameInfo();
        TimelineFrame tf = new TimelineFrame();
        long intended = 1_000 * MS;
        int frames = 200_000;
        for (int i = 0; i < frames; i++) {
            if (i == frames / 2) {
                Files.move(first.path(), dir.resolve("moved-away"));
            }
            intended += FI;
            long completed = intended + FrameStream.drawDuration(random);
            long gpu = completed + random.nextLong(0, 6 * MS);
            tracker.record(intended, intended, completed, gpu, FI);
            reference.finishFrame(f.clear().setMainTimes(intended, intended, completed, gpu, FI), expected);
            long predicted = intended + 2 * FI;
            long present = predicted + (random.nextInt(8) == 0 ? FI : 0);
            for (TimelineRecorder t : new TimelineRecorder[] {timeline, referenceTimeline}) {
                t.commit(tf.token(i).predicted(intended, intended + FI, predicted).actual(intended, gpu));
                t.presented(i, present, FI, PresentationFeedback.KIND_VSYNC, 0);
            }
            while (tracker.pendingFrames() > FrameRing.DEFAULT_CAPACITY / 2) {
                LockSupport.parkNanos(100_000);
            }
            if (i == frames / 2) {
                Await.until(() -> session.buffer().map(b -> !b.equals(first)).orElse(false), WAIT,
                        "a new buffer arrived");
            }
        }
        tracker.close();
        BufferSnapshot snap = snapshot(session);
        assertNotEquals(first, session.buffer().orElseThrow());
        assertEquals(0, session.droppedFrames());
        assertArrayEquals(expected.toArray(), snap.counters());
        long[] timelineCounts = new long[TimelineCounter.COUNT];
        long[] referenceCounts = new long[TimelineCounter.COUNT];
        for (int c = 0; c < TimelineCounter.COUNT; c++) {
            timelineCounts[c] = snap.vector()[FrameTimelineGroup.vectorIndex(c)];
            referenceCounts[c] = referenceStripe.contributionOf(FrameTimelineGroup.vectorIndex(c));
        }
        assertTrue(referenceCounts[0] > 0, "the timeline counted frames");
        assertArrayEquals(referenceCounts, timelineCounts);
        referenceStripe.release();
    }
}
