package io.gfxstats.daemon.metrics;

import java.util.Objects;

/**
 * One exposed series: the (package, version, uid) a process registered with. Ordered so the
 * exposition lists series in a stable order.
 */
public record SeriesKey(String packageName, long versionCode, int uid) implements Comparable<SeriesKey> {
    public SeriesKey {
        Objects.requireNonNull(packageName, "packageName");
    }

    @Override
    public int compareTo(SeriesKey o) {
        int c = packageName.compareTo(o.packageName);
        if (c != 0) {
            return c;
        }
        c = Long.compare(versionCode, o.versionCode);
        return c != 0 ? c : Integer.compareUnsigned(uid, o.uid);
    }
}
