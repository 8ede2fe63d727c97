package io.gfxstats.timeline;

import java.util.Arrays;

/**
 * FrameTimeline counters of classified SurfaceFrames ({@link TimelineCounter} order): what the
 * client counts into its mapped buffer, the daemon saves and merges by addition, and the
 * {@code perfetto} command counts per process and layer. {@link #add} allocates nothing.
 * Not thread-safe.
 */
public final class TimelineCounters implements TimelineSink {
    private final long[] values = new long[TimelineCounter.COUNT];

    public long get(TimelineCounter c) {
        return values[c.ordinal()];
    }

    public long get(int ordinal) {
        return values[ordinal];
    }

    public void set(int ordinal, long value) {
        values[ordinal] = value;
    }

    /** The count of jank bit number {@code index} in {@link JankType}'s table order. */
    public long jank(int index) {
        return values[TimelineCounter.FIRST_JANK + index];
    }

    public long presentDelay(int bucket) {
        return values[TimelineCounter.FIRST_PRESENT_DELAY + bucket];
    }

    /** A copy of the values, in {@link TimelineCounter} order. */
    public long[] toArray() {
        return values.clone();
    }

    public static TimelineCounters of(long[] values) {
        if (values.length != TimelineCounter.COUNT) {
            throw new IllegalArgumentException("expected " + TimelineCounter.COUNT + " counters, got " + values.length);
        }
        TimelineCounters c = new TimelineCounters();
        System.arraycopy(values, 0, c.values, 0, values.length);
        return c;
    }

    /** Adds every counter of {@code other} (merge by addition). */
    public TimelineCounters addAll(TimelineCounters other) {
        for (int i = 0; i < values.length; i++) {
            values[i] += other.values[i];
        }
        return this;
    }

    public boolean isEmpty() {
        for (long v : values) {
            if (v != 0) {
                return false;
            }
        }
        return true;
    }

    /**
     * Counts one classified SurfaceFrame. {@code displayKnown} is false in client-only mode,
     * where the frame was classified with display jank None for want of compositor data.
     */
    public void add(SurfaceFrame sf, boolean displayKnown) {
        count(this, sf, displayKnown);
    }

    /** Counts one classified SurfaceFrame into {@code sink}. */
    public static void count(TimelineSink sink, SurfaceFrame sf, boolean displayKnown) {
        count(sink, sf.prediction(), sf.presentState(), sf.jank(), sf.present(), sf.finish(), sf.severity(),
                sf.actualPresent() - sf.predictedPresent(), true, displayKnown);
    }

    /**
     * Counts one frame from its classification into this; see
     * {@link #count(TimelineSink, Prediction, PresentState, int, PresentMetadata, FinishMetadata, Severity, long, boolean, boolean)}.
     */
    public void add(Prediction prediction, PresentState state, int jank, PresentMetadata present,
            FinishMetadata finish, Severity severity, long presentDelayNs, boolean delayKnown, boolean displayKnown) {
        count(this, prediction, state, jank, present, finish, severity, presentDelayNs, delayKnown, displayKnown);
    }

    @Override
    public void incrementTimeline(int counter) {
        values[counter]++;
    }

    /**
     * Counts one frame from its classification. {@code presentDelayNs} (actual minus predicted
     * present) goes into the histogram when {@code delayKnown}, for presented frames with a valid
     * prediction and a known present.
     */
    public static void count(TimelineSink sink, Prediction prediction, PresentState state, int jank, PresentMetadata present,
            FinishMetadata finish, Severity severity, long presentDelayNs, boolean delayKnown, boolean displayKnown) {
        count(sink, prediction, state, jank, present, finish, severity, presentDelayNs, delayKnown, displayKnown, false);
    }

