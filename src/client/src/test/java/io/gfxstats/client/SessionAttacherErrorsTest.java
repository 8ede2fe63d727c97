package io.gfxstats.client;

import io.gfxstats.buffer.BufferReader;
import io.gfxstats.buffer.FrameStream;
import io.gfxstats.buffer.TestBuffers;
import io.gfxstats.frame.DaveyListener;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What goes wrong while attaching is said as what it is. An Error thrown while attaching - what a
 * library does when the JVM lacks something it needs, as chronicle-bytes once did without its JVM
 * options - must not end the session's retries: the frames counted so far stay, and the next
 * attempt attaches them. A session closed while its provider is still registering (a command's
 * attach timeout on a loaded machine) was refused by nobody.
 */
class SessionAttacherErrorsTest {
    private static final Duration WAIT = Duration.ofSeconds(10);

    @Test
    void shouldKeepFramesAndRetryAfterAnErrorInsideTheProcess(@TempDir Path dir) throws Exception {
        AtomicInteger attempts = new AtomicInteger();
        try (DirectoryBufferProvider real = DirectoryBufferProvider.builder(dir).pollInterval(Duration.ofMillis(20)).build()) {
            BufferProvider failingFirst = (request, onEnded) -> {
                if (attempts.incrementAndGet() <= 2) {
                    throw new AssertionError("a library's own assertion, as chronicle-bytes threw without its JVM options");
                }
                return real.attach(request, onEnded);
            };
            try (StatsSession session = StatsSession.open(SessionOptions.builder("com.example.errors", 1)
                    .retry(Duration.ofMillis(10), Duration.ofMillis(40)).daveyListener(DaveyListener.ignoring())
                    .countWhenRingFull(true).build(),
                    failingFirst)) {
                FrameStream frames = new FrameStream(5);
                try (WindowTracker tracker = session.newTracker()) {
                    for (int i = 0; i < 5; i++) {
                        tracker.record(frames.next());
                    }
                    assertTrue(session.awaitAttached(WAIT), "attached after the errors");
                    assertTrue(attempts.get() >= 3, "retried: " + attempts.get());
                    tracker.record(frames.next());
                }
                try (BufferReader r = BufferReader.open(session.buffer().orElseThrow().path(), TestBuffers.uid())) {
                    assertEquals(FrameStream.expected(5, 6).totalFrames(), r.snapshot().totalFrames());
                }
            }
        }
    }

    @Test
    void shouldNotCallACloseDuringRegistrationARefusal() throws Exception {
        CountDownLatch registering = new CountDownLatch(1);
        // As the daemon's provider does: its registration call, interrupted, ends in a permanent error.
        BufferProvider slowDaemon = (request, onEnded) -> {
            registering.countDown();
            try {
                Thread.sleep(TimeUnit.MINUTES.toMillis(5));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AttachRefusedException("interrupted while registering", e);
            }
            throw new AssertionError("the session was not closed");
        };
        PrintStream err = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            StatsSession session = StatsSession.open(SessionOptions.builder("com.example.closing", 1)
                    .daveyListener(DaveyListener.ignoring()).build(), slowDaemon);
            assertTrue(registering.await(WAIT.toSeconds(), TimeUnit.SECONDS), "the provider was asked");
            session.close();
            assertFalse(session.isAttached());
        } finally {
            System.setErr(err);
        }
        String log = captured.toString(StandardCharsets.UTF_8);
        assertFalse(log.contains("refused"), log);
        assertFalse(log.contains("retrying"), log);
    }
}
