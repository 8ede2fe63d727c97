package io.gfxstats.framestats;

import io.gfxstats.dayfile.StatsProtos;
import io.gfxstats.frame.Android9JankTracker;
import io.gfxstats.frame.DaveyListener;
import io.gfxstats.frame.FrameTracker;
import io.gfxstats.frame.ModernJankTracker;
import io.gfxstats.frame.TrackerConfig;
import io.gfxstats.proto.GraphicsStatsProto;
import io.gfxstats.stats.ProfileData;

/**
 * Replays captured framestats through the jank trackers, giving the statistics the device would
 * have counted for those frames.
 *
 * <p>Modern blocks go through {@link ModernJankTracker} with {@link TrackerConfig#replay}: the
 * FrameDeadline a device prints is already extended for triple-buffered frames. Android 9 blocks
 * go through {@link Android9JankTracker}. The display refresh interval is the legacy accounting's
 * and the Android 9 tracker's interval, and the fallback for rows without a FrameInterval.
 */
public final class FramestatsReplay {
    /** The refresh interval used unless the caller knows better: 60 Hz. */
    public static final long DEFAULT_REFRESH_INTERVAL_NANOS = TrackerConfig.NANOS_60HZ;

    private FramestatsReplay() {
    }

    /** A fresh tracker for a block of the given column set. */
    public static FrameTracker trackerFor(ColumnSet columnSet, long refreshIntervalNanos, DaveyListener daveys) {
        TrackerConfig config = TrackerConfig.replay(refreshIntervalNanos);
        return switch (columnSet) {
            case MODERN -> new ModernJankTracker(config, daveys);
            case ANDROID9 -> new Android9JankTracker(config, daveys);
        };
    }

    /** Replays one block through a fresh tracker; Daveys are not reported. */
    public static ProfileData replay(FramestatsBlock block, long refreshIntervalNanos) {
        return replay(block, refreshIntervalNanos, DaveyListener.ignoring());
    }

    /**
     * Replays one block through a fresh tracker. The result has stats start 0 and the pipeline
     * the dump names for the block's process.
     */
    public static ProfileData replay(FramestatsBlock block, long refreshIntervalNanos, DaveyListener daveys) {
        ProfileData data = new ProfileData(0, block.pipeline());
        block.replay(trackerFor(block.columnSet(), refreshIntervalNanos, daveys), data);
        return data;
    }

    /**
     * The replayed statistics as a dump entry: Package = the block's window name; UID, Version,
     * Stats since and Stats end 0 (a capture carries none of them).
     */
    public static GraphicsStatsProto toProto(FramestatsBlock block, ProfileData data) {
        return StatsProtos.toProto(data, new StatsProtos.Source(block.name(), 0, 0, 0, 0));
    }
}
