package io.gfxstats.bench;

import io.gfxstats.client.DirectoryBufferProvider;
import io.gfxstats.client.SceneOptions;
import io.gfxstats.client.SessionOptions;
import io.gfxstats.client.StatsSession;
import io.gfxstats.frame.DaveyListener;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.stream.Stream;

/**
 * A client session attached to a real buffer file in a temporary directory (standalone directory
 * provider), for the client benchmarks; closing it deletes the directory. Daveys (frames of 700 ms
 * or more, 0.3 % of the benchmark stream) would each log a line, a diagnostic outside the counting
 * cost compared, so the session ignores them.
 */
final class BenchSession implements AutoCloseable {
    private final Path dir;
    private final DirectoryBufferProvider provider;
    final StatsSession session;

    BenchSession(SceneOptions scenes) throws IOException, InterruptedException {
        this(scenes, false);
    }

    /**
     * With {@code countOnRecordingThread}, a full ring is counted by the recording thread itself
     * (SessionOptions.countWhenRingFull): a benchmark that records flat out then measures the
     * whole path, append and counting, on its own thread.
     */
    BenchSession(SceneOptions scenes, boolean countOnRecordingThread) throws IOException, InterruptedException {
        dir = Files.createTempDirectory("gfxstats-bench");
        provider = DirectoryBufferProvider.create(dir);
        session = StatsSession.open(SessionOptions.builder("io.gfxstats.bench", 1)
                .daveyListener(DaveyListener.ignoring()).scenes(scenes)
                .countWhenRingFull(countOnRecordingThread).build(), provider);
        if (!session.awaitAttached(Duration.ofSeconds(10))) {
            close();
            throw new IllegalStateException("no buffer attached");
        }
    }

    @Override
    public void close() throws IOException {
        session.close();
        provider.close();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path p : files.toList()) {
                Files.delete(p);
            }
        }
        Files.delete(dir);
    }
}
