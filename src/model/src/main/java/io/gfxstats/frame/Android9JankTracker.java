package io.gfxstats.frame;

import io.gfxstats.stats.Counters;
import io.gfxstats.stats.JankType;
import io.gfxstats.stats.StatsSink;

/**
 * The Android 9 tracker, for input without deadline, interval or GPU fields (16-column
 * framestats): janky means longer than one display refresh; deadlines follow the swap chain.
 */
public final class Android9JankTracker implements FrameTracker {
    private final long refresh;
    private final DaveyListener daveys;
    private long swapDeadline = -1;
    private final IntervalThresholds thresholds;

    public Android9JankTracker(TrackerConfig config, DaveyListener daveys) {
        this.refresh = config.refreshIntervalNanos();
        this.daveys = daveys;
        this.thresholds = new IntervalThresholds(refresh);
    }

    public Android9JankTracker(TrackerConfig config) {
        this(config, DaveyListener.logging());
    }

    /** The swap deadline after the last frame (-1 before the first). */
    public long swapDeadline() {
        return swapDeadline;
    }

    /** Continues from another such tracker's {@link #swapDeadline()} (see ModernJankTracker#restoreState). */
    public void restoreState(long swapDeadline) {
        this.swapDeadline = swapDeadline;
    }

    @Override
    public void finishFrame(FrameInfo frame, StatsSink sink) {
        long total = frame.duration(FrameInfo.INTENDED_VSYNC, FrameInfo.FRAME_COMPLETED);
        if (total <= 0) {
            return;
        }
        sink.increment(Counters.TOTAL_FRAMES);
        sink.increment(Counters.cpuCounterForNanos(total));
        if (frame.hasFlag(FrameInfo.FLAG_SURFACE_CANVAS)) {
            return;
        }
        if (total >= DaveyListener.DAVEY_THRESHOLD_NANOS) {
            daveys.onDavey(total, frame);
        }
        if (total > refresh) {
            sink.increment(Counters.JANKY_FRAMES);
        }
        long intended = frame.get(FrameInfo.INTENDED_VSYNC);
        boolean tripleBuffered = swapDeadline > intended;
        swapDeadline = Math.max(swapDeadline + refresh, intended + refresh);
        long completed = frame.get(FrameInfo.FRAME_COMPLETED);
        if (completed < swapDeadline) {
            if (tripleBuffered) {
                sink.increment(JankType.HIGH_INPUT_LATENCY.counter());
            }
            return;
        }
        sink.increment(JankType.MISSED_DEADLINE.counter());
        swapDeadline = completed - ((completed - frame.get(FrameInfo.VSYNC)) % refresh) + refresh;
        JankChecks.count(frame, thresholds, sink);
    }
}
