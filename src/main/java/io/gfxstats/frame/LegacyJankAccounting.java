package io.gfxstats.frame;

import io.gfxstats.stats.Counters;
import io.gfxstats.stats.JankType;
import io.gfxstats.stats.StatsSink;

/**
 * The pre-Android-12 swap-deadline accounting that the modern tracker still runs on every frame.
 * It feeds only "Janky frames (legacy)", "Frame deadline missed (legacy)" and, like Android,
 * High input latency (so that counter can grow twice for one frame).
 */
final class LegacyJankAccounting {
    private final long refresh;
    private final long dequeueForgiveness;
    private final IntervalThresholds thresholds;
    private long swapDeadline = -1;

    LegacyJankAccounting(TrackerConfig config) {
        this.refresh = config.refreshIntervalNanos();
        this.dequeueForgiveness = config.dequeueForgivenessNanos();
        this.thresholds = new IntervalThresholds(refresh);
    }

    void account(FrameInfo frame, StatsSink sink) {
        long t = frame.duration(FrameInfo.INTENDED_VSYNC, FrameInfo.SWAP_BUFFERS_COMPLETED);
        if (dequeueForgiveness > 0) {
            long dequeue = frame.get(FrameInfo.DEQUEUE_BUFFER_DURATION);
            if (dequeue > 0) {
                t -= Math.min(dequeue, dequeueForgiveness);
            }
        }
        if (t <= 0 || frame.hasFlag(FrameInfo.FLAG_SURFACE_CANVAS)) {
            return;
        }
        if (t > refresh) {
            sink.increment(Counters.JANKY_FRAMES_LEGACY);
        }
        long intended = frame.get(FrameInfo.INTENDED_VSYNC);
        if (swapDeadline < 0) {
            swapDeadline = intended + refresh;
        }
        boolean tripleBuffered = thresholds.exceedsTenth(swapDeadline - intended);
        swapDeadline = Math.max(swapDeadline + refresh, intended + refresh);
        long completed = frame.get(FrameInfo.FRAME_COMPLETED);
        if (completed < swapDeadline || t < refresh) {
            if (tripleBuffered) {
                sink.increment(JankType.HIGH_INPUT_LATENCY.counter());
            }
        } else {
            sink.increment(JankType.MISSED_DEADLINE_LEGACY.counter());
            swapDeadline = completed - ((completed - frame.get(FrameInfo.VSYNC)) % refresh) + refresh;
        }
    }
}
