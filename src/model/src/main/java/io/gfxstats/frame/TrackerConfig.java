package io.gfxstats.frame;

/**
 * Settings of a jank tracker. Nothing assumes 60 Hz: the display refresh interval and the
 * fallback frame interval are given here, and a frame's own FrameInterval wins when it has one.
 *
 * @param refreshIntervalNanos     display refresh interval R used by the legacy accounting and
 *                                 the Android 9 tracker
 * @param defaultFrameIntervalNanos used by the modern tracker for frames whose FrameInterval is 0
 * @param dequeueForgivenessNanos  legacy accounting: up to this much of DequeueBufferDuration is
 *                                 not charged to the frame; 0 turns forgiveness off (the default)
 * @param deadlinesAlreadyExtended true when replaying captured frames whose FrameDeadline the
 *                                 device already extended by one interval for triple-buffered
 *                                 frames, so it must not be extended again
 */
public record TrackerConfig(long refreshIntervalNanos,
                            long defaultFrameIntervalNanos,
                            long dequeueForgivenessNanos,
                            boolean deadlinesAlreadyExtended) {

    public static final long NANOS_60HZ = 16_666_667L;

    public TrackerConfig {
        if (refreshIntervalNanos <= 0) {
            throw new IllegalArgumentException("refresh interval must be positive: " + refreshIntervalNanos);
        }
        if (defaultFrameIntervalNanos <= 0) {
            throw new IllegalArgumentException("default frame interval must be positive: " + defaultFrameIntervalNanos);
        }
        if (dequeueForgivenessNanos < 0) {
            throw new IllegalArgumentException("dequeue forgiveness must not be negative: " + dequeueForgivenessNanos);
        }
    }

    /** Live recording on a display with the given refresh interval. */
    public static TrackerConfig live(long refreshIntervalNanos) {
        return new TrackerConfig(refreshIntervalNanos, refreshIntervalNanos, 0, false);
    }

    /** Replay of captured framestats rows. */
    public static TrackerConfig replay(long refreshIntervalNanos) {
        return new TrackerConfig(refreshIntervalNanos, refreshIntervalNanos, 0, true);
    }

    public TrackerConfig withDequeueForgiveness(long nanos) {
        return new TrackerConfig(refreshIntervalNanos, defaultFrameIntervalNanos, nanos, deadlinesAlreadyExtended);
    }
}
