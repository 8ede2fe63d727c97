package io.gfxstats.replay;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gfxstats.buffer.BufferReader;
import io.gfxstats.buffer.BufferSnapshot;
import io.gfxstats.buffer.TestBuffers;
import io.gfxstats.client.AttachRequest;
import io.gfxstats.client.Attachment;
import io.gfxstats.client.AttachmentListener;
import io.gfxstats.client.BufferProvider;
import io.gfxstats.client.DirectoryBufferProvider;
import io.gfxstats.framestats.FramestatsBlock;
import io.gfxstats.framestats.FramestatsReader;
import io.gfxstats.framestats.FramestatsReplay;
import io.gfxstats.stats.Counters;
import io.gfxstats.stats.JankType;
import io.gfxstats.stats.Pipeline;
import io.gfxstats.testing.TestData;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link Replay} in process with the standalone buffer provider: the session's buffer must hold
 * every counter of the offline replay, the legacy ones included (the daemon drops those only
 * when it dumps).
 */
class ReplayTest {
    static final Path CAPTURE = TestData.androidGfxinfo("aNavMode-gfxinfo-framestats.txt");
    static final long REFRESH = FramestatsReplay.DEFAULT_REFRESH_INTERVAL_NANOS;

    static List<FramestatsBlock> blocks;
    static long[] offline;

    @TempDir
    Path dir;

    private final List<String> notes = new CopyOnWriteArrayList<>();
    private final ByteArrayOutputStream progress = new ByteArrayOutputStream();

    @BeforeAll
    static void replayOffline() throws Exception {
        blocks = FramestatsReader.read(CAPTURE);
        offline = new long[Counters.COUNT];
        for (FramestatsBlock b : blocks) {
            long[] window = FramestatsReplay.replay(b, REFRESH).toArray();
            for (int c = 0; c < Counters.COUNT; c++) {
                offline[c] += window[c];
            }
        }
        assertTrue(offline[Counters.JANKY_FRAMES_LEGACY] > 0 && offline[JankType.MISSED_DEADLINE_LEGACY.counter()] > 0,
                "the capture exercises the legacy accounting");
    }

    private ObservedProvider observed(BufferProvider provider) {
        return new ObservedProvider(provider, "test provider", notes::add);
    }

    private ProgressReporter progress() {
        return ProgressReporter.standard(new PrintStream(progress, true, StandardCharsets.UTF_8));
    }

    private static BufferSnapshot snapshot(Path file) throws IOException {
        try (BufferReader reader = BufferReader.open(file, TestBuffers.uid())) {
            return reader.snapshot();
        }
    }

    @Test
    void shouldCountEveryOfflineCounterIntoTheBufferIncludingTheLegacyOnes() throws Exception {
        try (DirectoryBufferProvider provider = DirectoryBufferProvider.create(dir)) {
            Replay.Outcome outcome = new Replay(ReplayOptions.of("com.example.replay", 3))
                    .run(new CaptureReplay(blocks, REFRESH), observed(provider), progress(), notes::add);
            assertTrue(outcome.delivered());
            assertEquals(offline[Counters.TOTAL_FRAMES], outcome.frames());
            assertEquals(13, outcome.windows());
            BufferSnapshot s = snapshot(outcome.buffer().orElseThrow().path());
            assertArrayEquals(offline, s.counters());
            assertEquals(Pipeline.GL, s.pipeline());
            assertEquals("com.example.replay", s.packageName());
            assertEquals(3, s.versionCode());
        }
        assertTrue(notes.isEmpty(), notes.toString());
        List<String> lines = progress.toString(StandardCharsets.UTF_8).lines().toList();
        assertEquals("recorded " + offline[Counters.TOTAL_FRAMES] + " frames", lines.get(lines.size() - 1));
    }

    @Test
    void shouldCountEveryFrameOnceWhenTheProviderEndsTheAttachmentMidReplay() throws Exception {
        try (DirectoryBufferProvider provider = DirectoryBufferProvider.create(dir)) {
            ReplayOptions options = new ReplayOptions("com.example.replay", 3, REFRESH, 4000, Duration.ofSeconds(10));
            Thread restarts = new Thread(() -> {
                try {
                    for (int i = 0; i < 3; i++) {
                        Thread.sleep(60);
                        provider.requestReattach();
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            restarts.start();
            Replay.Outcome outcome = new Replay(options)
                    .run(new CaptureReplay(blocks, REFRESH), observed(provider), progress(), notes::add);
            restarts.join();
            assertTrue(outcome.delivered());
            assertArrayEquals(offline, snapshot(outcome.buffer().orElseThrow().path()).counters());
        }
        assertTrue(notes.stream().anyMatch(n -> n.startsWith("lost the daemon at test provider")), notes.toString());
        assertTrue(notes.stream().anyMatch(n -> n.startsWith("registered with the daemon at test provider; it adopted")),
                notes.toString());
    }

    @Test
    void shouldReportNothingDeliveredWhenNoProviderEverAnswers() throws Exception {
        BufferProvider down = new BufferProvider() {
            @Override
            public Attachment attach(AttachRequest request, AttachmentListener onEnded) throws IOException {
                throw new IOException("daemon not running");
            }
        };
        ReplayOptions options = new ReplayOptions("com.example.replay", 3, REFRESH, 0, Duration.ofMillis(1500));
        ObservedProvider provider = observed(down);
        Replay.Outcome outcome = new Replay(options).run(new CaptureReplay(blocks, REFRESH), provider, progress(),
                notes::add);
        assertFalse(outcome.delivered());
        assertTrue(outcome.buffer().isEmpty());
        assertEquals("daemon not running", outcome.problem().orElseThrow());
        assertEquals(1, notes.stream().filter(n -> n.startsWith("cannot register")).count(),
                "one note however many retries: " + notes);
        assertTrue(notes.stream().anyMatch(n -> n.contains("waiting up to 0.5 s more")), notes.toString());
    }
}
