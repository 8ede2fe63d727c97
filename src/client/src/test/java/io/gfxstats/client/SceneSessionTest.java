package io.gfxstats.client;

import io.gfxstats.buffer.BufferReader;
import io.gfxstats.buffer.BufferSnapshot;
import io.gfxstats.buffer.FrameStream;
import io.gfxstats.buffer.SceneGroup;
import io.gfxstats.buffer.TestBuffers;
import io.gfxstats.frame.DaveyListener;
import io.gfxstats.frame.FrameInfo;
import io.gfxstats.frame.ModernJankTracker;
import io.gfxstats.matrix.FrameMetric;
import io.gfxstats.matrix.MatrixLevels;
import io.gfxstats.matrix.MatrixRule;
import io.gfxstats.scene.SceneCounters;
import io.gfxstats.stats.Counters;
import io.gfxstats.stats.StatsSink;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.gfxstats.client.BufferRef;
import io.gfxstats.buffer.BufferFiles;
import io.gfxstats.buffer.BufferSpec;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicBoolean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.*;

class SceneSessionTest {
    private static final Duration WAIT = Duration.ofSeconds(10);

    @TempDir
    Path tmp;

    private final List<AutoCloseable> toClose = new ArrayList<>();

    @AfterEach
    void tearDown() throws Exception {
        for (int i = toClose.size() - 1; i >= 0; i--) {
            toClose.get(i).close();
        }
    }

    private StatsSession open(Path dir, SceneOptions scenes) throws IOException {
        DirectoryBufferProvider p = DirectoryBufferProvider.builder(dir).stripeCount(4)
                .pollInterval(Duration.ofMillis(20)).build();
        toClose.add(p);
        StatsSession session = StatsSession.open(SessionOptions.builder("com.example.scenes", 3)
                .retry(Duration.ofMillis(10), Duration.ofMillis(40)).daveyListener(DaveyListener.ignoring())
                .scenes(scenes).countWhenRingFull(true).build(), p);
        toClose.add(session);
        return session;
    }

    private static BufferSnapshot snapshot(StatsSession session) throws IOException {
        session.flush();
        try (BufferReader r = BufferReader.open(session.buffer().orElseThrow().path(), TestBuffers.uid())) {
            return r.snapshot();
        }
    }

    /** The expected counts: every increment of the rules, by the scene the test says the frame belongs to. */
    private static final class Expected implements StatsSink {
        final Map<String, long[]> scenes = new HashMap<>();
        long total;
        String scene;

        long[] of(String name) {
            return scenes.computeIfAbsent(name, k -> new long[SceneCounters.LENGTH]);
        }

        @Override
        public void increment(int counter) {
            if (counter == Counters.TOTAL_FRAMES) {
                total++;
            }
            if (counter < SceneGroup.MIRRORED) {
                of(scene)[counter]++;
            }
        }

        void matrix(FrameInfo f) {
            long t = FrameMetric.total(f);
            if (!MatrixRule.frameMetricsValid(f) || t <= 0) {
                return;
            }
            float r = MatrixRule.refreshHz(f.get(FrameInfo.FRAME_INTERVAL), 0f);
            int d = MatrixRule.droppedFrames21(t, r);
            int level = MatrixLevels.DEFAULT.level(d);
            long[] v = of(scene);
            v[SceneGroup.MATRIX_FRAMES]++;
            v[SceneGroup.LEVEL_COUNT_BASE + level]++;
            v[SceneGroup.LEVEL_SUM_BASE + level] += MatrixRule.sumContribution(d);
            v[SceneCounters.SUM_BASE + SceneGroup.STAGE_BASE + FrameMetric.TOTAL] += t;
        }
    }

