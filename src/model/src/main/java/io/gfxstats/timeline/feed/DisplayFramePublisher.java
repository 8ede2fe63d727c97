package io.gfxstats.timeline.feed;

import io.gfxstats.timeline.DisplayFrame;
import io.gfxstats.timeline.FrameTimelineClassifier;
import io.gfxstats.timeline.Thresholds;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * The daemon's half of compositor mode: classifies the DisplayFrames a compositor reports (per
 * output, in presentation order, each with its output's previous present, spec 3.1) and publishes
 * each outcome by (output, MSC) in the ring its clients read. Thread-safe (calls are serialised).
 */
public final class DisplayFramePublisher implements AutoCloseable {
    private final FrameTimelineClassifier classifier;
    private final DisplayOutcomeWriter ring;
    /** Distinct outputs a daemon keeps state for: far more than displays, few enough to bound memory. */
    public static final int MAX_OUTPUTS = 256;
    /**
     * An output that has presented nothing for this long may give its place to a new one: real
     * compositors get new output ids at every monitor hot-plug, and a feed that once named
     * thousands of ids must not refuse every new one until the daemon restarts (issue 26).
     */
    public static final long OUTPUT_IDLE_NANOS = 60_000_000_000L;

    /** In order of last publication, oldest first. */
    private final Map<Long, OutputState> outputs = new LinkedHashMap<>(16, 0.75f, true);
    private final LongSupplier nanoClock;

    private static final class OutputState {
        long lastMsc;
        long previousPresent;
        long lastPublishedNanos;
    }

    public DisplayFramePublisher(Thresholds thresholds, DisplayOutcomeWriter ring) {
        this(thresholds, ring, System::nanoTime);
    }

    /** @param nanoClock monotonic nanoseconds (tests move it) */
    public DisplayFramePublisher(Thresholds thresholds, DisplayOutcomeWriter ring,
                                 LongSupplier nanoClock) {
        this.classifier = new FrameTimelineClassifier(thresholds);
        this.ring = Objects.requireNonNull(ring, "ring");
        this.nanoClock = nanoClock;
    }

    public Path ringPath() {
        return ring.path();
    }

    /** Entries published so far. */
    public synchronized long published() {
        return ring.published();
    }

    /**
     * The problem with publishing a frame of {@code output} at {@code msc} now, or null: an
     * output's MSCs must increase, except that the first frame of an output in a new feed (a
     * compositor that restarted, a display that was re-plugged) may start lower; at most
     * {@link #MAX_OUTPUTS} outputs, of which the one idle longest makes room once it has been
     * idle for {@link #OUTPUT_IDLE_NANOS}.
     */
    public synchronized String check(long output, long msc, boolean firstOfFeed) {
        OutputState s = outputs.get(output);
        if (s == null && outputs.size() >= MAX_OUTPUTS && !forgetIdleOutput()) {
            return "output " + Long.toUnsignedString(output) + " would be output number " + (MAX_OUTPUTS + 1)
                    + "; the daemon keeps at most " + MAX_OUTPUTS + " that presented in the last "
                    + OUTPUT_IDLE_NANOS / 1_000_000_000L + " s (output ids are the outputs' wl_registry names)";
        }
        if (s == null || firstOfFeed || msc > s.lastMsc) {
            return null;
        }
        return "output " + Long.toUnsignedString(output) + " msc " + Long.toUnsignedString(msc)
                + " is not after msc " + Long.toUnsignedString(s.lastMsc)
                + " (an output's frames must come in presentation order)";
    }

    /**
     * {@link #check}, then {@link #publish} if there is no problem, as one step (feeds of the same
     * output may run at once); returns the problem or null.
     */
    public synchronized String checkAndPublish(long output, long msc, DisplayFrame df, boolean firstOfFeed) {
        String problem = check(output, msc, firstOfFeed);
        if (problem == null) {
            publish(output, msc, df, firstOfFeed);
        }
        return problem;
    }

    /**
     * Classifies {@code df} (its inputs set; its results are overwritten) as the frame of
     * {@code output} shown at {@code msc} and publishes it. {@code firstOfFeed}: the first frame
     * of this output in a new feed, whose lower MSC restarts the output (previous present 0).
     */
    public synchronized void publish(long output, long msc, DisplayFrame df, boolean firstOfFeed) {
        OutputState s = outputs.computeIfAbsent(output, o -> new OutputState());
        if (firstOfFeed && msc <= s.lastMsc) {
            s.previousPresent = 0;
        }
        classifier.classify(df, s.previousPresent);
        s.previousPresent = df.actualPresent();
        s.lastMsc = msc;
        s.lastPublishedNanos = nanoClock.getAsLong();
        ring.publish(output, msc, df);
    }

    /** Forgets the output idle longest if it has been idle long enough; whether it did. */
    private boolean forgetIdleOutput() {
        Iterator<OutputState> oldest = outputs.values().iterator();
        if (oldest.hasNext() && nanoClock.getAsLong() - oldest.next().lastPublishedNanos >= OUTPUT_IDLE_NANOS) {
            oldest.remove();
            return true;
        }
        return false;
    }

    @Override
    public synchronized void close() {
        ring.close();
    }
}
