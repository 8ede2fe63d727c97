package io.gfxstats.store;

import java.util.OptionalLong;

/** The names the store gives to things under its root, and the parsing of numeric names. */
final class StoreNames {
    static final String TOTAL = "total";
    static final String QUARANTINE_DIR = "quarantine";
    static final String LOCK_FILE = ".lock";
    /** Hidden so that a half-written file never looks like data to a human either. */
    static final String TEMP_PREFIX = ".total.tmp-";

    private StoreNames() {
    }

    /**
     * A day directory name: the canonical decimal of a UTC midnight in epoch ms (no sign, no
     * leading zeros). Anything else, including "0123" or a numeric non-midnight, is foreign.
     */
    static OptionalLong parseDay(String name) {
        OptionalLong v = parseCanonical(name);
        if (v.isPresent() && !Days.isDayStart(v.getAsLong())) {
            return OptionalLong.empty();
        }
        return v;
    }

    /** A version directory name: the canonical decimal of a non-negative int64. */
    static OptionalLong parseVersion(String name) {
        return parseCanonical(name);
    }

    static String dayName(long dayStart) {
        return Long.toString(dayStart);
    }

    /** The uid level of another uid's entries: '@' cannot start a package name, so no package collides. */
    static final String UID_PREFIX = "@";

    static String uidName(int uid) {
        return UID_PREFIX + Integer.toUnsignedString(uid);
    }

    /**
     * The uid of a uid-level directory name ({@code @<canonical unsigned decimal>}), or empty.
     * {@code ownUid} is refused: its entries have no uid level, so such a directory is foreign.
     */
    static OptionalLong parseUid(String name, int ownUid) {
        if (!name.startsWith(UID_PREFIX)) {
            return OptionalLong.empty();
        }
        OptionalLong v = parseCanonical(name.substring(UID_PREFIX.length()));
        if (v.isEmpty() || v.getAsLong() > 0xFFFF_FFFFL || (int) v.getAsLong() == ownUid) {
            return OptionalLong.empty();
        }
        return v;
    }

    static String versionName(long versionCode) {
        return Long.toString(versionCode);
    }

    static boolean isTemp(String name) {
        return name.startsWith(TEMP_PREFIX);
    }

    private static OptionalLong parseCanonical(String name) {
        int n = name.length();
        if (n == 0 || n > 19 || (n > 1 && name.charAt(0) == '0')) {
            return OptionalLong.empty();
        }
        for (int i = 0; i < n; i++) {
            char c = name.charAt(i);
            if (c < '0' || c > '9') {
                return OptionalLong.empty();
            }
        }
        try {
            return OptionalLong.of(Long.parseLong(name));
        } catch (NumberFormatException overflow) {
            return OptionalLong.empty();
        }
    }
}
