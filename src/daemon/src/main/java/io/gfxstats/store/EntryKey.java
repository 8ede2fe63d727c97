package io.gfxstats.store;

import com.sun.security.auth.module.UnixSystem;

import java.util.Comparator;

/**
 * Identity of one day file: a day, a package, a version and the uid that recorded it. Entries of
 * this process's own uid ({@link #OWN_UID}) live where Android puts them,
 * {@code <root>/<dayStart>/<packageName>/<versionCode>/total}; another uid's one level deeper,
 * {@code <root>/<dayStart>/@<uid>/<packageName>/<versionCode>/total} (a name no package can
 * have). Entries of two uids are never merged, as Android keys by uid. Every component is
 * validated on construction, so a key can always be turned into a path inside the store. Keys
 * order by (day, package, version, uid), the deterministic order of dumps.
 */
public record EntryKey(long dayStart, String packageName, long versionCode, int uid) implements Comparable<EntryKey> {
    public static final String DAY_FIELD = "day";
    /** The uid of this process: its entries keep Android's layout, without a uid level. */
    public static final int OWN_UID = (int) new UnixSystem().getUid();

    private static final Comparator<EntryKey> ORDER = Comparator.comparingLong(EntryKey::dayStart)
            .thenComparing(EntryKey::packageName)
            .thenComparingLong(EntryKey::versionCode)
            .thenComparing(EntryKey::uid, Integer::compareUnsigned);

    public EntryKey {
        if (dayStart < 0 || !Days.isDayStart(dayStart)) {
            throw new InvalidArgumentException(DAY_FIELD, dayStart + " is not a UTC midnight at or after 1970-01-01 in epoch ms");
        }
        PackageNames.requireValid(packageName);
        PackageNames.requireValidVersionCode(versionCode);
    }

    /** An entry of this process's own uid ({@link #OWN_UID}). */
    public EntryKey(long dayStart, String packageName, long versionCode) {
        this(dayStart, packageName, versionCode, OWN_UID);
    }

    /** The key of the day that contains {@code statsStartMillis}, of this process's own uid. */
    public static EntryKey forStart(long statsStartMillis, String packageName, long versionCode) {
        return new EntryKey(Days.dayStart(statsStartMillis), packageName, versionCode);
    }

    /** Whether the entry has a uid level in the tree (it belongs to another uid than this process's). */
    public boolean hasUidLevel() {
        return uid != OWN_UID;
    }

    @Override
    public int compareTo(EntryKey other) {
        return ORDER.compare(this, other);
    }

    @Override
    public String toString() {
        return dayStart + "/" + (hasUidLevel() ? StoreNames.uidName(uid) + "/" : "") + packageName + "/" + versionCode;
    }
}
