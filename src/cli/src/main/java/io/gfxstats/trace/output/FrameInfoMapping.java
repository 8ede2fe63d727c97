package io.gfxstats.trace.output;

import io.gfxstats.dayfile.StatsProtos;
import io.gfxstats.frame.DaveyListener;
import io.gfxstats.frame.FrameInfo;
import io.gfxstats.frame.FrameTracker;
import io.gfxstats.frame.ModernJankTracker;
import io.gfxstats.frame.TrackerConfig;
import io.gfxstats.proto.GraphicsStatsProto;
import io.gfxstats.stats.Pipeline;
import io.gfxstats.stats.ProfileData;
import io.gfxstats.trace.FrameInfos;
import io.gfxstats.trace.TraceFrame;
import io.gfxstats.trace.TraceFrames;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Trace frames as Android FrameInfo rows (spec 7.3), replayed through the modern jank tracker with
 * the settings {@code gfxstats framestats} uses, so a trace's frames give the numbers
 * {@code dumpsys graphicsstats} would print for them. Recorded: linked app frames (OpenHarmony and
 * Android) and RenderService frames; empty, unfinished and unlinked app frames are not (Android
 * records only frames that were drawn).
 */
public final class FrameInfoMapping {
    private FrameInfoMapping() {
    }

    /** The FrameInfo rows of a process's recorded frames, in frame order. */
    public static List<FrameInfo> rows(TraceFrames.ProcessFrames pf) {
        List<FrameInfo> out = new ArrayList<>();
        for (TraceFrame f : pf.frames()) {
            FrameInfo info = map(f);
            if (info != null) {
                out.add(info);
            }
        }
        return out;
    }

    /** One frame's FrameInfo, or null when it is not recorded. */
    public static FrameInfo map(TraceFrame f) {
        return FrameInfos.of(f);
    }

    /**
     * The process's statistics as a dump entry (Package = process name; UID, version and times 0).
     * {@code refreshNanos} 0 takes the median frame interval of its frames (60 Hz without frames).
     */
    public static GraphicsStatsProto toProto(TraceFrames.ProcessFrames pf, long refreshNanos) {
        List<FrameInfo> rows = rows(pf);
        long refresh = refreshNanos > 0 ? refreshNanos : medianInterval(rows);
        FrameTracker tracker = new ModernJankTracker(FrameInfos.trackerConfig(refresh), DaveyListener.ignoring());
        ProfileData data = new ProfileData(0, Pipeline.UNKNOWN);
        for (FrameInfo info : rows) {
            tracker.finishFrame(info, data);
        }
        return StatsProtos.toProto(data, new StatsProtos.Source(pf.name(), 0, 0, 0, 0));
    }

    /** The median FRAME_INTERVAL of the rows, 60 Hz without rows: the refresh a replay of them assumes. */
    public static long medianInterval(List<FrameInfo> rows) {
        if (rows.isEmpty()) {
            return TrackerConfig.NANOS_60HZ;
        }
        long[] v = rows.stream().mapToLong(r -> r.get(FrameInfo.FRAME_INTERVAL)).toArray();
        Arrays.sort(v);
        return v[v.length / 2];
    }
}
