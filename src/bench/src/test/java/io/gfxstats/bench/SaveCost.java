package io.gfxstats.bench;

import io.gfxstats.daemon.Daemon;
import io.gfxstats.daemon.harvest.Harvester;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Cost of a flush that saves every live buffer ({@link Daemon#flush()}: snapshot, read-merge of
 * each day file, atomic replace with fsync of file and directory), against the raw peer measured
 * in the same run on the same file system: writing the same number of files of the same sizes
 * with the same atomic recipe (temp file, write, fsync, rename, fsync directory) and nothing else.
 */
final class SaveCost {
    record Result(int buffers, int files, long frames, long bytesWritten, double flushMs, double peerMs,
                  double idleFlushMs) {
        double ratio() {
            return flushMs / peerMs;
        }
    }

    private SaveCost() {
    }

    static Result measure(Daemon daemon, DriverBuffers live, Path dataDir, Path scratch, int repeats)
            throws IOException {
        double[] flush = new double[repeats];
        double[] peer = new double[repeats];
        double[] idle = new double[repeats];
        Harvester.Result last = null;
        long bytes = 0;
        // The first flush after registration saves everything counted so far; start from a clean slate.
        daemon.flush();
        for (int i = 0; i < repeats; i++) {
            live.recordEach(120);
            Map<Path, Object> before = inodes(dataDir);
            long t0 = System.nanoTime();
            last = daemon.flush();
            flush[i] = Timing.millis(System.nanoTime() - t0);
            List<Long> sizes = rewritten(dataDir, before);
            bytes = sizes.stream().mapToLong(Long::longValue).sum();
            if (last.failures() > 0 || sizes.size() != last.files()) {
                throw new IllegalStateException("flush saved " + last + " but " + sizes.size() + " files changed");
            }
            peer[i] = rawAtomicWrites(scratch.resolve("peer-" + i), sizes);
            long t1 = System.nanoTime();
            Harvester.Result none = daemon.flush();
            idle[i] = Timing.millis(System.nanoTime() - t1);
            if (none.files() != 0) {
                throw new IllegalStateException("a flush without new frames wrote " + none.files() + " files");
            }
        }
        return new Result(live.size(), last.files(), last.frames(), bytes, Timing.median(flush), Timing.median(peer),
                Timing.median(idle));
    }

    /** The atomic-write recipe alone: one directory per file, as in the day store. */
    static double rawAtomicWrites(Path root, List<Long> sizes) throws IOException {
        List<Path> dirs = new ArrayList<>();
        for (int i = 0; i < sizes.size(); i++) {
            Path d = root.resolve(Integer.toString(i));
            Files.createDirectories(d);
            dirs.add(d);
        }
        long t0 = System.nanoTime();
        for (int i = 0; i < sizes.size(); i++) {
            Path dir = dirs.get(i);
            Path tmp = dir.resolve(".tmp");
            try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                ByteBuffer buf = ByteBuffer.allocate((int) (long) sizes.get(i));
                while (buf.hasRemaining()) {
                    ch.write(buf);
                }
                ch.force(true);
            }
            Files.move(tmp, dir.resolve("total"), StandardCopyOption.ATOMIC_MOVE);
            try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
                d.force(true);
            }
        }
        double ms = Timing.millis(System.nanoTime() - t0);
        DayFileSet.deleteTree(root);
        return ms;
    }

    private static Map<Path, Object> inodes(Path root) throws IOException {
        Map<Path, Object> m = new HashMap<>();
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path p : walk.toList()) {
                if (Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS) && p.getFileName().toString().equals("total")) {
                    m.put(p, Files.getAttribute(p, "unix:ino", LinkOption.NOFOLLOW_LINKS));
                }
            }
        }
        return m;
    }

    /** Sizes of the day files replaced (new inode) or created since {@code before}. */
    private static List<Long> rewritten(Path root, Map<Path, Object> before) throws IOException {
        List<Long> sizes = new ArrayList<>();
        for (Map.Entry<Path, Object> e : inodes(root).entrySet()) {
            if (!e.getValue().equals(before.get(e.getKey()))) {
                sizes.add(Files.size(e.getKey()));
            }
        }
        return sizes;
    }
}
