package io.gfxstats.frame;

import io.gfxstats.stats.FrameOutcome;
import io.gfxstats.stats.Histograms;
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
 *
 * <p>The rules decide; a sink counts. {@link #classify(FrameInfo)} and
 * {@link #classify(long, long, long, long, long)} return what a frame adds as one
 * {@link FrameOutcome}, so that a writer on the per-frame path can count it in one pass instead
 * of one call per counter; {@code finishFrame} counts the same outcome into any sink.
 */
public final class ModernJankTracker implements FrameTracker {
    private final long refresh;
    private final long dequeueForgiveness;
    private final long defaultInterval;
    private final boolean extendDeadlines;
    private final DaveyListener daveys;
    /** The legacy accounting's stuffed-pipeline bound: {@link IntervalThresholds#tenthBound} of the refresh. */
    private final long legacyTenthBound;
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
        this.legacyTenthBound = IntervalThresholds.tenthBound(refresh);
        this.thresholds = new IntervalThresholds(defaultInterval);
    }

    public ModernJankTracker(TrackerConfig config) {
        this(config, DaveyListener.logging());
    }

    /** The legacy accounting's swap deadline after the last frame (-1 before the first). */
    public long swapDeadline() {
        return swapDeadline;
    }

    /** When the next frame starts if the pipeline is not stuffed (-1 before the first frame). */
    public long nextFrameStartUnstuffed() {
        return nextFrameStartUnstuffed;
    }

    /**
     * Continues from the state another tracker with the same settings had after some frames
     * ({@link #swapDeadline()}, {@link #nextFrameStartUnstuffed()}): the daemon counts what a
     * killed native client left in its ring from the client's checkpoint (docs/buffer-format.md,
     * "Ring group").
     */
    public void restoreState(long swapDeadline, long nextFrameStartUnstuffed) {
        this.swapDeadline = swapDeadline;
        this.nextFrameStartUnstuffed = nextFrameStartUnstuffed;
    }

    @Override
    public void finishFrame(FrameInfo frame, StatsSink sink) {
        FrameOutcome.countInto(classify(frame), sink);
    }

    /**
     * Classifies one finished frame: what it adds to the counters ({@link FrameOutcome}), with
     * this tracker's deadline state moved on as by {@link #finishFrame(FrameInfo, StatsSink)}.
     */
    public int classify(FrameInfo frame) {
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
        int outcome = swapTime > 0 && !canvas ? accountLegacy(swapTime, intended, vsync, completed) : 0;
        if (total <= 0) {
            return outcome; // the legacy accounting's counters only, no frame
        }
        outcome |= FrameOutcome.counted(Histograms.cpuBucketIndex(total));
        if (canvas) {
            return outcome;
        }
        long interval = frame.get(FrameInfo.FRAME_INTERVAL);
        if (interval <= 0) {
            interval = defaultInterval;
        }
        IntervalThresholds t = thresholds.update(interval);
        long gpuCompleted = frame.get(FrameInfo.GPU_COMPLETED);
        int modern = missesDeadline(t, interval, intended, vsync, frame.get(FrameInfo.FRAME_DEADLINE), gpuCompleted);
        outcome += modern;
        if (modern == FrameOutcome.MISSED_AND_JANKY) {
            outcome |= JankChecks.bits(frame, t);
        }
        outcome |= gpuBits(gpuCompleted, frame.get(FrameInfo.SWAP_BUFFERS));
        if (total >= DaveyListener.DAVEY_THRESHOLD_NANOS) {
            daveys.onDavey(total, frame);
        }
        return outcome;
    }

    /**
     * Counts a frame known only by these times (CLOCK_MONOTONIC nanoseconds), exactly as
     * {@link #finishFrame(FrameInfo, StatsSink)} counts the FrameInfo that
     * {@link FrameInfo#setMainTimes} fills from them, with flags and every other field 0. A Davey
     * is reported with such a FrameInfo.
     */
    public void finishFrame(long intendedVsync, long vsync, long frameCompleted, long gpuCompleted,
                            long frameIntervalNanos, StatsSink sink) {
        FrameOutcome.countInto(classify(intendedVsync, vsync, frameCompleted, gpuCompleted, frameIntervalNanos), sink);
    }

    /**
     * {@link #classify(FrameInfo)} for a frame known only by these times: what
     * {@link #finishFrame(long, long, long, long, long, StatsSink)} counts.
     */
    public int classify(long intendedVsync, long vsync, long frameCompleted, long gpuCompleted,
                        long frameIntervalNanos) {
        // No stall (SyncQueued = SyncStart = 0), no dequeue time: the legacy span is the total.
        long total = frameCompleted - intendedVsync;
        if (intendedVsync <= 0 || total <= 0) {
            return FrameOutcome.NONE;
        }
        int outcome = accountLegacy(total, intendedVsync, vsync, frameCompleted)
                | FrameOutcome.counted(Histograms.cpuBucketIndex(total));
        long interval = frameIntervalNanos > 0 ? frameIntervalNanos : defaultInterval;
        IntervalThresholds t = thresholds.update(interval);
        int modern = missesDeadline(t, interval, intendedVsync, vsync, intendedVsync + frameIntervalNanos,
                gpuCompleted);
        outcome += modern;
        if (modern == FrameOutcome.MISSED_AND_JANKY) {
            outcome |= JankChecks.bitsWithoutStages(intendedVsync, vsync, t);
        }
        outcome |= gpuBits(gpuCompleted, frameCompleted);
        if (total >= DaveyListener.DAVEY_THRESHOLD_NANOS) {
            reportDavey(total, intendedVsync, vsync, frameCompleted, gpuCompleted, frameIntervalNanos);
        }
        return outcome;
    }

    /**
     * The legacy swap-deadline accounting of a frame whose swap span is positive: Janky frames
     * (legacy), Frame deadline missed (legacy) and its own High input latency, which counts next
     * to the modern rule's (one frame often has both).
     */
    private int accountLegacy(long swapTime, long intended, long vsync, long completed) {
        long r = refresh;
        int outcome = swapTime > r ? FrameOutcome.JANKY_LEGACY : 0;
        long deadline = swapDeadline;
        if (deadline < 0) {
            deadline = intended + r;
        }
        boolean stuffed = deadline - intended > legacyTenthBound;
        deadline = Math.max(deadline + r, intended + r);
        if (completed < deadline || swapTime < r) {
            if (stuffed) {
                outcome += FrameOutcome.LATENCY_ONE;
            }
        } else {
            outcome |= FrameOutcome.MISSED_DEADLINE_LEGACY;
            deadline = completed - Periods.remainder(completed - vsync, r) + r;
        }
        swapDeadline = deadline;
        return outcome;
    }

    /**
     * The modern deadline rule: {@link FrameOutcome#LATENCY_ONE} when a triple-buffered frame met
     * its (extended) deadline, {@link FrameOutcome#MISSED_AND_JANKY} when the frame missed it
     * (the caller then checks its causes), else 0.
     */
    private int missesDeadline(IntervalThresholds t, long interval, long intended, long vsync, long deadline,
                               long gpuCompleted) {
        boolean tripleBuffered = t.exceedsTenth(nextFrameStartUnstuffed - intended);
        if (tripleBuffered && extendDeadlines) {
            deadline += interval;
        }
        if (gpuCompleted < deadline) {
            if (tripleBuffered) {
                nextFrameStartUnstuffed += interval;
                return FrameOutcome.LATENCY_ONE;
            }
            return 0;
        }
        long jitter = gpuCompleted - vsync;
        nextFrameStartUnstuffed = gpuCompleted - Periods.remainder(jitter, interval) + interval;
        return FrameOutcome.MISSED_AND_JANKY;
    }

    /** The GPU bucket bits of a frame whose GPU finished at {@code gpuCompleted}, if it did after the swap. */
    private static int gpuBits(long gpuCompleted, long swapBuffers) {
        if (gpuCompleted > 0) {
            long gpu = gpuCompleted - swapBuffers;
            if (gpu >= 0) {
                return FrameOutcome.withGpu(0, Histograms.gpuBucketIndex(gpu));
            }
        }
        return 0;
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
