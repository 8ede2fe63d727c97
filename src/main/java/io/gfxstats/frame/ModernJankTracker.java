package io.gfxstats.frame;

import io.gfxstats.stats.Counters;
import io.gfxstats.stats.Histograms;
import io.gfxstats.stats.JankType;
import io.gfxstats.stats.StatsSink;

/**
 * Android 12+ jank rules: a frame is janky when its GPU work completes after its deadline;
 * a frame that meets an extended deadline because the pipeline was stuffed (triple buffered)
 * is not janky but counts as high input latency.
 *
 * <p>The pre-Android-12 swap-deadline accounting still runs first on every frame, as on
 * Android. It feeds only "Janky frames (legacy)", "Frame deadline missed (legacy)" and, like
 * Android, High input latency (so that counter can grow twice for one frame).
 *
 * <p>Recording a frame is on the rendering thread's path, so both rule sets run in one pass:
 * each field is read once, and the SyncQueued-to-SyncStart stall that both of their durations
 * subtract is computed once. Renderers that only know a frame's main times use
 * {@link #finishFrame(long, long, long, long, long, StatsSink)}, which counts exactly what
 * {@link #finishFrame(FrameInfo, StatsSink)} counts for such a frame without going through a
 * FrameInfo.
 */
public final class ModernJankTracker implements FrameTracker {
    private static final int HIGH_INPUT_LATENCY = JankType.HIGH_INPUT_LATENCY.counter();
    private static final int MISSED_DEADLINE = JankType.MISSED_DEADLINE.counter();
    private static final int MISSED_DEADLINE_LEGACY = JankType.MISSED_DEADLINE_LEGACY.counter();

    private final long refresh;
    private final long dequeueForgiveness;
    private final long defaultInterval;
    private final boolean extendDeadlines;
    private final DaveyListener daveys;
    /** Thresholds of the refresh interval, for the legacy accounting. */
    private final IntervalThresholds legacyThresholds;
    /** Thresholds of the current frame interval, for the modern rules. */
    private final IntervalThresholds thresholds;
    private long swapDeadline = -1;
    private long nextFrameStartUnstuffed = -1;
    /** For Davey reports of frames given by their times only; made at the first one. */
    private FrameInfo daveyFrame;

    public ModernJankTracker(TrackerConfig config, DaveyListener daveys) {
        this.refresh = config.refreshIntervalNanos();
        this.dequeueForgiveness = config.dequeueForgivenessNanos();
        this.defaultInterval = config.defaultFrameIntervalNanos();
        this.extendDeadlines = !config.deadlinesAlreadyExtended();
        this.daveys = daveys;
        this.legacyThresholds = new IntervalThresholds(refresh);
        this.thresholds = new IntervalThresholds(defaultInterval);
    }

    public ModernJankTracker(TrackerConfig config) {
        this(config, DaveyListener.logging());
    }

    @Override
    public void finishFrame(FrameInfo frame, StatsSink sink) {
        long intended = frame.get(FrameInfo.INTENDED_VSYNC);
        long vsync = frame.get(FrameInfo.VSYNC);
        long completed = frame.get(FrameInfo.FRAME_COMPLETED);
        boolean canvas = frame.hasFlag(FrameInfo.FLAG_SURFACE_CANVAS);
        // FrameInfo.duration from IntendedVsync to FrameCompleted and to SwapBuffersCompleted:
        // both spans cross SyncQueued, so both lose the same stall.
        long stall = Math.max(frame.get(FrameInfo.SYNC_START) - frame.get(FrameInfo.SYNC_QUEUED), 0);
        long total = 0;
        long swapTime = 0;
        if (intended > 0) {
            total = Math.max(completed - intended - stall, 0);
            swapTime = Math.max(frame.get(FrameInfo.SWAP_BUFFERS_COMPLETED) - intended - stall, 0);
        }
        if (dequeueForgiveness > 0) {
            long dequeue = frame.get(FrameInfo.DEQUEUE_BUFFER_DURATION);
            if (dequeue > 0) {
                swapTime -= Math.min(dequeue, dequeueForgiveness);
            }
        }
        boolean legacyLatency = swapTime > 0 && !canvas
                && accountLegacy(swapTime, intended, vsync, completed, sink);
        if (total <= 0) {
            if (legacyLatency) {
                sink.increment(HIGH_INPUT_LATENCY);
            }
            return;
        }
        countTotal(total, sink);
        if (canvas) {
            return;
        }
        long interval = frame.get(FrameInfo.FRAME_INTERVAL);
        if (interval <= 0) {
            interval = defaultInterval;
        }
        IntervalThresholds t = thresholds.update(interval);
        long gpuCompleted = frame.get(FrameInfo.GPU_COMPLETED);
        if (missesDeadline(t, interval, intended, vsync, frame.get(FrameInfo.FRAME_DEADLINE), gpuCompleted,
                legacyLatency, sink)) {
            JankChecks.count(frame, t, sink);
        }
        countGpu(gpuCompleted, frame.get(FrameInfo.SWAP_BUFFERS), sink);
        if (total >= DaveyListener.DAVEY_THRESHOLD_NANOS) {
            daveys.onDavey(total, frame);
        }
    }

