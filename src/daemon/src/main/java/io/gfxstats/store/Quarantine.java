package io.gfxstats.store;

import static io.gfxstats.store.SecureDirs.isRealDirectory;
import static io.gfxstats.store.SecureDirs.lstat;

import java.io.IOException;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Moves unusable files aside to {@code <root>/quarantine/<same relative path>.<epochMs>[-n]}: never
 * deleted, never replacing an earlier quarantined copy.
 */
final class Quarantine {
    private static final Logger log = LoggerFactory.getLogger(DayStore.class);
    private static final int MAX_SUFFIX = 1000;

    private final Path root;
    private final Clock clock;
    private final AtomicLong moved = new AtomicLong();

    Quarantine(Path root, Clock clock) {
        this.root = root;
        this.clock = clock;
    }

    /** Files moved aside since the store was opened. */
    long count() {
        return moved.get();
    }

    Path root() {
        return root.resolve(StoreNames.QUARANTINE_DIR);
    }

    /**
     * Renames {@code dir/name} (whose path below the root is {@code parents/name}) into the
     * quarantine. The caller holds the store's mutation lock; being the only writer under the
     * root is what makes the existence check before the rename sufficient.
     */
    QuarantineEvent move(SecureDirectoryStream<Path> dir, EntryKey key, List<String> parents, String name,
                         String reason) throws IOException {
        long now = clock.millis();
        Path from = root;
        for (String p : parents) {
            from = from.resolve(p);
        }
        from = from.resolve(name);
        try (DirChain chain = new DirChain()) {
            SecureDirectoryStream<Path> q = chain.push(SecureDirs.open(root));
            Path qPath = root;
            List<String> qParents = new ArrayList<>();
            qParents.add(StoreNames.QUARANTINE_DIR);
            qParents.addAll(parents);
            for (String p : qParents) {
                qPath = qPath.resolve(p);
                BasicFileAttributes attrs = lstat(q, p);
                if (attrs == null) {
                    if (SecureDirs.mkdir(qPath)) {
                        SecureDirs.fsync(q);
                    }
                } else if (!isRealDirectory(attrs)) {
                    throw new IOException("cannot quarantine " + from + ": " + qPath + " is a "
                            + SecureDirs.kind(attrs) + ", not a directory; move it away");
                }
                q = chain.push(SecureDirs.openDir(q, p));
            }
            String target = null;
            for (int n = 0; n < MAX_SUFFIX && target == null; n++) {
                String candidate = name + "." + now + (n == 0 ? "" : "-" + n);
                if (lstat(q, candidate) == null) {
                    target = candidate;
                }
            }
            if (target == null) {
                throw new IOException("cannot quarantine " + from + ": " + MAX_SUFFIX
                        + " quarantined copies for the same millisecond already exist in " + qPath);
            }
            dir.move(Path.of(name), q, Path.of(target));
            SecureDirs.fsync(q);
            SecureDirs.fsync(dir);
            Path to = qPath.resolve(target);
            moved.incrementAndGet();
            log.warn("quarantined {} -> {}: {}", from, to, reason);
            return new QuarantineEvent(key, from, to, reason, now);
        }
    }
}
