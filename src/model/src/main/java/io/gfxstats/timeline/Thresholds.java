package io.gfxstats.timeline;

/**
 * The classification thresholds in nanoseconds. Comparisons are strict: a delta of exactly the
 * threshold is on time.
 *
 * @param presentNs  how far the present may miss its prediction and still be on time
 * @param deadlineNs how far the work may pass its deadline and still finish on time
 * @param startNs    how far a DisplayFrame's start may miss its prediction before it is early or late
 */
public record Thresholds(long presentNs, long deadlineNs, long startNs) {
    /** Android 16's default: 2 ms / 0 / 2 ms. */
    public static final Thresholds ANDROID_16_LEGACY = new Thresholds(2_000_000, 0, 2_000_000);
    /** Android 16 with {@code increase_missed_frame_jank_threshold}: a 4 ms present threshold. */
    public static final Thresholds ANDROID_16_EXTENDED = new Thresholds(4_000_000, 0, 2_000_000);

    public Thresholds {
        if (presentNs < 0 || deadlineNs < 0 || startNs < 0) {
            throw new IllegalArgumentException("thresholds must not be negative: present " + presentNs
                    + ", deadline " + deadlineNs + ", start " + startNs);
        }
    }
}
