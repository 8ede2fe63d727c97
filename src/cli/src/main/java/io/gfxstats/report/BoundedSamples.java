package io.gfxstats.report;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The points of a frame chart read from a stream of any length: past {@code max} points it keeps
 * every second one and from then on takes every 2nd, 4th, ... new frame, so memory stays bounded
 * and the sample stays even over the whole input. {@link #leftOut} says what that cost.
 */
final class BoundedSamples {
    private final int max;
    private final List<FrameSeries.Sample> samples = new ArrayList<>();
    private long stride = 1;
    private long offered;

    BoundedSamples(int max) {
        this.max = max;
    }

    /** Whether the next frame offered will be kept: ask before building its sample. */
    boolean wants() {
        return offered++ % stride == 0;
    }

    void add(FrameSeries.Sample s) {
        samples.add(s);
        if (samples.size() >= max) {
            List<FrameSeries.Sample> kept = new ArrayList<>(samples.size() / 2 + 1);
            for (int i = 0; i < samples.size(); i += 2) {
                kept.add(samples.get(i));
            }
            samples.clear();
            samples.addAll(kept);
            stride *= 2;
        }
    }

    /** Frames offered. */
    long offered() {
        return offered;
    }

    /** The kept points in time order. */
    List<FrameSeries.Sample> sorted() {
        List<FrameSeries.Sample> sorted = new ArrayList<>(samples);
        sorted.sort(Comparator.comparingLong(FrameSeries.Sample::completedNanos));
        return sorted;
    }

    /** "N of the input's M WHAT", with the step when the cap was reached. */
    String leftOut(String what) {
        return (offered - samples.size()) + " of the input's " + offered + " " + what
                + (stride > 1 ? " (the chart keeps at most " + max + " points: every " + stride + "th frame)" : "");
    }
}