    @Test
    void shouldAttributeByIntendedVsyncAndKeepSceneCountsBeforeAttachAndAcrossHandover() throws Exception {
        Path dir = tmp.resolve("buffers");
        StatsSession session = open(dir, SceneOptions.DEFAULT);
        WindowTracker tracker = session.newTracker(FrameStream.tracker());
        WindowTracker background = session.newTracker(FrameStream.tracker());
        ModernJankTracker rules = FrameStream.tracker();
        ModernJankTracker backgroundRules = FrameStream.tracker();
        Expected expected = new Expected();
        FrameStream stream = new FrameStream(5);
        FrameStream backgroundStream = new FrameStream(6);
        String[] names = {"menu", "level-1", "level-2"};
        FrameInfo pending = copy(stream.next());
        int straddled = 0;
        List<BufferRef> buffers = new ArrayList<>();
        for (int i = 0; i < 6_000; i++) {
            if (i == 1_500) {
                Files.createDirectory(dir);
                assertTrue(session.awaitAttached(WAIT));
                buffers.add(session.buffer().orElseThrow());
            }
            if (i == 3_000 || i == 4_500) {
                BufferRef current = session.buffer().orElseThrow();
                Files.move(current.path(), tmp.resolve("old-" + i));
                long deadline = System.nanoTime() + WAIT.toNanos();
                while (session.buffer().orElseThrow().equals(current)) {
                    assertTrue(System.nanoTime() < deadline, "no new buffer");
                    Thread.sleep(2);
                }
                buffers.add(session.buffer().orElseThrow());
            }
            FrameInfo next = copy(stream.next());
            String sceneOfPending = expected.scene == null ? SceneOptions.DEFAULT_SCENE : expected.scene;
            if (i % 400 == 399) {
                // The switch takes effect from the next frame's intended vsync: the pending frame,
                // intended earlier, is recorded after the switch but belongs to the scene before it.
                String scene = names[(i / 400) % names.length];
                tracker.setScene(scene, next.get(FrameInfo.INTENDED_VSYNC));
                expected.scene = sceneOfPending;
                record(tracker, rules, pending, expected);
                expected.scene = scene;
                straddled++;
            } else {
                expected.scene = sceneOfPending;
                record(tracker, rules, pending, expected);
            }
            pending = next;
            String saved = expected.scene;
            expected.scene = SceneOptions.DEFAULT_SCENE;
            record(background, backgroundRules, backgroundStream.next(), expected);
            expected.scene = saved;
        }
        assertTrue(straddled > 10);
        tracker.close();
        background.close();
        BufferSnapshot snap = snapshot(session);
        assertEquals(3, buffers.size());
        Map<String, long[]> scenes = SceneCounters.fromVector(snap.vector(), SceneCounters.names(snap));
        assertEquals(expected.scenes.keySet(), scenes.keySet());
        long sum = 0;
        for (Map.Entry<String, long[]> e : expected.scenes.entrySet()) {
            long[] got = scenes.get(e.getKey());
            for (int f = 0; f < SceneGroup.MIRRORED; f++) {
                assertEquals(e.getValue()[f], got[f], e.getKey() + " counter " + f);
            }
            assertEquals(e.getValue()[SceneGroup.MATRIX_FRAMES], got[SceneGroup.MATRIX_FRAMES], e.getKey());
            for (int l = 0; l < SceneGroup.LEVELS; l++) {
                assertEquals(e.getValue()[SceneGroup.LEVEL_COUNT_BASE + l], got[SceneGroup.LEVEL_COUNT_BASE + l]);
                assertEquals(e.getValue()[SceneGroup.LEVEL_SUM_BASE + l], got[SceneGroup.LEVEL_SUM_BASE + l]);
            }
            int totalStage = SceneCounters.SUM_BASE + SceneGroup.STAGE_BASE + FrameMetric.TOTAL;
            assertEquals(e.getValue()[totalStage], got[totalStage], e.getKey() + " 64-bit sums handed over");
            sum += got[Counters.TOTAL_FRAMES];
        }
        assertEquals(expected.total, snap.totalFrames());
        assertEquals(snap.totalFrames(), sum, "the scenes add up to the package's frames");
        assertTrue(scenes.get("level-2")[SceneGroup.LEVEL_COUNT_BASE + MatrixRule.FROZEN] > 0
                || scenes.get("menu")[SceneGroup.LEVEL_COUNT_BASE + MatrixRule.FROZEN] > 0, "the stream has freezes");
    }

