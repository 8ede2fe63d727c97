package io.gfxstats.bench;

import io.gfxstats.buffer.FrameStream;
import io.gfxstats.dayfile.StatsProtos;
import io.gfxstats.frame.ModernJankTracker;
import io.gfxstats.proto.GraphicsStatsProto;
import io.gfxstats.stats.Pipeline;
import io.gfxstats.stats.ProfileData;
import io.gfxstats.store.DayStore;
import io.gfxstats.store.Days;
import io.gfxstats.store.EntryKey;
import io.gfxstats.store.FileStamp;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * Persisted day files for the benchmarks: {@code packagesPerDay} packages on each of the three
 * most recent UTC days (today and the two before), written through the real {@link DayStore}
 * with histograms from the frame tracker, so the daemon reads exactly what it would have saved.
 * Written once per size and copied (without fsync) for every daemon that needs a fresh copy.
 */
final class DayFileSet {
    static final int DAYS = 3;
    static final long VERSION = 1;

    private DayFileSet() {
    }

    static String packageName(int index) {
        return "com.bench.app" + index;
    }

    /** Writes {@code 3 * packagesPerDay} files under {@code dataDir}; returns their total bytes. */
    static long write(Path dataDir, int packagesPerDay, long today) throws IOException {
        return write(dataDir, packagesPerDay, today, DAYS);
    }

    /** Writes {@code packagesPerDay} files for each of {@code days} days ending today. */
    static long write(Path dataDir, int packagesPerDay, long today, int days) throws IOException {
        ProfileData[] samples = new ProfileData[16];
        for (int i = 0; i < samples.length; i++) {
            samples[i] = sample(i, 300 + 97 * i);
        }
        long bytes = 0;
        Clock clock = Clock.fixed(Instant.ofEpochMilli(today + 1000), ZoneOffset.UTC);
        try (DayStore store = DayStore.open(dataDir, clock)) {
            for (int d = 0; d < days; d++) {
                long day = today - d * Days.MILLIS_PER_DAY;
                for (int p = 0; p < packagesPerDay; p++) {
                    EntryKey key = new EntryKey(day, packageName(p), VERSION);
                    ProfileData data = samples[(p + d) % samples.length];
                    GraphicsStatsProto proto = StatsProtos.toProto(data, new StatsProtos.Source(key.packageName(),
                            VERSION, 10_000 + p, day + 60_000 + p, day + 3_600_000 + p));
                    store.write(key, proto, FileStamp.ABSENT);
                    bytes += Files.size(store.pathOf(key));
                }
            }
        }
        return bytes;
    }

    /** What a tracker counts for {@code frames} frames of a deterministic stream. */
    static ProfileData sample(long seed, int frames) {
        ProfileData data = new ProfileData(0, Pipeline.GL);
        ModernJankTracker tracker = FrameStream.tracker();
        FrameStream stream = new FrameStream(seed);
        for (int i = 0; i < frames; i++) {
            tracker.finishFrame(stream.next(), data);
        }
        return data;
    }

    /** A plain recursive copy (no fsync: a benchmark fixture, not data to keep). */
    static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> walk = Files.walk(from)) {
            for (Path p : walk.toList()) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
                    Files.createDirectories(target);
                } else if (!p.getFileName().toString().equals(".lock")) {
                    Files.copy(p, target, StandardCopyOption.COPY_ATTRIBUTES);
                }
            }
        }
    }

    static void deleteTree(Path root) {
        if (root == null || !Files.exists(root, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(root)) {
            List<Path> paths = walk.sorted(Comparator.reverseOrder()).toList();
            for (Path p : paths) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + root, e);
        }
    }
}
