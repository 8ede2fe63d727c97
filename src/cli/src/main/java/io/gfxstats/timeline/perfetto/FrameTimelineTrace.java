package io.gfxstats.timeline.perfetto;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Every FrameTimeline slice of a trace held in memory, ordered by start time: for the golden tests
 * and small traces. {@code gfxstats timeline perfetto} streams instead ({@link FrameTimelineReader}
 * into {@link PerfettoReport}).
 */
public final class FrameTimelineTrace {
    private final List<FrameSlice> slices;
    private final FrameTimelineReader.Result result;

    private FrameTimelineTrace(List<FrameSlice> slices, FrameTimelineReader.Result result) {
        this.slices = slices;
        this.result = result;
    }

    public static FrameTimelineTrace read(InputStream in) throws IOException, TraceFormatException {
        List<FrameSlice> slices = new ArrayList<>();
        FrameTimelineReader.Result result = FrameTimelineReader.read(in, new SliceSink() {
            @Override
            public void started(FrameSlice slice) {
                slices.add(slice);
            }

            @Override
            public void finished(FrameSlice slice) {
                // the slice is already listed; its duration is now set
            }
        });
        return new FrameTimelineTrace(slices, result);
    }

    /** Every FrameTimeline slice, ordered by start time. */
    public List<FrameSlice> slices() {
        return slices;
    }

    /** pid to process name (command line) from the trace's process tree. */
    public Map<Integer, String> processNames() {
        return result.processNames();
    }

    /** FrameEnd events without an open slice of their cookie. */
    public long unpairedEnds() {
        return result.unpairedEnds();
    }

    /** Trace packets read, compressed ones unpacked. */
    public long packets() {
        return result.packets();
    }

    public FrameTimelineReader.Result result() {
        return result;
    }
}
