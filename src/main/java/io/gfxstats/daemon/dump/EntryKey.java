package io.gfxstats.daemon.dump;

import java.util.Comparator;

/** Identity of one dump entry: a day file's coordinates. Ordered as dumps list them. */
public record EntryKey(long dayStartMillis, String packageName, long versionCode) implements Comparable<EntryKey> {
    private static final Comparator<EntryKey> ORDER = Comparator.comparingLong(EntryKey::dayStartMillis)
            .thenComparing(EntryKey::packageName)
            .thenComparingLong(EntryKey::versionCode);

    @Override
    public int compareTo(EntryKey o) {
        return ORDER.compare(this, o);
    }
}
