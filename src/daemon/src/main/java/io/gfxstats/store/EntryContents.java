package io.gfxstats.store;

import io.gfxstats.proto.GraphicsStatsProto;

/** What an entry's contents must agree with: the package, version, day (and uid, at a uid level) its path names. */
final class EntryContents {
    private EntryContents() {
    }

    /** Why the proto contradicts its path (another package, version or day), or null if it does not. */
    static String foreignProblem(EntryKey key, GraphicsStatsProto proto) {
        if (proto.hasPackageName() && !proto.getPackageName().equals(key.packageName())) {
            return "holds package " + InvalidArgumentException.quote(proto.getPackageName()) + ", not "
                    + key.packageName();
        }
        if (proto.hasVersionCode() && proto.getVersionCode() != key.versionCode()) {
            return "holds version " + proto.getVersionCode() + ", not " + key.versionCode();
        }
        if (proto.getStatsStart() != 0 && !Days.contains(key.dayStart(), proto.getStatsStart())) {
            return "starts at " + proto.getStatsStart() + " (day " + Days.dayStart(proto.getStatsStart())
                    + "), not on day " + key.dayStart();
        }
        if (key.hasUidLevel() && proto.getUid() != key.uid()) {
            return "holds uid " + Integer.toUnsignedString(proto.getUid()) + ", not " + Integer.toUnsignedString(key.uid());
        }
        return null;
    }
}
