package io.gfxstats.timeline;

import java.util.Objects;

/**
 * SurfaceFlinger's FrameTimeline classification (Android 16 rules, spec sections 3.1, 3.2 and
 * the quirks of 3.4), written from the spec. Classify a {@link DisplayFrame} first, then each
 * {@link SurfaceFrame} latched in it. Stateless apart from its thresholds, allocation-free, and
 * safe to share between threads as long as the frames are not.
 */
public final class FrameTimelineClassifier {
    /**
     * When SurfaceFlinger's rules that the default follows were current: Android 16 shipped them,
     * and its QPR2 changed one ({@code buffer_stuffing_fix}). Help texts and docs name the rules by
     * this date (a test keeps them in step), since "Android 16" alone would cover both.
     */
    public static final String RULES_AS_OF = "April 2025";

    private final Thresholds thresholds;
    private final boolean bufferStuffingFix;

    /** Android 16's rules, as released ({@link #RULES_AS_OF}). */
    public FrameTimelineClassifier(Thresholds thresholds) {
        this(thresholds, false);
    }

    /**
     * With {@code bufferStuffingFix}, Android 16 QPR2's rule behind SurfaceFlinger's
     * {@code buffer_stuffing_fix} flag: a late SurfaceFrame that was ready before the previous
     * latch is Buffer Stuffing only if the layer's previous frame was due at this frame's vsync
     * or later ({@link SurfaceFrame#lastExpectedPresent}); otherwise the queue was not stuffed,
     * SurfaceFlinger started late, and the frame is judged as any other late frame (SurfaceFlinger
     * Scheduling or Prediction Error when it finished in time).
     */
    public FrameTimelineClassifier(Thresholds thresholds, boolean bufferStuffingFix) {
        this.thresholds = Objects.requireNonNull(thresholds, "thresholds");
        this.bufferStuffingFix = bufferStuffingFix;
    }

    /** Whether Android 16 QPR2's {@code buffer_stuffing_fix} rule applies. */
    public boolean bufferStuffingFix() {
        return bufferStuffingFix;
    }

    public Thresholds thresholds() {
        return thresholds;
    }

    /**
     * Classifies a DisplayFrame. {@code previousPresent} is the present time of the previous
     * DisplayFrame as given to it (0 before the first; it may be -1 after an invalid fence).
     */
    public void classify(DisplayFrame df, long previousPresent) {
        long t = thresholds.presentNs();
        df.jank = JankType.NONE;
        df.present = PresentMetadata.UNKNOWN;
        df.finish = FinishMetadata.UNKNOWN;
        df.start = StartMetadata.UNKNOWN;
        df.severity = Severity.NONE;
        df.classifiedPresent = df.actualPresent;
        df.deadlineDelta = 0;
        df.deltaToVsync = 0;

        boolean presentValid = df.actualPresent >= df.actualStart;
        if (df.prediction != Prediction.VALID || !presentValid) {
            df.jank = JankType.UNKNOWN;
            df.severity = Severity.UNKNOWN;
            if (!presentValid) {
                df.classifiedPresent = df.actualEnd;
                df.jank |= JankType.DISPLAY_HAL;
            }
            return;
        }

        long finishedAt = df.hasGpuFence ? Math.max(df.actualEnd, df.gpuFenceTime) : df.actualEnd;
        df.deadlineDelta = finishedAt - df.predictedEnd;
        long presentDelta = df.actualPresent - df.predictedPresent;
        df.deltaToVsync = toVsync(presentDelta, df.refreshPeriod);

        df.present = presentMetadata(presentDelta);
        if (df.present != PresentMetadata.ON_TIME) {
            df.severity = severity(presentDelta, df.renderPeriod);
        }
        df.finish = finishedAt > df.predictedEnd ? FinishMetadata.LATE : FinishMetadata.ON_TIME;
        long startDelta = df.actualStart - df.predictedStart;
        if (Math.abs(startDelta) > thresholds.startNs()) {
            df.start = startDelta > 0 ? StartMetadata.LATE : StartMetadata.EARLY;
        }

        boolean onCadence = onCadence(df.deltaToVsync, df.refreshPeriod);
        if (df.present == PresentMetadata.EARLY) {
            df.jank = df.finish == FinishMetadata.ON_TIME && !onCadence
                    ? JankType.PREDICTION_ERROR : JankType.SF_SCHEDULING;
        } else if (df.present == PresentMetadata.LATE) {
            // The previous frame was presented at this frame's expected vsync or later.
            boolean stuffed = Math.abs(df.predictedPresent - previousPresent) <= t
                    || previousPresent > df.predictedPresent;
            if (stuffed) {
                df.jank = JankType.SF_STUFFING;
            }
            if (df.finish == FinishMetadata.ON_TIME) {
                if (!stuffed) {
                    df.jank = onCadence ? JankType.DISPLAY_HAL : JankType.PREDICTION_ERROR;
                }
            } else if (!stuffed || df.actualPresent - previousPresent > df.refreshPeriod + t) {
                df.jank = df.hasGpuFence ? JankType.SF_GPU_DEADLINE_MISSED : JankType.SF_CPU_DEADLINE_MISSED;
            }
        }
    }

