package io.gfxstats.timeline;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class CompositorJoinTest {
    private static final Thresholds NS = new Thresholds(2, 0, 2);

    @Test
    void shouldAttributeDisplayJankToTheClientFrameOfTheSameOutputAndMsc() {
        for (boolean compositorFirst : new boolean[] {true, false}) {
            TimelineCounters c = new TimelineCounters();
            CompositorJoin join = new CompositorJoin(NS, c);
            DisplayFrame df = new DisplayFrame().set(1, Prediction.VALID, 52, 60, 60, 52, 62, 70, 11, 11);
            SurfaceFrame sf = new SurfaceFrame().set(2, Prediction.VALID, 10, 20, 60, 10, 20, PresentState.PRESENTED, 0);
            if (compositorFirst) {
                join.displayFrame(7, 1000, df);
                join.surfaceFrame(7, 1000, sf, 70, 11);
            } else {
                join.surfaceFrame(7, 1000, sf, 70, 11);
                join.surfaceFrame(8, 1000, sf, 70, 11); // another output: not this display frame's
                join.displayFrame(7, 1000, df);
                join.flush();
            }
            assertEquals(1, c.get(TimelineCounter.JANK_SF_CPU_DEADLINE_MISSED), "S1: the compositor missed its deadline");
            assertEquals(1, join.joined());
            assertEquals(compositorFirst ? 0 : 1, join.clientOnly());
            assertEquals(compositorFirst ? 0 : 1, c.get(TimelineCounter.DISPLAY_UNKNOWN_FRAMES));
        }
    }

    /**
     * Random display frames per output with one surface frame each, delivered in a shuffled
     * order within a small window: the join counts what the classifier gives when each display
     * frame is classified in order and its surface frame right after.
     */
    @Test
    void shouldCountWhatTheClassifierGivesWhateverTheArrivalOrder() {
        SplittableRandom r = new SplittableRandom(3);
        FrameTimelineClassifier classifier = new FrameTimelineClassifier(NS);
        TimelineCounters expected = new TimelineCounters();
        TimelineCounters got = new TimelineCounters();
        CompositorJoin join = new CompositorJoin(NS, got);
        long[] previous = new long[2];
        List<Runnable> deliveries = new ArrayList<>();
        for (int i = 0; i < 4000; i++) {
            int output = r.nextInt(2);
            long msc = i;
            long base = i * 20L;
            long pp = base + 30;
            DisplayFrame df = new DisplayFrame().set(i, r.nextInt(15) == 0 ? Prediction.EXPIRED : Prediction.VALID,
                    base + 20, pp - r.nextInt(3), pp, base + 20 + r.nextInt(5) - 2, pp - 6 + r.nextInt(14),
                    r.nextInt(20) == 0 ? -1 : pp + (r.nextBoolean() ? 0 : r.nextInt(40) - 8), 11, 11);
            if (r.nextInt(4) == 0) {
                df.gpuFence(pp - 4 + r.nextInt(10));
            }
            SurfaceFrame sf = new SurfaceFrame().set(i, Prediction.VALID, base, base + 10, pp, base,
                    base + 4 + r.nextInt(14), r.nextInt(15) == 0 ? PresentState.DROPPED : PresentState.PRESENTED,
                    r.nextInt(3) == 0 ? base + 10 + r.nextInt(5) : 0);
            DisplayFrame dfCopy = copy(df);
            SurfaceFrame sfCopy = copy(sf);
            classifier.classify(df, previous[output]);
            previous[output] = df.actualPresent();
            classifier.classify(sf, df);
            expected.add(sf, true);
            // Display frames of an output arrive in order; each surface frame somewhere near its own.
            deliveries.add(() -> join.displayFrame(output, msc, dfCopy));
            int at = Math.max(0, deliveries.size() - 1 - r.nextInt(Math.min(deliveries.size(), 5)));
            deliveries.add(at, () -> join.surfaceFrame(output, msc, sfCopy, dfCopy.actualPresent(), 11));
        }
        deliveries.forEach(Runnable::run);
        join.flush();
        assertEquals(4000, join.joined());
        assertEquals(expected, got);
    }

    private static DisplayFrame copy(DisplayFrame f) {
        DisplayFrame d = new DisplayFrame().set(f.token, f.prediction, f.predictedStart, f.predictedEnd, f.predictedPresent,
                f.actualStart, f.actualEnd, f.actualPresent, f.refreshPeriod, f.renderPeriod);
        return f.hasGpuFence ? d.gpuFence(f.gpuFenceTime) : d;
    }

    private static SurfaceFrame copy(SurfaceFrame f) {
        return new SurfaceFrame().set(f.token, f.prediction, f.predictedStart, f.predictedEnd, f.predictedPresent,
                f.actualStart, f.actualEnd, f.presentState, f.lastLatchTime);
    }
}
