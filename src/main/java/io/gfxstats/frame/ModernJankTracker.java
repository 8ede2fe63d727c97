package io.gfxstats.frame;

import io.gfxstats.stats.Counters;
import io.gfxstats.stats.JankType;
import io.gfxstats.stats.StatsSink;

/**
 * Android 12+ jank rules: a frame is janky when its GPU work completes after its deadline;
 * a frame that meets an extended deadline because the pipeline was stuffed (triple buffered)
 * is not janky but counts as high input latency. Legacy accounting runs first on every frame.
 */
public final class ModernJankTracker implements FrameTracker {
    private final TrackerConfig config;
    private final LegacyJankAccounting legacy;
    private final DaveyListener daveys;
    private long nextFrameStartUnstuffed = -1;
    private final IntervalThresholds thresholds;

    public ModernJankTracker(TrackerConfig config, DaveyListener daveys) {
        this.config = config;
        this.legacy = new LegacyJankAccounting(config);
        this.daveys = daveys;
        this.thresholds = new IntervalThresholds(config.defaultFrameIntervalNanos());
    }

    public ModernJankTracker(TrackerConfig config) {
        this(config, DaveyListener.logging());
    }

    @Override
    public void finishFrame(FrameInfo frame, StatsSink sink) {
        legacy.account(frame, sink);

        long total = frame.duration(FrameInfo.INTENDED_VSYNC, FrameInfo.FRAME_COMPLETED);
        if (total <= 0) {
            return;
        }
        sink.increment(Counters.TOTAL_FRAMES);
        sink.increment(Counters.cpuCounterForNanos(total));
        if (frame.hasFlag(FrameInfo.FLAG_SURFACE_CANVAS)) {
            return;
        }

        long interval = frame.get(FrameInfo.FRAME_INTERVAL);
        if (interval <= 0) {
            interval = config.defaultFrameIntervalNanos();
        }
        long intended = frame.get(FrameInfo.INTENDED_VSYNC);
        IntervalThresholds t = thresholds.update(interval);
        boolean tripleBuffered = t.exceedsTenth(nextFrameStartUnstuffed - intended);
        long deadline = frame.get(FrameInfo.FRAME_DEADLINE);
        if (tripleBuffered && !config.deadlinesAlreadyExtended()) {
            deadline += interval;
        }

        long gpuCompleted = frame.get(FrameInfo.GPU_COMPLETED);
        if (gpuCompleted < deadline) {
            if (tripleBuffered) {
                sink.increment(JankType.HIGH_INPUT_LATENCY.counter());
                nextFrameStartUnstuffed += interval;
            }
        } else {
            sink.increment(JankType.MISSED_DEADLINE.counter());
            sink.increment(Counters.JANKY_FRAMES);
            long jitter = gpuCompleted - frame.get(FrameInfo.VSYNC);
            nextFrameStartUnstuffed = gpuCompleted - (jitter % interval) + interval;
            JankChecks.count(frame, t, sink);
        }

        if (gpuCompleted > 0) {
            long gpu = gpuCompleted - frame.get(FrameInfo.SWAP_BUFFERS);
            if (gpu >= 0) {
                sink.increment(Counters.gpuCounterForNanos(gpu));
            }
        }

        if (total >= DaveyListener.DAVEY_THRESHOLD_NANOS) {
            daveys.onDavey(total, frame);
        }
    }
}
