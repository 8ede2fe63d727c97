package io.gfxstats.buffer;

import io.gfxstats.stats.Counters;

import java.util.List;

/**
 * The counter groups this release knows, and the counter vector that holds them: a buffer's
 * cumulative state as one {@code long[]} of {@link #VECTOR_LENGTH} entries, the 190
 * {@link Counters} first, then each known group's elements (summed over its stripes) in the
 * order of {@link #KNOWN}. A buffer without a group (a version 1 file, or a version 2 file whose
 * creator left it out) reports its elements as zero. Snapshots, harvest baselines, day-file
 * marks and client handovers all move this whole vector, so a group added here is saved
 * exactly once and handed over like the Android counters without further code.
 */
public final class CounterGroups {
    /** Scene counters and Matrix levels per scene, see {@link SceneGroup}. */
    public static final CounterGroup SCENES = SceneGroup.GROUP;
    /** Directory id of the FrameTimeline counters. */
    public static final int FRAMETIMELINE_ID = 2;
    /** The FrameTimeline counters, see {@link FrameTimelineGroup}. */
    public static final CounterGroup FRAMETIMELINE = FrameTimelineGroup.GROUP;

    /** What a client could not count (frames its rings dropped), see {@link ClientHealthGroup}. */
    public static final CounterGroup CLIENT_HEALTH = ClientHealthGroup.GROUP;

    /** Every group this release reads and writes, in vector order. New groups go at the end. */
    public static final List<CounterGroup> KNOWN = List.of(SCENES, FRAMETIMELINE, CLIENT_HEALTH);

    /**
     * Earlier versions of known groups that readers still sum (a buffer of the previous release
     * alive during an upgrade) into the same vector entries; never created or written.
     */
    static final List<CounterGroup> READ_ONLY = List.of(SceneGroup.VERSION_1);

    private static final int[] OFFSETS = new int[KNOWN.size()];
    /** Length of the counter vector. */
    public static final int VECTOR_LENGTH;

    static {
        int offset = Counters.COUNT;
        for (int i = 0; i < KNOWN.size(); i++) {
            OFFSETS[i] = offset;
            offset += KNOWN.get(i).elements();
        }
        VECTOR_LENGTH = offset;
    }

    private CounterGroups() {
    }

    /**
     * Index in {@link #KNOWN} of the group a directory entry holds (the version written or one
     * of {@link #READ_ONLY}), or -1 for a group or version this release does not read.
     */
    public static int indexOf(int id, int version) {
        return layout(id, version) == null ? -1 : KNOWN.indexOf(current(id));
    }

    /** The layout of group {@code id} in version {@code version}, if this release reads it; else null. */
    static CounterGroup layout(int id, int version) {
        for (CounterGroup g : KNOWN) {
            if (g.id() == id && g.version() == version) {
                return g;
            }
        }
        for (CounterGroup g : READ_ONLY) {
            if (g.id() == id && g.version() == version && g.sameElements(current(id))) {
                return g;
            }
        }
        return null;
    }

    private static CounterGroup current(int id) {
        for (CounterGroup g : KNOWN) {
            if (g.id() == id) {
                return g;
            }
        }
        throw new IllegalStateException("no current version of group " + id);
    }

    /** Where group {@code index} (of {@link #KNOWN}) starts in the counter vector. */
    public static int vectorOffset(int index) {
        return OFFSETS[index];
    }

    /**
     * Whether {@code length} is the counter vector length of this or an earlier release: the
     * Android counters followed by the first k known groups (groups are only ever appended, so an
     * older vector is a prefix of this one and its missing groups read as zero).
     */
    public static boolean isVectorPrefix(int length) {
        if (length == VECTOR_LENGTH) {
            return true;
        }
        for (int offset : OFFSETS) {
            if (offset == length) {
                return true;
            }
        }
        return false;
    }

    public static int vectorOffset(CounterGroup group) {
        return OFFSETS[KNOWN.indexOf(group)];
    }
}
