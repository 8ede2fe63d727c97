package io.gfxstats.report;

import io.gfxstats.frame.DaveyListener;
import io.gfxstats.frame.FrameInfo;
import io.gfxstats.frame.FrameTracker;
import io.gfxstats.framestats.FramestatsBlock;
import io.gfxstats.framestats.FramestatsReplay;
import io.gfxstats.stats.JankType;
import io.gfxstats.stats.ProfileData;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Each frame of a capture over time, with Android's verdict on it: what an offline report leads
 * with. Frames are replayed through the same trackers as the report's totals, so the frames drawn
 * are exactly the frames counted; the rows left out (in flight, or with no duration, which
 * Android ignores) are counted, not drawn.
 *
 * @param samples       counted frames, in the order they completed
 * @param inFlightRows  rows of frames still in flight when the capture was taken
 * @param ignoredFrames frames Android ignores (IntendedVsync to FrameCompleted not positive)
 */
public record FrameSeries(List<Sample> samples, long inFlightRows, long ignoredFrames, double refreshMillis) {
    /** The causes a janky frame is marked with, first match wins; else {@link #DEADLINE_ONLY}. */
    public static final List<JankType> CAUSES = List.of(JankType.MISSED_VSYNC, JankType.SLOW_UI_THREAD,
            JankType.SLOW_BITMAP_UPLOAD, JankType.SLOW_DRAW);
    /** A janky frame with none of the four causes: it only missed its deadline. */
    public static final String DEADLINE_ONLY = "Deadline missed only";

    public FrameSeries {
        samples = List.copyOf(samples);
    }

    /**
     * @param completedNanos FrameCompleted, on the capture's clock
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
            long[] before = new long[CAUSES.size()];
            for (int i = 0; i < b.frameCount(); i++) {
                FrameInfo f = b.frame(i);
                long total = data.totalFrames();
                long janky = data.jankyFrames();
                for (int c = 0; c < before.length; c++) {
                    before[c] = data.jankCount(CAUSES.get(c));
                }
                tracker.finishFrame(f, data);
                if (data.totalFrames() == total) {
                    ignored++;
                    continue;
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
            }
        }
        samples.sort(Comparator.comparingLong(Sample::completedNanos));
        return new FrameSeries(samples, inFlight, ignored, FramestatsReplay.DEFAULT_REFRESH_INTERVAL_NANOS / 1e6);
    }

    /** The names of the marks, in index order. */
    public static List<String> causeNames() {
        List<String> names = new ArrayList<>();
        CAUSES.forEach(c -> names.add(c.label()));
        names.add(DEADLINE_ONLY);
        return names;
    }
}
