package io.gfxstats.store;

import static io.gfxstats.store.SecureDirs.lstat;

import io.gfxstats.dayfile.DayFileCodec;
import io.gfxstats.dayfile.DayFileException;
import io.gfxstats.dayfile.StatsProtos;
import io.gfxstats.proto.GraphicsStatsProto;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * Reads one entry's file through its secure chain, retrying while a writer replaces it, and moves
 * an unusable one to quarantine (unless a writer replaced it meanwhile).
 */
final class EntryReader {
    static final int ATTEMPTS = 8;

    private final EntryDirs dirs;
    private final Quarantine quarantine;
    private final StoreGuard guard;
    private final long maxFileBytes;
    private volatile ReadWatch watch = ReadWatch.NONE;

    EntryReader(EntryDirs dirs, Quarantine quarantine, StoreGuard guard, long maxFileBytes) {
        this.dirs = dirs;
        this.quarantine = quarantine;
        this.guard = guard;
        this.maxFileBytes = maxFileBytes;
    }

    void watch(ReadWatch w) {
        watch = w;
    }

    ReadResult read(EntryKey key) throws IOException {
        ReadWatch w = watch;
        Path file = dirs.pathOf(key);
        w.reading(file);
        try {
            return readWatched(key);
        } finally {
            w.done(file);
        }
    }

    /**
     * Moves the entry's current file to quarantine whatever it holds (a crash-loop guard found
     * it being read when the previous run died). Null when there is no file.
     */
    QuarantineEvent setAside(EntryKey key, String reason) throws IOException {
        try (DirChain chain = dirs.openExisting(key)) {
            if (chain == null) {
                return null;
            }
            BasicFileAttributes attrs = lstat(chain.last(), StoreNames.TOTAL);
            if (attrs == null) {
                return null;
            }
            return quarantineIfUnchanged(key, FileStamp.of(attrs), reason);
        }
    }

    private ReadResult readWatched(EntryKey key) throws IOException {
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            try (DirChain chain = dirs.openExisting(key)) {
                if (chain == null) {
                    return new ReadResult.Missing(key);
                }
                SecureDirectoryStream<Path> dir = chain.last();
                BasicFileAttributes before = lstat(dir, StoreNames.TOTAL);
                if (before == null) {
                    return new ReadResult.Missing(key);
                }
                FileStamp stamp = FileStamp.of(before);
                String problem;
                GraphicsStatsProto proto = null;
                if (!before.isRegularFile()) {
                    problem = "not a regular file but a " + SecureDirs.kind(before);
                } else {
                    byte[] bytes = null;
                    IOException readError = null;
                    problem = null;
                    try {
                        bytes = SecureDirs.readAll(dir, StoreNames.TOTAL, maxFileBytes);
                    } catch (SecureDirs.FileTooLargeException e) {
                        problem = e.getMessage();
                    } catch (AccessDeniedException e) {
                        // Planted by another user (root's 0600 file in a user's tree): unreadable
                        // for good, so it goes aside instead of failing every dump and save.
                        problem = "cannot be read by the daemon: permission denied";
                    } catch (IOException e) {
                        readError = e;
                    }
                    BasicFileAttributes after = lstat(dir, StoreNames.TOTAL);
                    if (after == null || !FileStamp.of(after).equals(stamp)
                            || (bytes != null && bytes.length != before.size())) {
                        continue; // replaced while we read it: read the new one
                    }
                    if (readError != null) {
                        throw readError;
                    }
                    if (bytes != null) {
                        try {
                            proto = DayFileCodec.decode(bytes);
                            StatsProtos.toProfileData(proto);
                            problem = EntryContents.foreignProblem(key, proto);
                        } catch (DayFileException e) {
                            problem = e.getMessage();
                        }
                    }
                }
                if (problem == null) {
                    return new ReadResult.Found(key, proto, stamp);
                }
                QuarantineEvent event = quarantineIfUnchanged(key, stamp, problem);
                if (event != null) {
                    return new ReadResult.Quarantined(key, event);
                }
            } catch (NoSuchFileException | NotDirectoryException e) {
                // a directory vanished (retention) or was swapped between two steps: look again
            }
        }
        throw new IOException("day file " + dirs.pathOf(key) + " kept changing while being read (" + ATTEMPTS
                + " attempts)");
    }

    private QuarantineEvent quarantineIfUnchanged(EntryKey key, FileStamp stamp, String reason) throws IOException {
        guard.lock();
        try {
            guard.ensureOpen();
            try (DirChain chain = dirs.openExisting(key)) {
                if (chain == null) {
                    return null;
                }
                BasicFileAttributes attrs = lstat(chain.last(), StoreNames.TOTAL);
                if (attrs == null || !FileStamp.of(attrs).equals(stamp)) {
                    return null; // a writer replaced it meanwhile; the caller reads the new one
                }
                return quarantine.move(chain.last(), key, EntryDirs.components(key), StoreNames.TOTAL, reason);
            }
        } finally {
            guard.unlock();
        }
    }
}
