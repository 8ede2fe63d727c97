package io.gfxstats.client;

import io.gfxstats.buffer.BufferReader;
import io.gfxstats.buffer.FrameStream;
import io.gfxstats.buffer.TestBuffers;
import io.gfxstats.frame.DaveyListener;

import java.nio.file.Path;
import java.time.Duration;

/**
 * Child process: {@code <bufferDir> <seed> <frames>}. Opens a session on a directory provider,
 * records the frames once attached, prints "recorded" once it has published a heartbeat, and then
 * waits to be killed. With a fourth argument {@code exit}: once attached, stops the session's drain
 * thread, records the frames (they stay in the tracker's ring) and exits with status 0 without
 * closing anything, so only the JVM's shutdown hook can count them.
 */
public final class ClientProcess {
    private ClientProcess() {
    }

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        long seed = Long.parseLong(args[1]);
        int frames = Integer.parseInt(args[2]);
        DirectoryBufferProvider provider = DirectoryBufferProvider.create(dir);
        StatsSession session = StatsSession.open(SessionOptions.builder("com.example.killed", 5)
                .daveyListener(DaveyListener.ignoring()).heartbeatInterval(Duration.ofMillis(100))
                .countWhenRingFull(true).build(), provider);
        WindowTracker tracker = session.newTracker(FrameStream.tracker());
        FrameStream stream = new FrameStream(seed);
        if (args.length > 3 && args[3].equals("exit")) {
            if (!session.awaitAttached(Duration.ofSeconds(10))) {
                System.exit(4);
            }
            session.pauseDrain(true);
            for (int i = 0; i < frames; i++) {
                tracker.record(stream.next());
            }
            System.exit(tracker.pendingFrames() == frames ? 0 : 6);
        }
        for (int i = 0; i < frames / 2; i++) {
            tracker.record(stream.next());
        }
        if (!session.awaitAttached(Duration.ofSeconds(10))) {
            System.exit(4);
        }
        for (int i = frames / 2; i < frames; i++) {
            tracker.record(stream.next());
        }
        // A SIGKILL loses what the ring still holds (at most the drain period's frames): wait
        // until the drain thread has counted everything into the mapped file.
        while (tracker.pendingFrames() > 0) {
            Thread.sleep(1);
        }
        awaitHeartbeat(session.buffer().orElseThrow().path());
        System.out.println("recorded");
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE);
    }

    /** Until the session has published a heartbeat into its buffer, so a SIGKILL leaves one behind. */
    private static void awaitHeartbeat(Path buffer) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        try (BufferReader reader = BufferReader.open(buffer, TestBuffers.uid())) {
            while (reader.snapshot().heartbeatMillis() <= 0) {
                if (System.nanoTime() - deadline > 0) {
                    System.exit(5);
                }
                Thread.sleep(10);
            }
        }
    }
}
