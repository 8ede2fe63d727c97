package io.gfxstats.store;

import io.gfxstats.dayfile.DayFileCodec;
import io.gfxstats.dayfile.StatsProtos;
import io.gfxstats.proto.GraphicsStatsProto;
import io.gfxstats.stats.Counters;
import io.gfxstats.stats.Pipeline;
import io.gfxstats.stats.ProfileData;
import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** Shared builders for store tests: real protos in Android's format, a fixed clock, tree listings. */
final class StoreFixtures {
    /** 2023-11-15T00:00:00Z. */
    static final long DAY = 1_700_006_400_000L;
    static final long NOW = DAY + 12 * 3_600_000L;
    static final Clock CLOCK = Clock.fixed(Instant.ofEpochMilli(NOW), ZoneOffset.UTC);

    private StoreFixtures() {
    }

    static GraphicsStatsProto proto(EntryKey key, int frames) {
        ProfileData data = new ProfileData(key.dayStart() + 1_000, Pipeline.GL);
        data.add(Counters.TOTAL_FRAMES, frames);
        data.add(Counters.JANKY_FRAMES, frames / 10);
        data.add(Counters.cpuBucket(3), frames);
        data.add(Counters.gpuBucket(2), frames);
        return StatsProtos.toProto(data, new StatsProtos.Source(key.packageName(), key.versionCode(), 10_123,
                key.dayStart() + 1_000, key.dayStart() + 2_000 + frames));
    }

    static byte[] encoded(EntryKey key, int frames) {
        return DayFileCodec.encode(proto(key, frames));
    }

    /** Every path under {@code root}, relative, sorted; links are listed, not followed. */
    static List<String> tree(Path root) throws IOException {
        List<String> out = new ArrayList<>();
        Files.walkFileTree(root, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
                if (!dir.equals(root)) {
                    out.add(root.relativize(dir) + "/");
                }
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                out.add(root.relativize(file) + (attrs.isSymbolicLink() ? "@" : ""));
                return FileVisitResult.CONTINUE;
            }
        });
        Collections.sort(out);
        return out;
    }

    /** The path of an entry's total, created by hand (for planting bad files). */
    static Path plant(Path root, EntryKey key, byte[] content) throws IOException {
        Path dir = root.resolve(Long.toString(key.dayStart())).resolve(key.packageName())
                .resolve(Long.toString(key.versionCode()));
        Files.createDirectories(dir);
        return Files.write(dir.resolve("total"), content);
    }
}
