package io.gfxstats.store;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/**
 * Directory operations relative to an open directory (openat/fstatat/renameat/unlinkat through
 * {@link SecureDirectoryStream}), always with NOFOLLOW: a symbolic link planted anywhere below
 * the root is seen as a link and never traversed. Only {@code mkdir} has no relative form in
 * Java; it goes by path after the parent was checked, and the new directory is then opened
 * relative with NOFOLLOW, so a swap in between fails instead of escaping the root.
 */
final class SecureDirs {
    static final FileAttribute<Set<PosixFilePermission>> DIR_MODE =
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------"));
    static final FileAttribute<Set<PosixFilePermission>> FILE_MODE =
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"));

    private static final Set<OpenOption> READ = Set.of(StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS);
    private static final Set<OpenOption> CREATE_NEW =
            Set.of(StandardOpenOption.WRITE, StandardOpenOption.CREATE_NEW, LinkOption.NOFOLLOW_LINKS);

    private SecureDirs() {
    }

    /** Opens a directory by path (the store root, which may itself be reached through links). */
    static SecureDirectoryStream<Path> open(Path dir) throws IOException {
        DirectoryStream<Path> ds = Files.newDirectoryStream(dir);
        if (ds instanceof SecureDirectoryStream<Path> sds) {
            return sds;
        }
        ds.close();
        throw new IOException("this platform offers no openat()-style directory access (SecureDirectoryStream); "
                + "gfxstats needs it to keep " + dir + " safe from symbolic links");
    }

    /** The entry's own attributes (lstat), or null when there is no such entry. */
    static BasicFileAttributes lstat(SecureDirectoryStream<Path> dir, String name) throws IOException {
        try {
            return dir.getFileAttributeView(Path.of(name), BasicFileAttributeView.class, LinkOption.NOFOLLOW_LINKS)
                    .readAttributes();
        } catch (NoSuchFileException e) {
            return null;
        }
    }

    static boolean isRealDirectory(BasicFileAttributes attrs) {
        return attrs != null && attrs.isDirectory() && !attrs.isSymbolicLink();
    }

    /** Opens a subdirectory without following a link; fails if it is not a real directory. */
    static SecureDirectoryStream<Path> openDir(SecureDirectoryStream<Path> parent, String name) throws IOException {
        return parent.newDirectoryStream(Path.of(name), LinkOption.NOFOLLOW_LINKS);
    }

    /** Names in a directory. A SecureDirectoryStream can be iterated only once. */
    static List<String> names(SecureDirectoryStream<Path> dir) {
        List<String> names = new ArrayList<>();
        for (Path p : dir) {
            names.add(p.getFileName().toString());
        }
        return names;
    }

    /** Creates a directory with mode 0700; an existing entry is left alone (the caller checks it). */
    static boolean mkdir(Path path) throws IOException {
        try {
            Files.createDirectory(path, DIR_MODE);
            return true;
        } catch (FileAlreadyExistsException e) {
            return false;
        }
    }

    /** Makes the directory's entries (creations, renames, deletions) durable. */
    static void fsync(SecureDirectoryStream<Path> dir) throws IOException {
        try (SeekableByteChannel ch = dir.newByteChannel(Path.of("."), Set.of(StandardOpenOption.READ))) {
            ((FileChannel) ch).force(true);
        }
    }

    static byte[] readAll(SecureDirectoryStream<Path> dir, String name, long maxBytes) throws IOException {
        try (SeekableByteChannel ch = dir.newByteChannel(Path.of(name), READ)) {
            long size = ch.size();
            if (size > maxBytes) {
                throw new FileTooLargeException(size, maxBytes);
            }
            ByteBuffer buf = ByteBuffer.allocate((int) size);
            while (buf.hasRemaining()) {
                if (ch.read(buf) < 0) {
                    break;
                }
            }
            if (buf.hasRemaining()) {
                return Arrays.copyOf(buf.array(), buf.position());
            }
            return buf.array();
        }
    }

    /** Creates {@code name} exclusively (mode 0600), writes all bytes and fsyncs them. */
    static void writeNew(SecureDirectoryStream<Path> dir, String name, byte[] bytes) throws IOException {
        try (SeekableByteChannel ch = dir.newByteChannel(Path.of(name), CREATE_NEW, FILE_MODE)) {
            ByteBuffer buf = ByteBuffer.wrap(bytes);
            while (buf.hasRemaining()) {
                ch.write(buf);
            }
            ((FileChannel) ch).force(true);
        }
    }

    /** Deletes an entry; a directory is emptied first. Links are unlinked, never followed. */
    static void deleteTree(SecureDirectoryStream<Path> parent, String name) throws IOException {
        BasicFileAttributes attrs = lstat(parent, name);
        if (attrs == null) {
            return;
        }
        if (isRealDirectory(attrs)) {
            try (SecureDirectoryStream<Path> dir = openDir(parent, name)) {
                for (String child : names(dir)) {
                    deleteTree(dir, child);
                }
            }
            parent.deleteDirectory(Path.of(name));
        } else {
            parent.deleteFile(Path.of(name));
        }
    }

    /** How a file type reads in a message. */
    static String kind(BasicFileAttributes attrs) {
        if (attrs.isSymbolicLink()) {
            return "symbolic link";
        }
        if (attrs.isDirectory()) {
            return "directory";
        }
        if (attrs.isRegularFile()) {
            return "regular file";
        }
        return "special file";
    }

    static final class FileTooLargeException extends IOException {
        private static final long serialVersionUID = 1L;

        FileTooLargeException(long size, long max) {
            super(size + " bytes, more than the day-file size cap (" + max + " bytes, setting data.file.max.size)");
        }
    }
}