    /**
     * Counts one frame as a trace recorded it. SurfaceFlinger classifies nothing without a
     * prediction, but a trace carries whatever jank and present type the frame was written with,
     * and Perfetto counts those whatever the prediction type (PREDICTION_UNKNOWN included): here
     * they are counted too, under {@link TimelineCounter#PREDICTION_NONE}.
     */
    public static void countTraced(TimelineSink sink, Prediction prediction, PresentState state, int jank,
            PresentMetadata present, FinishMetadata finish, Severity severity, long presentDelayNs, boolean delayKnown,
            boolean displayKnown) {
        count(sink, prediction, state, jank, present, finish, severity, presentDelayNs, delayKnown, displayKnown, true);
    }

    private static void count(TimelineSink sink, Prediction prediction, PresentState state, int jank, PresentMetadata present,
            FinishMetadata finish, Severity severity, long presentDelayNs, boolean delayKnown, boolean displayKnown,
            boolean traced) {
        sink.incrementTimeline(TimelineCounter.FRAMES.ordinal());
        sink.incrementTimeline((switch (prediction) {
            case VALID -> TimelineCounter.PREDICTION_VALID;
            case EXPIRED -> TimelineCounter.PREDICTION_EXPIRED;
            case NONE -> TimelineCounter.PREDICTION_NONE;
        }).ordinal());
        if (prediction == Prediction.NONE && !traced) {
            return;
        }
        sink.incrementTimeline(TimelineCounter.TIMELINE_FRAMES.ordinal());
        if (JankType.isTimeStatsJanky(jank)) {
            sink.incrementTimeline(TimelineCounter.JANKY_FRAMES.ordinal());
        }
        // Bit i of the mask is jank type i of the table (JankType keeps them so): visit set bits only.
        for (int m = jank & JankType.ALL; m != 0; m &= m - 1) {
            sink.incrementTimeline(TimelineCounter.FIRST_JANK + Integer.numberOfTrailingZeros(m));
        }
        TimelineCounter p;
        if (state == PresentState.DROPPED) {
            p = TimelineCounter.PRESENT_DROPPED;
        } else {
            p = switch (present) {
                case ON_TIME -> TimelineCounter.PRESENT_ON_TIME;
                case LATE -> TimelineCounter.PRESENT_LATE;
                case EARLY -> TimelineCounter.PRESENT_EARLY;
                case UNKNOWN -> TimelineCounter.PRESENT_UNKNOWN;
            };
        }
        sink.incrementTimeline(p.ordinal());
        sink.incrementTimeline((switch (finish) {
            case ON_TIME -> TimelineCounter.FINISH_ON_TIME;
            case LATE -> TimelineCounter.FINISH_LATE;
            case UNKNOWN -> TimelineCounter.FINISH_UNKNOWN;
        }).ordinal());
        sink.incrementTimeline((switch (severity) {
            case NONE -> TimelineCounter.SEVERITY_NONE;
            case PARTIAL -> TimelineCounter.SEVERITY_PARTIAL;
            case FULL -> TimelineCounter.SEVERITY_FULL;
            case UNKNOWN -> TimelineCounter.SEVERITY_UNKNOWN;
        }).ordinal());
        if (!displayKnown) {
            sink.incrementTimeline(TimelineCounter.DISPLAY_UNKNOWN_FRAMES.ordinal());
            if (present == PresentMetadata.LATE && state != PresentState.DROPPED
                    && (jank & (JankType.SF_SCHEDULING | JankType.PREDICTION_ERROR)) != 0) {
                sink.incrementTimeline(TimelineCounter.LATE_DISPLAY_UNKNOWN.ordinal());
            }
        }
        if (delayKnown && prediction == Prediction.VALID && state != PresentState.DROPPED
                && present != PresentMetadata.UNKNOWN) {
            sink.incrementTimeline(TimelineCounter.FIRST_PRESENT_DELAY + TimelineCounter.presentDelayBucket(presentDelayNs));
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TimelineCounters other && Arrays.equals(values, other.values);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(values);
    }

    @Override
    public String toString() {
        return "TimelineCounters" + Arrays.toString(values);
    }
}
