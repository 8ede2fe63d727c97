package io.gfxstats.store;

import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.Objects;

/**
 * What a cache needs to know whether a day file changed without reading it: the file's identity
 * (device and inode), size and modification time. Every write replaces the file by rename, so a
 * new write always has a new identity; size and time guard against inode reuse.
 *
 * <p>{@link #ABSENT} stands for "no file": it is the stamp of a missing or quarantined entry and
 * the expectation to pass to {@link DayStore#write} when creating a file.
 */
public final class FileStamp {
    public static final FileStamp ABSENT = new FileStamp(null, -1, null);

    private final Object fileKey;
    private final long size;
    private final FileTime lastModified;

    private FileStamp(Object fileKey, long size, FileTime lastModified) {
        this.fileKey = fileKey;
        this.size = size;
        this.lastModified = lastModified;
    }

    static FileStamp of(BasicFileAttributes attrs) {
        return new FileStamp(attrs.fileKey(), attrs.size(), attrs.lastModifiedTime());
    }

    public boolean isAbsent() {
        return this == ABSENT || fileKey == null && size < 0 && lastModified == null;
    }

    /** Size in bytes, -1 when absent. */
    public long size() {
        return size;
    }

    /** Modification time, null when absent. */
    public FileTime lastModified() {
        return lastModified;
    }

    /** Opaque file identity (dev, inode), null when absent. */
    public Object fileKey() {
        return fileKey;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof FileStamp other && size == other.size
                && Objects.equals(fileKey, other.fileKey) && Objects.equals(lastModified, other.lastModified);
    }

    @Override
    public int hashCode() {
        return Objects.hash(fileKey, size, lastModified);
    }

    @Override
    public String toString() {
        return isAbsent() ? "FileStamp[absent]" : "FileStamp[" + fileKey + ", " + size + " bytes, " + lastModified + "]";
    }
}
