package io.gfxstats.store;

import static io.gfxstats.store.SecureDirs.isRealDirectory;
import static io.gfxstats.store.SecureDirs.lstat;

import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;

/**
 * Where an entry lives, {@code <root>/<day>/[@<uid>/]<package>/<version>/total}, and the secure way there:
 * a chain of directories opened one inside the other without following links. A link or file
 * where a directory belongs ends a read's way (reported once) and is moved to quarantine by a
 * write's.
 */
final class EntryDirs {
    private final Path root;
    private final OnceLog onceLog;
    private final Quarantine quarantine;

    EntryDirs(Path root, OnceLog onceLog, Quarantine quarantine) {
        this.root = root;
        this.onceLog = onceLog;
        this.quarantine = quarantine;
    }

    Path root() {
        return root;
    }

    /** day, [@uid for another uid than this process's], package, version. */
    static List<String> components(EntryKey key) {
        if (key.hasUidLevel()) {
            return List.of(StoreNames.dayName(key.dayStart()), StoreNames.uidName(key.uid()), key.packageName(),
                    StoreNames.versionName(key.versionCode()));
        }
        return List.of(StoreNames.dayName(key.dayStart()), key.packageName(), StoreNames.versionName(key.versionCode()));
    }

    Path versionPath(EntryKey key) {
        Path path = root;
        for (String name : components(key)) {
            path = path.resolve(name);
        }
        return path;
    }

    Path pathOf(EntryKey key) {
        return versionPath(key).resolve(StoreNames.TOTAL);
    }

    /** The entry file's stamp by lstat per component; behind a link where a directory belongs it is absent. */
    FileStamp stamp(EntryKey key) throws IOException {
        Path path = root;
        for (String name : components(key)) {
            path = path.resolve(name);
            if (!isRealDirectory(lstatPath(path))) {
                return FileStamp.ABSENT;
            }
        }
        BasicFileAttributes attrs = lstatPath(path.resolve(StoreNames.TOTAL));
        return attrs == null ? FileStamp.ABSENT : FileStamp.of(attrs);
    }

    private static BasicFileAttributes lstatPath(Path path) throws IOException {
        try {
            return Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException | NotDirectoryException e) {
            return null;
        }
    }

    /** Opens {@code name} if it is a real directory; reports and returns null for anything else. */
    SecureDirectoryStream<Path> openChecked(SecureDirectoryStream<Path> parent, Path path, String name)
            throws IOException {
        BasicFileAttributes attrs = lstat(parent, name);
        if (attrs == null) {
            return null;
        }
        if (!isRealDirectory(attrs)) {
            onceLog.report(path, "a " + SecureDirs.kind(attrs) + " where a directory belongs; not followed, ignored");
            return null;
        }
        try {
            return SecureDirs.openDir(parent, name);
        } catch (FileSystemException e) {
            if (e instanceof NoSuchFileException || e instanceof NotDirectoryException) {
                throw e;
            }
            // ELOOP: swapped for a link after the check
            onceLog.report(path, "became a link while being opened; not followed, ignored");
            return null;
        }
    }

    /** The open directories root/day/[@uid/]package/version of an entry, or null if one is absent or not real. */
    DirChain openExisting(EntryKey key) throws IOException {
        DirChain chain = new DirChain();
        try {
            SecureDirectoryStream<Path> dir = chain.push(SecureDirs.open(root));
            Path path = root;
            for (String name : components(key)) {
                path = path.resolve(name);
                dir = openChecked(dir, path, name);
                if (dir == null) {
                    chain.close();
                    return null;
                }
                chain.push(dir);
            }
            return chain;
        } catch (IOException | RuntimeException e) {
            chain.close();
            throw e;
        }
    }

    /**
     * Like {@link #openExisting} but creates missing directories (mode 0700) and quarantines
     * non-directories. The caller holds the store's mutation lock.
     */
    DirChain openForWrite(EntryKey key) throws IOException {
        DirChain chain = new DirChain();
        try {
            SecureDirectoryStream<Path> dir = chain.push(SecureDirs.open(root));
            Path path = root;
            List<String> parents = new ArrayList<>();
            for (String name : components(key)) {
                path = path.resolve(name);
                BasicFileAttributes attrs = lstat(dir, name);
                if (attrs != null && !isRealDirectory(attrs)) {
                    quarantine.move(dir, null, parents, name,
                            "a " + SecureDirs.kind(attrs) + " where a directory belongs");
                    attrs = null;
                }
                if (attrs == null && SecureDirs.mkdir(path)) {
                    SecureDirs.fsync(dir);
                }
                dir = chain.push(SecureDirs.openDir(dir, name));
                parents.add(name);
            }
            return chain;
        } catch (IOException | RuntimeException e) {
            chain.close();
            throw e;
        }
    }
}
