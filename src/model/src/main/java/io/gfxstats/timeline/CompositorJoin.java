package io.gfxstats.timeline;

import java.util.Arrays;
import java.util.Objects;

/**
 * Compositor mode (spec 6.3): a cooperating compositor reports its DisplayFrames, a client its
 * SurfaceFrames, each with the output and the output's refresh counter (MSC) at which the frame
 * reached the screen; frames with the same (output, MSC) belong together. A DisplayFrame is
 * classified when it arrives (per output, in presentation order, with that output's previous
 * present), then every SurfaceFrame of its (output, MSC) with the real display jank - whichever
 * of the two arrives first waits for the other. A SurfaceFrame whose DisplayFrame never comes
 * (more than {@link #WINDOW} newer frames arrived on its output) is classified in client-only
 * mode and counted as such. Every SurfaceFrame is counted once into the sink.
 *
 * <p>Single-threaded. Allocation-free per frame once each output has been seen.
 */
public final class CompositorJoin {
    /** Display and surface frames kept per output while they wait for their partner. */
    public static final int WINDOW = 64;

    private final FrameTimelineClassifier classifier;
    private final TimelineSink sink;
    private long[] outputIds = new long[4];
    private Output[] outputs = new Output[4];
    private int outputCount;
    private final SurfaceFrame scratch = new SurfaceFrame();
    private long joined;
    private long clientOnly;

    public CompositorJoin(Thresholds thresholds, TimelineSink sink) {
        this.classifier = new FrameTimelineClassifier(thresholds);
        this.sink = Objects.requireNonNull(sink, "sink");
    }

    /** The classified DisplayFrames of one output and its SurfaceFrames waiting for theirs. */
    private static final class Output {
        long previousPresent;
        // classified display frames, ring by arrival
        final long[] dfMsc = new long[WINDOW];
        final boolean[] dfUsed = new boolean[WINDOW];
        final DisplayFrame[] df = new DisplayFrame[WINDOW];
        int dfNext;
        // surface frames waiting for their display frame
        final long[] sfMsc = new long[WINDOW];
        final boolean[] sfUsed = new boolean[WINDOW];
        final SurfaceFrame[] sf = new SurfaceFrame[WINDOW];
        final long[] sfRefresh = new long[WINDOW];
        int sfNext;

        Output() {
            for (int i = 0; i < WINDOW; i++) {
                df[i] = new DisplayFrame();
                sf[i] = new SurfaceFrame();
            }
        }
    }

    private Output output(long output) {
        for (int i = 0; i < outputCount; i++) {
            if (outputIds[i] == output) {
                return outputs[i];
            }
        }
        if (outputCount == outputs.length) {
            outputIds = Arrays.copyOf(outputIds, outputCount * 2);
            outputs = Arrays.copyOf(outputs, outputCount * 2);
        }
        Output o = new Output();
        outputIds[outputCount] = output;
        outputs[outputCount++] = o;
        return o;
    }

    /**
     * A compositor frame of {@code output} shown at {@code msc}: copied, classified, and joined
     * with the surface frames already waiting for it.
     */
    public void displayFrame(long output, long msc, DisplayFrame frame) {
        Output o = output(output);
        int slot = o.dfNext;
        o.dfNext = (slot + 1) % WINDOW;
        DisplayFrame d = o.df[slot];
        d.set(frame.token, frame.prediction, frame.predictedStart, frame.predictedEnd, frame.predictedPresent,
                frame.actualStart, frame.actualEnd, frame.actualPresent, frame.refreshPeriod, frame.renderPeriod);
        if (frame.hasGpuFence) {
            d.gpuFence(frame.gpuFenceTime);
        }
        classifier.classify(d, o.previousPresent);
        o.previousPresent = d.actualPresent;
        o.dfUsed[slot] = true;
        o.dfMsc[slot] = msc;
        for (int i = 0; i < WINDOW; i++) {
            if (o.sfUsed[i] && o.sfMsc[i] == msc) {
                o.sfUsed[i] = false;
                countJoined(o.sf[i], d);
            }
        }
    }

    /**
     * A client frame presented on {@code output} at {@code msc} (from its presentation
     * feedback): copied; classified now if its display frame is known, else when it arrives.
     * {@code refreshNanos} is used only if it ends up classified without its display frame.
     */
    public void surfaceFrame(long output, long msc, SurfaceFrame frame, long presentedNanos, long refreshNanos) {
        Output o = output(output);
        for (int i = 0; i < WINDOW; i++) {
            if (o.dfUsed[i] && o.dfMsc[i] == msc) {
                countJoined(copy(frame, scratch), o.df[i]);
                return;
            }
        }
        int slot = o.sfNext;
        o.sfNext = (slot + 1) % WINDOW;
        if (o.sfUsed[slot]) {
            countClientOnly(o.sf[slot], o.sfRefresh[slot]);
        }
        copy(frame, o.sf[slot]).actualPresent = presentedNanos;
        o.sfUsed[slot] = true;
        o.sfMsc[slot] = msc;
        o.sfRefresh[slot] = refreshNanos;
    }

    /** Classifies every waiting surface frame in client-only mode (e.g. at shutdown). */
    public void flush() {
        for (int k = 0; k < outputCount; k++) {
            Output o = outputs[k];
            for (int i = 0; i < WINDOW; i++) {
                if (o.sfUsed[i]) {
                    o.sfUsed[i] = false;
                    countClientOnly(o.sf[i], o.sfRefresh[i]);
                }
            }
        }
    }

    /** SurfaceFrames classified with their compositor's DisplayFrame. */
    public long joined() {
        return joined;
    }

    /** SurfaceFrames classified without one. */
    public long clientOnly() {
        return clientOnly;
    }

    private static SurfaceFrame copy(SurfaceFrame from, SurfaceFrame to) {
        return to.set(from.token, from.prediction, from.predictedStart, from.predictedEnd, from.predictedPresent,
                from.actualStart, from.actualEnd, from.presentState, from.lastLatchTime);
    }

    private void countJoined(SurfaceFrame s, DisplayFrame d) {
        classifier.classify(s, d);
        TimelineCounters.count(sink, s, true);
        joined++;
    }

    private void countClientOnly(SurfaceFrame s, long refresh) {
        classifier.classify(s, s.actualPresent, JankType.NONE, refresh, refresh);
        TimelineCounters.count(sink, s, false);
        clientOnly++;
    }
}
