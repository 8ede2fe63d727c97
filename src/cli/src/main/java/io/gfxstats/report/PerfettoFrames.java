package io.gfxstats.report;

import io.gfxstats.palette.ColourTable;
import io.gfxstats.palette.TimelineJankColour;
import io.gfxstats.timeline.JankType;
import io.gfxstats.timeline.perfetto.FrameSlice;
import io.gfxstats.timeline.perfetto.PerfettoReport;
import io.gfxstats.timeline.perfetto.ProcessMetric;
import io.gfxstats.timeline.perfetto.SliceSink;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * A Perfetto trace's frames over time for the report, read in the same pass as the
 * {@link PerfettoReport} of {@code gfxstats timeline perfetto}: every slice goes to that report
 * first (so the page's table is the command's numbers), and each actual SurfaceFrame (an app's
 * frame on one layer) becomes a point - its duration at its end, marked by its jank type.
 * SurfaceFlinger's own display frames stay in the table: drawn on the same line they would
 * alternate with the apps' frames. Memory stays bounded: past {@link #MAX_POINTS} the series keeps every second point and
 * then takes every 2nd, 4th, ... new one, and the page says how many it left out.
 */
public final class PerfettoFrames implements SliceSink {
    /** Points the chart holds at most: a browser draws this many at once without effort. */
    public static final int MAX_POINTS = 1 << 15;
    /** Gaps between expected display frames kept to find the refresh interval (their median). */
    private static final int GAPS = 4096;

    private final PerfettoReport report;
    private final BoundedSamples samples;
    private long open;
    private long displays;
    private final long[] gaps = new long[GAPS];
    private int gapCount;
    private long lastExpectedDisplay = -1;

    public PerfettoFrames(PerfettoReport report) {
        this(report, MAX_POINTS);
    }

    PerfettoFrames(PerfettoReport report, int maxPoints) {
        this.report = report;
        this.samples = new BoundedSamples(maxPoints);
    }

    @Override
    public void started(FrameSlice slice) {
        report.started(slice);
    }

    @Override
    public void finished(FrameSlice s) {
        report.finished(s);
        if (s.kind() == FrameSlice.Kind.EXPECTED_DISPLAY) {
            // Expected display frames start one vsync apart while SurfaceFlinger composes each one.
            if (lastExpectedDisplay >= 0 && s.ts() > lastExpectedDisplay && gapCount < GAPS) {
                gaps[gapCount++] = s.ts() - lastExpectedDisplay;
            }
            lastExpectedDisplay = s.ts();
            return;
        }
        if (s.kind() == FrameSlice.Kind.ACTUAL_DISPLAY) {
            displays++;
            return;
        }
        if (s.kind() != FrameSlice.Kind.ACTUAL_SURFACE) {
            return;
        }
        if (s.dur() < 0) {
            open++;
            return;
        }
        if (!samples.wants()) {
            return;
        }
        int jank = s.jankType() == FrameSlice.ABSENT ? 0 : JankType.fromProto(s.jankType());
        samples.add(new FrameSeries.Sample(s.end(), s.dur() / 1e6,
                TimelineJankColour.index(jank < 0 ? JankType.UNKNOWN : jank)));
    }

    /** The chart and table of the trace; call after {@link PerfettoReport#finish}. */
    public FrameSeries series() {
        List<FrameSeries.Sample> sorted = samples.sorted();
        long refresh = 0;
        if (gapCount > 0) {
            long[] g = Arrays.copyOf(gaps, gapCount);
            Arrays.sort(g);
            refresh = g[gapCount / 2];
        }
        String leftOut = samples.leftOut("closed actual SurfaceFrames") + ", " + open
                + " SurfaceFrames never closed by a FrameEnd, and SurfaceFlinger's " + displays + " display frames (counted in the table, under its process).";
        return withMarks(sorted, leftOut, (refresh == 0 ? 1e9 / 60 : refresh) / 1e6, table());
    }

    /** The series with a legend entry for each jank type that occurs; the samples' indices follow. */
    static FrameSeries withMarks(List<FrameSeries.Sample> sorted, String leftOut, double refreshMillis,
            FrameSeries.Table table) {
        List<ColourTable.Row<Integer>> all = TimelineJankColour.COLOURS.rows();
        int[] index = new int[all.size()];
        Arrays.fill(index, -1);
        for (FrameSeries.Sample x : sorted) {
            if (x.cause() >= 0) {
                index[x.cause()] = 0;
            }
        }
        List<FrameSeries.Mark> marks = new ArrayList<>();
        for (int c = 0; c < all.size(); c++) {
            if (index[c] == 0) {
                index[c] = marks.size();
                marks.add(new FrameSeries.Mark(all.get(c).label(), all.get(c).hex()));
            }
        }
        List<FrameSeries.Sample> shown = sorted.stream().map(x -> x.cause() < 0 ? x
                : new FrameSeries.Sample(x.completedNanos(), x.millis(), index[x.cause()])).toList();
        return new FrameSeries(shown, leftOut, refreshMillis, List.of(), marks, table);
    }

    /** The numbers of {@code timeline perfetto --json}: the metric's totals and per process counts. */
    private FrameSeries.Table table() {
        List<List<String>> summary = List.of(
                List.of("Actual surface frames", "surface-frames", Long.toString(report.surfaceFrames())),
                List.of("Actual display frames", "display-frames", Long.toString(report.displayFrames())),
                List.of("Total frames (Perfetto's metric)", "total-frames",
                        Long.toString(report.sumOver(ProcessMetric::totalFrames))),
                List.of("Missed app frames", "missed-app-frames",
                        Long.toString(report.sumOver(ProcessMetric::missedAppFrames))),
                List.of("Dropped frames", "dropped-frames", Long.toString(report.sumOver(ProcessMetric::droppedFrames))));
        List<List<String>> rows = new ArrayList<>();
        for (ProcessMetric m : report.processes().values()) {
            rows.add(List.of(report.processName(m.pid()), Integer.toString(m.pid()), Integer.toString(m.totalFrames()),
                    Integer.toString(m.missedFrames()), Integer.toString(m.missedAppFrames()),
                    Integer.toString(m.missedSfFrames()), Integer.toString(m.droppedFrames()),
                    String.format(Locale.ROOT, "%.3f", m.durPercentile(50) / 1e6),
                    String.format(Locale.ROOT, "%.3f", m.durPercentile(90) / 1e6),
                    String.format(Locale.ROOT, "%.3f", m.durPercentile(99) / 1e6)));
        }
        return new FrameSeries.Table(summary, List.of("Process", "pid", "Frames", "Janky", "App", "SF",
                "Dropped", "p50", "p90", "p99"), rows, "Perfetto's frame timeline metric per process, as `gfxstats"
                + " timeline perfetto` prints it: frames, janky (missed) frames, missed by the app, missed by"
                + " SurfaceFlinger, dropped, and the 50th, 90th and 99th percentile frame durations in ms (`--json`:"
                + " totalFrames, jankyFrames, missedAppFrames, missedSfFrames, droppedFrames, frameDuration). It counts"
                + " distinct frame tokens per process, so a frame drawn on two layers is one frame here and two points"
                + " in the chart.", "at the time it ended, its duration (an app's actual SurfaceFrame)");
    }
}
