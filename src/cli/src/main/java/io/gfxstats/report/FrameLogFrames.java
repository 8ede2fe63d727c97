package io.gfxstats.report;

import io.gfxstats.palette.TimelineJankColour;
import io.gfxstats.timeline.DisplayFrame;
import io.gfxstats.timeline.JankType;
import io.gfxstats.timeline.SurfaceFrame;
import io.gfxstats.timeline.log.FrameLogClassifier;
import java.util.ArrayList;
import java.util.List;

/**
 * A frame log's frames over time for the report, seen as {@code gfxstats timeline classify}
 * classifies them (the same classifier, one pass): each display frame at its present, its time
 * since the previous present (the frame time a reader of a frame-time graph expects), marked by the
 * first jank type of the frame or any of its surfaces. The page's table counts each jank type the
 * way the command's output lines name them.
 */
public final class FrameLogFrames implements FrameLogClassifier.Listener {
    private final BoundedSamples samples;
    private final long[] displayTypes = new long[JankType.count()];
    private final long[] surfaceTypes = new long[JankType.count()];
    private long displays;
    private long jankyDisplays;
    private long surfaces;
    private long jankySurfaces;
    private long unsignalled;
    private long refresh;
    private long previousPresent = -1;

    public FrameLogFrames() {
        this(PerfettoFrames.MAX_POINTS);
    }

    FrameLogFrames(int maxPoints) {
        this.samples = new BoundedSamples(maxPoints);
    }

    @Override
    public void classified(DisplayFrame display, List<SurfaceFrame> surfaceList, int surfaceCount) {
        displays++;
        int jank = display.jank();
        jankyDisplays += count(jank, displayTypes);
        for (int i = 0; i < surfaceCount; i++) {
            int s = surfaceList.get(i).jank();
            surfaces++;
            jankySurfaces += count(s, surfaceTypes);
            jank |= s;
        }
        if (refresh == 0 && display.refreshPeriod() > 0) {
            refresh = display.refreshPeriod();
        }
        long present = display.actualPresent();
        if (present == -1) {
            unsignalled++;
            return;
        }
        long previous = previousPresent;
        previousPresent = present;
        if (previous < 0 || present <= previous || !samples.wants()) {
            return;
        }
        samples.add(new FrameSeries.Sample(present, (present - previous) / 1e6, TimelineJankColour.index(jank)));
    }

    /** Counts each type of a frame; 1 if it had any. */
    private static int count(int jank, long[] perType) {
        for (int i = 0; i < JankType.count(); i++) {
            if ((jank & JankType.bit(i)) != 0) {
                perType[i]++;
            }
        }
        return jank == JankType.NONE ? 0 : 1;
    }

    /** The chart and the classification's counts. */
    public FrameSeries series() {
        // The first frame with a present has no frame time; offered() counts only frames after one.
        long firsts = displays - unsignalled - samples.offered();
        String leftOut = samples.leftOut("display frames with a present after another") + ", " + unsignalled
                + " display frames whose present fence never signalled (present -1), and " + firsts
                + " with no earlier present to measure from (the first frame, or a present not after the one before).";
        List<List<String>> summary = List.of(
                List.of("Display frames", "display-frames", Long.toString(displays)),
                List.of("Janky display frames", "janky-display-frames", Long.toString(jankyDisplays)),
                List.of("Surface frames", "surface-frames", Long.toString(surfaces)),
                List.of("Janky surface frames", "janky-surface-frames", Long.toString(jankySurfaces)));
        List<List<String>> rows = new ArrayList<>();
        for (int i = 0; i < JankType.count(); i++) {
            if (displayTypes[i] + surfaceTypes[i] > 0) {
                rows.add(List.of(JankType.name(i), Long.toString(displayTypes[i]), Long.toString(surfaceTypes[i])));
            }
        }
        FrameSeries.Table table = new FrameSeries.Table(summary, List.of("Jank type", "Display frames",
                "Surface frames"), rows, "Frames per jank type as `gfxstats timeline classify` writes them (its"
                + " \"jank\" lists, display frames and their surfaces; a frame can have several types). A frame"
                + " with none is \"None\" there and not janky here.", "at its present, its time since the previous"
                + " present (a display frame and its surfaces)");
        return PerfettoFrames.withMarks(samples.sorted(), leftOut, (refresh == 0 ? 1e9 / 60 : refresh) / 1e6, table);
    }
}
