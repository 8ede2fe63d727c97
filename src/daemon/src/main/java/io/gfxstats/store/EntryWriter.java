package io.gfxstats.store;

import static io.gfxstats.store.SecureDirs.lstat;

import io.gfxstats.dayfile.DayFileCodec;
import io.gfxstats.dayfile.DayFileException;
import io.gfxstats.dayfile.StatsProtos;
import io.gfxstats.proto.GraphicsStatsProto;
import java.io.IOException;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Objects;
import java.util.OptionalLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Atomic, conditional writes of entry files: a hidden temp file in the entry's directory is
 * written, fsynced and renamed over {@code total}, then the directory is fsynced - but only if
 * the file on disk still has the stamp the caller merged.
 */
final class EntryWriter {
    private static final Logger log = LoggerFactory.getLogger(DayStore.class);

    private final EntryDirs dirs;
    private final Quarantine quarantine;
    private final StoreGuard guard;
    private final long maxFileBytes;
    private final SecureRandom random = new SecureRandom();

    EntryWriter(EntryDirs dirs, Quarantine quarantine, StoreGuard guard, long maxFileBytes) {
        this.dirs = dirs;
        this.quarantine = quarantine;
        this.guard = guard;
        this.maxFileBytes = maxFileBytes;
    }

    FileStamp write(EntryKey key, GraphicsStatsProto proto, FileStamp expected) throws IOException {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(proto, "proto");
        Objects.requireNonNull(expected, "expected");
        String problem = EntryContents.foreignProblem(key, proto);
        if (problem == null) {
            try {
                StatsProtos.toProfileData(proto);
            } catch (DayFileException.HistogramMismatch e) {
                problem = e.getMessage();
            }
        }
        if (problem != null) {
            throw new IllegalArgumentException("refusing to write day file " + key + ": " + problem);
        }
        byte[] bytes = DayFileCodec.encode(proto);
        if (bytes.length > maxFileBytes) {
            // Written, it would be quarantined by the next read; unwritten, the counts stay in
            // their live buffers and the failed save is retried.
            throw new IOException("day file " + dirs.pathOf(key) + " would be " + bytes.length
                    + " bytes, more than the day-file size cap (" + maxFileBytes + " bytes, setting data.file.max.size)");
        }
        guard.lock();
        try {
            guard.ensureOpen();
            try (DirChain chain = dirs.openForWrite(key)) {
                SecureDirectoryStream<Path> dir = chain.last();
                BasicFileAttributes current = lstat(dir, StoreNames.TOTAL);
                if (current != null && !current.isRegularFile()) {
                    quarantine.move(dir, key, EntryDirs.components(key), StoreNames.TOTAL,
                            "not a regular file but a " + SecureDirs.kind(current));
                    current = null;
                }
                FileStamp actual = current == null ? FileStamp.ABSENT : FileStamp.of(current);
                if (!actual.equals(expected)) {
                    throw new StaleWriteException(key, expected, actual);
                }
                String temp = StoreNames.TEMP_PREFIX + HexFormat.of().formatHex(randomBytes());
                boolean renamed = false;
                try {
                    SecureDirs.writeNew(dir, temp, bytes);
                    dir.move(Path.of(temp), dir, Path.of(StoreNames.TOTAL));
                    renamed = true;
                } finally {
                    if (!renamed) {
                        deleteQuietly(dir, temp);
                    }
                }
                SecureDirs.fsync(dir);
                BasicFileAttributes written = lstat(dir, StoreNames.TOTAL);
                if (written == null) {
                    throw new IOException("day file " + dirs.pathOf(key) + " vanished right after it was written");
                }
                return FileStamp.of(written);
            }
        } finally {
            guard.unlock();
        }
    }

    /** Removes the temp files of writes that a crash interrupted (their entries keep the previous contents). */
    void removeStaleTempFiles(StoreWalker walker) throws IOException {
        walker.walk(OptionalLong.empty(), (key, dir, names) -> {
            for (String name : names) {
                if (StoreNames.isTemp(name)) {
                    BasicFileAttributes attrs = lstat(dir, name);
                    if (attrs != null && attrs.isRegularFile()) {
                        dir.deleteFile(Path.of(name));
                        log.info("removed {} left by an interrupted write (the entry keeps its previous contents)",
                                dirs.versionPath(key).resolve(name));
                    }
                }
            }
        });
    }

    private byte[] randomBytes() {
        byte[] b = new byte[8];
        random.nextBytes(b);
        return b;
    }

    private static void deleteQuietly(SecureDirectoryStream<Path> dir, String name) {
        try {
            dir.deleteFile(Path.of(name));
        } catch (IOException e) {
            log.warn("could not remove temp file {}: {}", name, e.toString());
        }
    }
}
