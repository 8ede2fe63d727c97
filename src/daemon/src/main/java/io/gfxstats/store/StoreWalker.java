package io.gfxstats.store;

import static io.gfxstats.store.SecureDirs.isRealDirectory;
import static io.gfxstats.store.SecureDirs.lstat;

import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.OptionalLong;

/**
 * Walks the tree: day directories, then packages (and other uids' levels with theirs), then versions, only through real directories
 * with names the store could have created. Anything else is skipped and reported once; contents
 * are never read here.
 */
final class StoreWalker {
    /** Called with each valid version directory, open, and the names in it. */
    interface VersionDirVisitor {
        void visit(EntryKey key, SecureDirectoryStream<Path> dir, List<String> names) throws IOException;
    }

    private final EntryDirs dirs;
    private final OnceLog onceLog;

    StoreWalker(EntryDirs dirs, OnceLog onceLog) {
        this.dirs = dirs;
        this.onceLog = onceLog;
    }

    /** Every entry with a {@code total} (of one day, or of all), in order (day, package, version). */
    List<StoredEntry> list(OptionalLong onlyDay) throws IOException {
        List<StoredEntry> entries = new ArrayList<>();
        walk(onlyDay, (key, dir, names) -> {
            boolean hasTotal = false;
            for (String name : names) {
                if (name.equals(StoreNames.TOTAL)) {
                    hasTotal = true;
                } else if (!StoreNames.isTemp(name)) {
                    onceLog.report(dirs.versionPath(key).resolve(name), "unexpected name in an entry directory; ignored");
                }
            }
            if (hasTotal) {
                entries.add(new StoredEntry(key, dirs.pathOf(key)));
            }
        });
        Collections.sort(entries);
        return entries;
    }

    /** The day directories present (real directories with day names), in no particular order. */
    static List<Long> realDays(SecureDirectoryStream<Path> rootDir) throws IOException {
        List<Long> days = new ArrayList<>();
        for (String name : SecureDirs.names(rootDir)) {
            OptionalLong day = StoreNames.parseDay(name);
            if (day.isPresent() && isRealDirectory(lstat(rootDir, name))) {
                days.add(day.getAsLong());
            }
        }
        return days;
    }

    /** Visits every valid entry directory (real directories with valid names all the way down). */
    void walk(OptionalLong onlyDay, VersionDirVisitor visitor) throws IOException {
        Path root = dirs.root();
        try (SecureDirectoryStream<Path> rootDir = SecureDirs.open(root)) {
            List<String> dayNames = SecureDirs.names(rootDir);
            Collections.sort(dayNames);
            for (String dayName : dayNames) {
                if (dayName.equals(StoreNames.QUARANTINE_DIR) || dayName.equals(StoreNames.LOCK_FILE)) {
                    continue;
                }
                OptionalLong day = StoreNames.parseDay(dayName);
                if (day.isEmpty()) {
                    onceLog.report(root.resolve(dayName), "not a day directory (a UTC midnight in epoch ms); ignored");
                    continue;
                }
                if (onlyDay.isPresent() && onlyDay.getAsLong() != day.getAsLong()) {
                    continue;
                }
                try (SecureDirectoryStream<Path> dayDir = dirs.openChecked(rootDir, root.resolve(dayName), dayName)) {
                    if (dayDir == null) {
                        continue;
                    }
                    walkDay(day.getAsLong(), dayDir, root.resolve(dayName), visitor);
                } catch (NoSuchFileException | NotDirectoryException e) {
                    // deleted by retention while we walked
                }
            }
        }
    }

    /** A day's own-uid packages, then each other uid's level ({@code @<uid>}) with its packages. */
    private void walkDay(long day, SecureDirectoryStream<Path> dayDir, Path dayPath, VersionDirVisitor visitor)
            throws IOException {
        List<String> names = SecureDirs.names(dayDir);
        for (String name : names) {
            if (!name.startsWith(StoreNames.UID_PREFIX)) {
                continue;
            }
            Path uidPath = dayPath.resolve(name);
            OptionalLong uid = StoreNames.parseUid(name, EntryKey.OWN_UID);
            if (uid.isEmpty()) {
                onceLog.report(uidPath, "not a uid level ('@' and the decimal uid of another user than the daemon's); ignored");
                continue;
            }
            try (SecureDirectoryStream<Path> uidDir = dirs.openChecked(dayDir, uidPath, name)) {
                if (uidDir != null) {
                    walkPackages(day, (int) uid.getAsLong(), uidDir, SecureDirs.names(uidDir), uidPath, visitor);
                }
            } catch (NoSuchFileException | NotDirectoryException e) {
                // removed concurrently
            }
        }
        walkPackages(day, EntryKey.OWN_UID, dayDir, names, dayPath, visitor);
    }

    private void walkPackages(long day, int uid, SecureDirectoryStream<Path> dayDir, List<String> names, Path dayPath,
                              VersionDirVisitor visitor) throws IOException {
        for (String pkg : names) {
            if (uid == EntryKey.OWN_UID && pkg.startsWith(StoreNames.UID_PREFIX)) {
                continue; // a uid level, walked by walkDay
            }
            Path pkgPath = dayPath.resolve(pkg);
            var problem = PackageNames.problem(pkg);
            if (problem.isPresent()) {
                onceLog.report(pkgPath, "not a valid package name (" + problem.get() + "); ignored");
                continue;
            }
            try (SecureDirectoryStream<Path> pkgDir = dirs.openChecked(dayDir, pkgPath, pkg)) {
                if (pkgDir == null) {
                    continue;
                }
                for (String version : SecureDirs.names(pkgDir)) {
                    Path versionPath = pkgPath.resolve(version);
                    OptionalLong v = StoreNames.parseVersion(version);
                    if (v.isEmpty()) {
                        onceLog.report(versionPath, "not a version code (a non-negative decimal); ignored");
                        continue;
                    }
                    try (SecureDirectoryStream<Path> versionDir = dirs.openChecked(pkgDir, versionPath, version)) {
                        if (versionDir == null) {
                            continue;
                        }
                        visitor.visit(new EntryKey(day, pkg, v.getAsLong(), uid), versionDir, SecureDirs.names(versionDir));
                    } catch (NoSuchFileException | NotDirectoryException e) {
                        // removed concurrently
                    }
                }
            } catch (NoSuchFileException | NotDirectoryException e) {
                // removed concurrently
            }
        }
    }
}