    @Test
    void shouldSayOnceThatScenesAreNotCountedInABufferWhoseSceneGroupIsVersion1() throws Exception {
        // A gfxstatsd of the previous release hands out buffers with the scene group in version 1.
        Path file = tmp.resolve("v1-buffer");
        AtomicBoolean daemonUp = new AtomicBoolean();
        BufferProvider oldDaemon = (request, onEnded) -> {
            if (!daemonUp.get()) {
                throw new IOException("no daemon yet");
            }
            BufferFiles.create(file, BufferSpec.builder().pid(ProcessHandle.current().pid()).uid(TestBuffers.uid())
                    .packageName(request.packageName()).versionCode(request.versionCode()).registrationId("r1")
                    .pipeline(request.pipeline()).stripeCount(4).groups(TestBuffers.previousReleaseGroups())
                    .build(), BufferFiles.OWNER_READ_WRITE);
            return new Attachment() {
                @Override
                public Path bufferPath() {
                    return file;
                }

                @Override
                public String registrationId() {
                    return "r1";
                }

                @Override
                public boolean adopted() {
                    return false;
                }

                @Override
                public void close() {
                }
            };
        };
        PrintStream err = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            StatsSession session = StatsSession.open(SessionOptions.builder("com.example.old", 3)
                    .retry(Duration.ofMillis(10), Duration.ofMillis(40)).daveyListener(DaveyListener.ignoring())
                    .scenes(SceneOptions.DEFAULT).countWhenRingFull(true).build(), oldDaemon);
            toClose.add(session);
            WindowTracker tracker = session.newTracker(FrameStream.tracker());
            ModernJankTracker rules = FrameStream.tracker();
            Expected expected = new Expected();
            expected.scene = "menu";
            FrameStream stream = new FrameStream(7);
            tracker.setScene("menu");
            for (int i = 0; i < 2_000; i++) {
                if (i == 700) {
                    daemonUp.set(true);
                    assertTrue(session.awaitAttached(WAIT));
                }
                record(tracker, rules, stream.next(), expected);
            }
            tracker.close();
            BufferSnapshot snap = snapshot(session);
            long[] vector = snap.vector();
            for (int c = 0; c < SceneGroup.MIRRORED; c++) {
                assertEquals(expected.of("menu")[c], vector[c], "Android counter " + c);
            }
            assertEquals(expected.total, snap.totalFrames());
            Map<String, long[]> scenes = SceneCounters.fromVector(vector, SceneCounters.names(snap));
            for (long[] scene : scenes.values()) {
                assertEquals(0, scene[Counters.TOTAL_FRAMES], "nothing is written into a version 1 scene group");
            }
        } finally {
            System.setErr(err);
        }
        String log = captured.toString(StandardCharsets.UTF_8);
        String line = "scenes of com.example.old are not counted in " + file
                + ": its scene group is version 1 (a gfxstatsd of an earlier release made it), this client writes "
                + "version 2; update gfxstatsd";
        assertEquals(1, log.split(java.util.regex.Pattern.quote(line), -1).length - 1, log);
    }

    private static FrameInfo copy(FrameInfo f) {
        FrameInfo c = new FrameInfo();
        for (int i = 0; i < FrameInfo.FIELD_COUNT; i++) {
            c.set(i, f.get(i));
        }
        return c;
    }

    private static void record(WindowTracker tracker, ModernJankTracker rules, FrameInfo frame, Expected expected) {
        tracker.record(frame);
        rules.finishFrame(frame, expected);
        expected.matrix(frame);
    }

    @Test
    void shouldSendScenesBeyondTheLimitToOtherAndFollowTheSessionDefault() throws Exception {
        Path dir = tmp.resolve("buffers");
        Files.createDirectory(dir);
        StatsSession session = open(dir, SceneOptions.DEFAULT.withMaxScenes(2).withDefaultScene("home"));
        assertTrue(session.awaitAttached(WAIT));
        WindowTracker tracker = session.newTracker();
        long t = 1_000_000_000L;
        long ms = 1_000_000L;
        for (String scene : new String[] {null, "a", "b", "c", "d", null}) {
            tracker.setScene(scene, t);
            tracker.record(t, t, t + 10 * ms, t + 12 * ms, 16_666_667L);
            t += 20 * ms;
        }
        session.setDefaultScene("b", t);
        tracker.record(t, t, t + 100 * ms, t + 101 * ms, 16_666_667L);
        BufferSnapshot snap = snapshot(session);
        Map<String, long[]> scenes = SceneCounters.fromVector(snap.vector(), SceneCounters.names(snap));
        assertEquals(2, scenes.get("home")[0], "the default scene takes a slot of its own");
        assertEquals(1, scenes.get("a")[0]);
        assertEquals(4, scenes.get("(other)")[0], "names beyond scenes.max (home and a), also as the default");
        assertFalse(scenes.containsKey("b"));
        assertEquals(7, snap.totalFrames());
        long[] big = scenes.get("(other)");
        assertEquals(1, big[SceneGroup.LEVEL_COUNT_BASE + MatrixRule.NORMAL], "100 ms at 60 Hz: 5 dropped, NORMAL");
        assertEquals(5, big[SceneGroup.LEVEL_SUM_BASE + MatrixRule.NORMAL]);
        assertEquals(100_000_000L + 3 * 16_666_667L, big[SceneCounters.SUM_BASE + SceneGroup.COST_NANOS], 2,
                "sum of max(T, I)");
    }

    @Test
    void shouldCountNothingPerSceneWhenScenesAreDisabled() throws Exception {
        Path dir = tmp.resolve("buffers");
        Files.createDirectory(dir);
        StatsSession session = open(dir, SceneOptions.DISABLED);
        assertTrue(session.awaitAttached(WAIT));
        WindowTracker tracker = session.newTracker();
        tracker.setScene("menu");
        FrameStream stream = new FrameStream(3);
        for (int i = 0; i < 500; i++) {
            tracker.record(stream.next());
        }
        BufferSnapshot snap = snapshot(session);
        assertTrue(snap.totalFrames() > 0);
        assertTrue(SceneCounters.fromVector(snap.vector(), SceneCounters.names(snap)).isEmpty());
    }

    @Test
    void shouldNotAllocatePerFrameWithScenesAndMatrixLevelsOn() throws Exception {
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        Path dir = tmp.resolve("buffers");
        Files.createDirectory(dir);
        StatsSession session = open(dir, SceneOptions.DEFAULT);
        assertTrue(session.awaitAttached(WAIT));
        WindowTracker tracker = session.newTracker(FrameStream.tracker());
        tracker.setScene("menu");
        tracker.setScene("game", 0);
        FrameInfo[] frames = new FrameInfo[1024];
        FrameStream stream = new FrameStream(9);
        for (int i = 0; i < frames.length; i++) {
            FrameInfo f = copy(stream.next());
            if (f.get(FrameInfo.FRAME_COMPLETED) - f.get(FrameInfo.INTENDED_VSYNC) >= 700_000_000L) {
                f.set(FrameInfo.FRAME_COMPLETED, f.get(FrameInfo.INTENDED_VSYNC) + 30_000_000L); // no Davey log
            }
            frames[i] = f;
        }
        long[] bytes = new long[2];
        for (int round = 0; round < 4; round++) {
            long before = threads.getCurrentThreadAllocatedBytes();
            for (int i = 0; i < 100_000; i++) {
                tracker.record(frames[i & 1023]);
            }
            long middle = threads.getCurrentThreadAllocatedBytes();
            for (int i = 0; i < 100_000; i++) {
                long t = 1_000_000_000L + i * 16_666_667L;
                tracker.record(t, t, t + 5_000_000L + (i % 40) * 1_000_000L, t + 20_000_000L, 16_666_667L);
            }
            bytes[0] = middle - before;
            bytes[1] = threads.getCurrentThreadAllocatedBytes() - middle;
        }
        assertTrue(bytes[0] < 4096 && bytes[1] < 4096, "bytes allocated for 100k frames (FrameInfo, times): "
                + bytes[0] + ", " + bytes[1]);
        BufferSnapshot snap = snapshot(session);
        assertTrue(SceneCounters.fromVector(snap.vector(), SceneCounters.names(snap)).get("game")[
                SceneGroup.MATRIX_FRAMES] > 100_000, "the frames went to the scene 'game'");
    }
}