    /**
     * Classifies a SurfaceFrame latched in {@code df}, which must be classified already; the
     * frame's actual present is the DisplayFrame's present as given.
     */
    public void classify(SurfaceFrame sf, DisplayFrame df) {
        classify(sf, df.actualPresent, df.jank, df.refreshPeriod, df.renderPeriod);
    }

    /**
     * Classifies a SurfaceFrame presented at {@code actualPresent} by a DisplayFrame with jank
     * {@code displayJank}, refresh period {@code refresh} and render period {@code render}; the
     * client-only mode passes display jank None.
     */
    public void classify(SurfaceFrame sf, long actualPresent, int displayJank, long refresh, long render) {
        sf.jank = JankType.NONE;
        sf.present = PresentMetadata.UNKNOWN;
        sf.finish = FinishMetadata.UNKNOWN;
        sf.severity = Severity.NONE;
        sf.actualPresent = actualPresent;
        sf.deadlineDelta = 0;
        sf.classified = sf.prediction != Prediction.NONE;

        if (sf.actualPresent == DisplayFrame.INVALID_PRESENT) {
            sf.jank = JankType.UNKNOWN;
            sf.severity = Severity.UNKNOWN;
            sf.deadlineDelta = -1;
            return;
        }
        if (sf.prediction == Prediction.EXPIRED) {
            // A token evicted after 500 newer ones means a very late frame.
            sf.jank = sf.presentState != PresentState.PRESENTED ? JankType.DROPPED : JankType.APP_DEADLINE_MISSED;
            sf.severity = Severity.UNKNOWN;
            sf.deadlineDelta = -1;
            return;
        }
        if (sf.prediction == Prediction.NONE) {
            return;
        }

        sf.deadlineDelta = sf.actualEnd - sf.predictedEnd;
        long presentDelta = sf.actualPresent - sf.predictedPresent;
        long deltaToVsync = toVsync(presentDelta, refresh);
        boolean onCadence = onCadence(deltaToVsync, refresh);
        sf.finish = sf.deadlineDelta > thresholds.deadlineNs() ? FinishMetadata.LATE : FinishMetadata.ON_TIME;
        sf.present = presentMetadata(presentDelta);
        if (sf.present != PresentMetadata.ON_TIME) {
            sf.severity = severity(presentDelta, render);
        }

        if (sf.present == PresentMetadata.EARLY) {
            if (sf.finish == FinishMetadata.ON_TIME) {
                sf.jank = onCadence ? JankType.SF_SCHEDULING : JankType.PREDICTION_ERROR;
            } else {
                sf.jank = JankType.UNKNOWN;
            }
        } else if (sf.present == PresentMetadata.LATE) {
            boolean readyBeforePreviousLatch = sf.lastLatchTime != 0 && sf.predictedEnd <= sf.lastLatchTime;
            boolean dueLastFrame = !bufferStuffingFix || (sf.lastExpectedPresent != 0
                    && sf.predictedPresent - thresholds.presentNs() < sf.lastExpectedPresent);
            if (readyBeforePreviousLatch && dueLastFrame) {
                // Stuffed queue: the frame may have waited on dequeue; give it one period from the
                // previous latch before calling it late.
                sf.jank |= JankType.BUFFER_STUFFING;
                sf.finish = sf.lastLatchTime + render > sf.actualEnd ? FinishMetadata.ON_TIME : FinishMetadata.LATE;
            }
            if (sf.finish == FinishMetadata.ON_TIME) {
                if (displayJank != JankType.NONE) {
                    sf.jank |= displayJank;
                } else if ((sf.jank & JankType.BUFFER_STUFFING) == 0) {
                    sf.jank |= onCadence ? JankType.SF_SCHEDULING : JankType.PREDICTION_ERROR;
                }
            } else {
                sf.jank |= JankType.APP_DEADLINE_MISSED | displayJank;
            }
        }
        if (sf.presentState != PresentState.PRESENTED) {
            sf.jank = JankType.DROPPED;
            sf.actualPresent = 0;
            sf.severity = Severity.UNKNOWN;
        }
    }

    private PresentMetadata presentMetadata(long presentDelta) {
        if (Math.abs(presentDelta) > thresholds.presentNs()) {
            return presentDelta > 0 ? PresentMetadata.LATE : PresentMetadata.EARLY;
        }
        return PresentMetadata.ON_TIME;
    }

    private static Severity severity(long presentDelta, long renderPeriod) {
        return Math.abs(presentDelta) < renderPeriod ? Severity.PARTIAL : Severity.FULL;
    }

    /**
     * A SurfaceFrame of a commit that was not composited: SurfaceFlinger takes its predicted
     * present as its present and classifies it with display jank None; it is not reported.
     */
    public void classifyNotComposited(SurfaceFrame sf, DisplayFrame df) {
        classify(sf, sf.predictedPresent, JankType.NONE, df.refreshPeriod, df.renderPeriod);
        sf.classified = false;
    }

    private static long toVsync(long presentDelta, long period) {
        return period > 0 ? Math.abs(presentDelta) % period : 0;
    }

    private boolean onCadence(long deltaToVsync, long period) {
        long t = thresholds.presentNs();
        return deltaToVsync < t || deltaToVsync >= period - t;
    }
}
