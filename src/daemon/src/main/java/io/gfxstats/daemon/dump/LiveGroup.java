package io.gfxstats.daemon.dump;

import io.gfxstats.stats.ProfileData;
import io.gfxstats.store.EntryKey;
import io.gfxstats.timeline.TimelineCounters;

/**
 * The unsaved frames of every live buffer of one (uid, package, version, day), summed, so the
 * day file is merged with them once (Android merges it once per process, counting it twice).
 *
 * @param unsaved     counters not yet in the day file, summed over the group's buffers
 * @param startMillis earliest accounting start of the group's buffers in this day
 * @param timeline    FrameTimeline counters not yet in the day file, summed likewise
 * @param ringDropped frames full recording rings dropped, not yet in the day file, summed likewise
 */
public record LiveGroup(EntryKey key, int uid, ProfileData unsaved, long startMillis,
                        TimelineCounters timeline, long ringDropped) {
    /** A group without FrameTimeline counters. */
    public LiveGroup(EntryKey key, int uid, ProfileData unsaved, long startMillis) {
        this(key, uid, unsaved, startMillis, new TimelineCounters());
    }

    /** A group whose clients dropped no frames. */
    public LiveGroup(EntryKey key, int uid, ProfileData unsaved, long startMillis, TimelineCounters timeline) {
        this(key, uid, unsaved, startMillis, timeline, 0);
    }
}
