package io.gfxstats.store;

import java.nio.file.Path;

/** One listed day file: its key and the path of its {@code total} file (for logs and tools). */
public record StoredEntry(EntryKey key, Path path) implements Comparable<StoredEntry> {
    @Override
    public int compareTo(StoredEntry other) {
        return key.compareTo(other.key);
    }
}
