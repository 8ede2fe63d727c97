package io.gfxstats.report;

import io.gfxstats.frame.DaveyListener;
import io.gfxstats.frame.FrameInfo;
import io.gfxstats.frame.FrameTracker;
import io.gfxstats.frame.ModernJankTracker;
import io.gfxstats.frame.TrackerConfig;
import io.gfxstats.framestats.FramestatsBlock;
import io.gfxstats.framestats.FramestatsReplay;
import io.gfxstats.palette.CauseColour;
import io.gfxstats.palette.ColourTable;
import io.gfxstats.stats.JankType;
import io.gfxstats.stats.Pipeline;
import io.gfxstats.stats.ProfileData;
import io.gfxstats.trace.FrameInfos;
import io.gfxstats.trace.ProcessSummary;
import io.gfxstats.trace.TraceFrames;
import io.gfxstats.trace.output.FrameInfoMapping;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Each frame of an offline input over time, with Android's verdict on it: what an offline report
 * leads with. Frames are replayed through the same trackers as the report's totals, so the frames
 * drawn are exactly the frames counted; the ones left out are counted, not drawn, and
 * {@link #leftOut} says which and why.
 *
 * @param samples counted frames, in the order they completed
 * @param leftOut the frames the view leaves out and why, one sentence
 * @param traceCounts for a trace, {@code gfxstats trace}'s own count per process (all its frames,
 *                    janky by the trace's flag); empty otherwise
 * @param marks       the marks a sample's cause indexes, with their colours
 * @param table       for a FrameTimeline input (Perfetto trace, frame log), the numbers its
 *                    {@code gfxstats timeline} command prints, which the page shows instead of a
 *                    dump's; null for inputs a dump describes
 */
public record FrameSeries(List<Sample> samples, String leftOut, double refreshMillis,
                          List<ProcessSummary> traceCounts, List<Mark> marks, Table table) {
    /** The causes a janky frame is marked with, first match wins; else deadline only. */
    public static final List<JankType> CAUSES = JankType.STAGE_CAUSES;

    public FrameSeries {
        samples = List.copyOf(samples);
        traceCounts = List.copyOf(traceCounts);
        marks = List.copyOf(marks);
    }

    /** A legend entry of the marks: its name and colour ({@code #rrggbb}). */
    public record Mark(String name, String hex) {
    }

    /**
     * A FrameTimeline input's own numbers, as its command prints them.
     *
     * @param summary rows of the page's summary table: name, element id, value (e.g. frames, janky frames)
     * @param headers the columns of the per-row table
     * @param rows    one row per process (Perfetto) or kind of frame (frame log)
     * @param caption what the table counts and how it relates to the chart
     * @param points  where the chart puts a frame and what its height is, one phrase
     */
    public record Table(List<List<String>> summary, List<String> headers, List<List<String>> rows, String caption,
                        String points) {
        public Table {
            summary = List.copyOf(summary);
            headers = List.copyOf(headers);
            rows = List.copyOf(rows);
        }
    }

    /**
     * @param completedNanos FrameCompleted, on the input's clock
     * @param cause          index into {@link #CAUSES}, {@code CAUSES.size()} for deadline only,
     *                       -1 for a frame that was not janky
     */
    public record Sample(long completedNanos, double millis, int cause) {
    }

    public static FrameSeries of(List<FramestatsBlock> blocks) {
        List<Sample> samples = new ArrayList<>();
        long inFlight = 0;
        long ignored = 0;
        for (FramestatsBlock b : blocks) {
            inFlight += b.inFlightRows();
            FrameTracker tracker = FramestatsReplay.trackerFor(b.columnSet(),
                    FramestatsReplay.DEFAULT_REFRESH_INTERVAL_NANOS, DaveyListener.ignoring());
            ProfileData data = new ProfileData();
            for (int i = 0; i < b.frameCount(); i++) {
                if (!replay(tracker, data, b.frame(i), samples)) {
                    ignored++;
                }
            }
        }
        samples.sort(Comparator.comparingLong(Sample::completedNanos));
        return new FrameSeries(samples, inFlight + " rows of frames still in flight when the capture was taken, and "
                + ignored + " frames with no duration, which Android ignores too.",
                FramestatsReplay.DEFAULT_REFRESH_INTERVAL_NANOS / 1e6, List.of(), causeMarks(), null);
    }

    /**
     * A trace's frames as {@code gfxstats trace --format dumpsys} counts them: each process's
     * recorded frames replayed at its median frame interval, as {@link FrameInfoMapping#toProto}
     * does with no {@code --refresh}.
     */
    public static FrameSeries ofTrace(List<TraceFrames.ProcessFrames> processes, List<ProcessSummary> counts) {
        List<Sample> samples = new ArrayList<>();
        long all = 0;
        long ignored = 0;
        long rowsTotal = 0;
        long refresh = 0;
        for (TraceFrames.ProcessFrames pf : processes) {
            all += pf.frames().size();
            List<FrameInfo> rows = FrameInfoMapping.rows(pf);
            rowsTotal += rows.size();
            long interval = FrameInfoMapping.medianInterval(rows);
            refresh = Math.max(refresh, interval);
            FrameTracker tracker = new ModernJankTracker(FrameInfos.trackerConfig(interval), DaveyListener.ignoring());
            ProfileData data = new ProfileData(0, Pipeline.UNKNOWN);
            for (FrameInfo row : rows) {
                if (!replay(tracker, data, row, samples)) {
                    ignored++;
                }
            }
        }
        samples.sort(Comparator.comparingLong(Sample::completedNanos));
        return new FrameSeries(samples, (all - rowsTotal) + " of the trace's " + all + " frames that Android would"
                + " not record (unfinished, empty, or app frames not linked to a rendered frame), and " + ignored
                + " frames with no duration, which Android ignores too.",
                (refresh == 0 ? TrackerConfig.NANOS_60HZ : refresh) / 1e6, counts, causeMarks(), null);
    }

    /** Feeds one frame to the tracker; false when it did not count it. */
    private static boolean replay(FrameTracker tracker, ProfileData data, FrameInfo f, List<Sample> samples) {
        long total = data.totalFrames();
        long janky = data.jankyFrames();
        long[] before = new long[CAUSES.size()];
        for (int c = 0; c < before.length; c++) {
            before[c] = data.jankCount(CAUSES.get(c));
        }
        tracker.finishFrame(f, data);
        if (data.totalFrames() == total) {
            return false;
        }
        int cause = -1;
        if (data.jankyFrames() > janky) {
            cause = CAUSES.size();
            for (int c = 0; c < before.length && cause == CAUSES.size(); c++) {
                if (data.jankCount(CAUSES.get(c)) > before[c]) {
                    cause = c;
                }
            }
        }
        long completed = f.get(FrameInfo.FRAME_COMPLETED);
        samples.add(new Sample(completed, (completed - f.get(FrameInfo.INTENDED_VSYNC)) / 1e6, cause));
        return true;
    }

    /** The colours of the marks, in index order: {@link #CAUSES}, then deadline only. */
    public static List<ColourTable.Row<JankType>> causeRows() {
        List<ColourTable.Row<JankType>> marks = new ArrayList<>();
        for (JankType c : CAUSES) {
            marks.add(CauseColour.COLOURS.of(c));
        }
        marks.add(CauseColour.COLOURS.of(CauseColour.DEADLINE_ONLY));
        return List.copyOf(marks);
    }

    /** The marks of Android's causes, in index order: {@link #CAUSES}, then deadline only. */
    private static List<Mark> causeMarks() {
        return causeRows().stream().map(r -> new Mark(r.label(), r.hex())).toList();
    }
}