    /**
     * Counts a frame known only by these times (CLOCK_MONOTONIC nanoseconds), exactly as
     * {@link #finishFrame(FrameInfo, StatsSink)} counts the FrameInfo that
     * {@link FrameInfo#setMainTimes} fills from them, with flags and every other field 0. A Davey
     * is reported with such a FrameInfo.
     */
    public void finishFrame(long intendedVsync, long vsync, long frameCompleted, long gpuCompleted,
                            long frameIntervalNanos, StatsSink sink) {
        // No stall (SyncQueued = SyncStart = 0), no dequeue time: the legacy span is the total.
        long total = intendedVsync > 0 ? Math.max(frameCompleted - intendedVsync, 0) : 0;
        if (total <= 0) {
            return;
        }
        boolean legacyLatency = accountLegacy(total, intendedVsync, vsync, frameCompleted, sink);
        countTotal(total, sink);
        long interval = frameIntervalNanos > 0 ? frameIntervalNanos : defaultInterval;
        IntervalThresholds t = thresholds.update(interval);
        if (missesDeadline(t, interval, intendedVsync, vsync, intendedVsync + frameIntervalNanos, gpuCompleted,
                legacyLatency, sink)) {
            JankChecks.countWithoutStages(intendedVsync, vsync, t, sink);
        }
        countGpu(gpuCompleted, frameCompleted, sink);
        if (total >= DaveyListener.DAVEY_THRESHOLD_NANOS) {
            reportDavey(total, intendedVsync, vsync, frameCompleted, gpuCompleted, frameIntervalNanos);
        }
    }

    /**
     * The legacy swap-deadline accounting of a frame whose swap span is positive. Returns
     * whether it finds high input latency, which the caller counts next to the modern rule's
     * (one frame often has both).
     */
    private boolean accountLegacy(long swapTime, long intended, long vsync, long completed, StatsSink sink) {
        long r = refresh;
        if (swapTime > r) {
            sink.increment(Counters.JANKY_FRAMES_LEGACY);
        }
        long deadline = swapDeadline;
        if (deadline < 0) {
            deadline = intended + r;
        }
        boolean stuffed = legacyThresholds.exceedsTenth(deadline - intended);
        deadline = Math.max(deadline + r, intended + r);
        boolean latency = false;
        if (completed < deadline || swapTime < r) {
            latency = stuffed;
        } else {
            sink.increment(MISSED_DEADLINE_LEGACY);
            deadline = completed - Periods.remainder(completed - vsync, r) + r;
        }
        swapDeadline = deadline;
        return latency;
    }

    private static void countTotal(long total, StatsSink sink) {
        sink.increment(Counters.TOTAL_FRAMES);
        sink.increment(Counters.CPU_BUCKET_BASE + Histograms.cpuBucketIndex(total));
    }

    /**
     * The modern deadline rule; counts high input latency, or a missed deadline. Returns true
     * when the frame missed its deadline (the caller then counts its causes).
     */
    private boolean missesDeadline(IntervalThresholds t, long interval, long intended, long vsync, long deadline,
                                   long gpuCompleted, boolean legacyLatency, StatsSink sink) {
        if (legacyLatency) {
            sink.increment(HIGH_INPUT_LATENCY);
        }
        boolean tripleBuffered = t.exceedsTenth(nextFrameStartUnstuffed - intended);
        if (tripleBuffered && extendDeadlines) {
            deadline += interval;
        }
        if (gpuCompleted < deadline) {
            if (tripleBuffered) {
                sink.increment(HIGH_INPUT_LATENCY);
                nextFrameStartUnstuffed += interval;
            }
            return false;
        }
        sink.increment(MISSED_DEADLINE);
        sink.increment(Counters.JANKY_FRAMES);
        long jitter = gpuCompleted - vsync;
        nextFrameStartUnstuffed = gpuCompleted - Periods.remainder(jitter, interval) + interval;
        return true;
    }

    private static void countGpu(long gpuCompleted, long swapBuffers, StatsSink sink) {
        if (gpuCompleted > 0) {
            long gpu = gpuCompleted - swapBuffers;
            if (gpu >= 0) {
                sink.increment(Counters.GPU_BUCKET_BASE + Histograms.gpuBucketIndex(gpu));
            }
        }
    }

    private void reportDavey(long total, long intendedVsync, long vsync, long frameCompleted, long gpuCompleted,
                             long frameIntervalNanos) {
        FrameInfo f = daveyFrame;
        if (f == null) {
            f = new FrameInfo();
            daveyFrame = f;
        }
        daveys.onDavey(total, f.setMainTimes(intendedVsync, vsync, frameCompleted, gpuCompleted, frameIntervalNanos));
    }
}
