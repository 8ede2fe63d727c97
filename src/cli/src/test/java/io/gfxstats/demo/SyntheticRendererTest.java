package io.gfxstats.demo;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gfxstats.buffer.BufferReader;
import io.gfxstats.buffer.TestBuffers;
import io.gfxstats.client.DaemonBufferProvider;
import io.gfxstats.client.DirectoryBufferProvider;
import io.gfxstats.frame.FrameInfo;
import io.gfxstats.stats.ProfileData;
import io.gfxstats.testing.Await;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The renderer against a real session on a directory of buffer files (no daemon needed). */
class SyntheticRendererTest {
    @TempDir
    Path tmp;

    private DirectoryBufferProvider provider;
    private final ByteArrayOutputStream output = new ByteArrayOutputStream();
    private final PrintStream out = new PrintStream(output, true, StandardCharsets.UTF_8);

    @AfterEach
    void tearDown() {
        if (provider != null) {
            provider.close();
        }
    }

    private DirectoryBufferProvider provider() throws IOException {
        Files.createDirectories(tmp.resolve("buffers"));
        provider = DirectoryBufferProvider.builder(tmp.resolve("buffers")).pollInterval(Duration.ofMillis(20)).build();
        return provider;
    }

    private static SynthOptions options(Duration duration, long seed) {
        return new SynthOptions("com.example.synth", 4, duration, 60, JankProfile.JANKY, seed,
                Path.of("/nonexistent/gfxstatsd.sock"), Duration.ofSeconds(5));
    }

    /** A clock that only moves when slept on, and always wakes 3 ms late. */
    private static final class LatePacer implements Pacer {
        static final long OVERSHOOT = 3_000_000L;
        final List<Long> targets = new ArrayList<>();
        long now = 50_000_000_000L;

        @Override
        public long nanoTime() {
            return now;
        }

        @Override
        public void sleepUntil(long deadlineNanos) {
            targets.add(deadlineNanos);
            now = Math.max(now, deadlineNanos) + OVERSHOOT;
        }
    }

    private ProfileData bufferContents() throws IOException {
        Path file;
        try (Stream<Path> files = Files.list(tmp.resolve("buffers"))) {
            file = files.filter(p -> p.toString().endsWith(DirectoryBufferProvider.SUFFIX)).findFirst().orElseThrow();
        }
        try (BufferReader reader = BufferReader.open(file, TestBuffers.uid())) {
            return reader.snapshot().toProfileData();
        }
    }

    @Test
    void shouldRecordEachFrameAtItsOwnTimeWithoutDrift() throws Exception {
        SynthOptions options = options(Duration.ofSeconds(3), 21);
        LatePacer pacer = new LatePacer();
        long origin = pacer.now;

        SyntheticRenderer.Result result = new SyntheticRenderer(options, provider(), pacer, out).run();

        // Late wake-ups never shift the schedule: every wait is for the frame's own end time.
        SyntheticFrames reference = new SyntheticFrames(options.profile(), options.intervalNanos(), options.seed(),
                origin, options.duration().toNanos());
        FrameInfo f = new FrameInfo();
        List<Long> expected = new ArrayList<>();
        while (reference.next(f)) {
            expected.add(reference.readyAtNanos());
        }
        assertEquals(expected, pacer.targets);
        assertEquals(expected.size(), result.frames());
        assertEquals(SyntheticRenderer.simulate(options), result.stats());
        assertArrayEquals(result.stats().toArray(), bufferContents().toArray(), "the buffer holds every frame");

        String text = output.toString(StandardCharsets.UTF_8);
        assertTrue(text.startsWith("synth com.example.synth 4: janky profile, 60 fps, 3 s, seed 21\n"), text);
        assertTrue(text.contains("\nrecorded " + result.frames() + " frames\ndone: " + result.frames() + " frames, "),
                text);
        long progressLines = text.lines().filter(l -> l.startsWith("recorded ")).count();
        assertTrue(progressLines >= 3 && progressLines <= 4, "about one progress line a second:\n" + text);
    }

    @Test
    void shouldStopEarlyAndKeepEverythingRecorded() throws Exception {
        SyntheticRenderer renderer = new SyntheticRenderer(options(Duration.ofMinutes(10), 3), provider(),
                Pacer.system(), out);
        AtomicReference<SyntheticRenderer.Result> result = new AtomicReference<>();
        Thread thread = new Thread(() -> {
            try {
                result.set(renderer.run());
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        });
        thread.start();
        Await.until(() -> output.toString(StandardCharsets.UTF_8).contains("recorded "), Duration.ofSeconds(60),
                () -> "a frame recorded; output: " + output.toString(StandardCharsets.UTF_8));
        renderer.stop();
        assertTrue(renderer.awaitFinished(Duration.ofSeconds(10)));
        thread.join();

        SyntheticRenderer.Result r = result.get();
        assertTrue(r.stopped());
        assertTrue(r.frames() > 0 && r.frames() < 600, r.frames() + " frames");
        assertArrayEquals(r.stats().toArray(), bufferContents().toArray());
        assertTrue(output.toString(StandardCharsets.UTF_8).contains("\nstopped: " + r.frames() + " frames, "));
    }

    @Test
    void shouldRefuseToRenderWhenNoDaemonAnswers() {
        SynthOptions options = new SynthOptions("com.example.synth", 4, Duration.ofSeconds(1), 60, JankProfile.SMOOTH,
                1, tmp.resolve("missing.sock"), Duration.ofMillis(300));
        SyntheticRenderer renderer = new SyntheticRenderer(options, new DaemonBufferProvider(options.socket()),
                Pacer.system(), out);
        SyntheticRenderer.DaemonUnavailableException e =
                assertThrows(SyntheticRenderer.DaemonUnavailableException.class, renderer::run);
        assertTrue(e.getMessage().contains(tmp.resolve("missing.sock").toString()), e.getMessage());
        assertEquals("", output.toString(StandardCharsets.UTF_8));
    }
}
