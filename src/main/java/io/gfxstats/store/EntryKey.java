package io.gfxstats.store;

import java.util.Comparator;

/**
 * Identity of one day file: {@code <root>/<dayStart>/<packageName>/<versionCode>/total}. Every
 * component is validated on construction, so a key can always be turned into a path inside the
 * store. Keys order by (day, package, version), the deterministic order of dumps.
 */
public record EntryKey(long dayStart, String packageName, long versionCode) implements Comparable<EntryKey> {
    public static final String DAY_FIELD = "day";

    private static final Comparator<EntryKey> ORDER = Comparator.comparingLong(EntryKey::dayStart)
            .thenComparing(EntryKey::packageName)
            .thenComparingLong(EntryKey::versionCode);

    public EntryKey {
        if (dayStart < 0 || !Days.isDayStart(dayStart)) {
            throw new InvalidArgumentException(DAY_FIELD, dayStart + " is not a UTC midnight at or after 1970-01-01 in epoch ms");
        }
        PackageNames.requireValid(packageName);
        PackageNames.requireValidVersionCode(versionCode);
    }

    /** The key of the day that contains {@code statsStartMillis}. */
    public static EntryKey forStart(long statsStartMillis, String packageName, long versionCode) {
        return new EntryKey(Days.dayStart(statsStartMillis), packageName, versionCode);
    }

    @Override
    public int compareTo(EntryKey other) {
        return ORDER.compare(this, other);
    }

    @Override
    public String toString() {
        return dayStart + "/" + packageName + "/" + versionCode;
    }
}
