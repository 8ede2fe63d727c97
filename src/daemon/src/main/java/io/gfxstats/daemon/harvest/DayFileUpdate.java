package io.gfxstats.daemon.harvest;

import io.gfxstats.buffer.ClientHealthGroup;
import io.gfxstats.buffer.FrameTimelineGroup;
import io.gfxstats.dayfile.DayFileException;
import io.gfxstats.dayfile.StatsProtos;
import io.gfxstats.proto.GfxstatsBufferMark;
import io.gfxstats.proto.GraphicsStatsProto;
import io.gfxstats.scene.SceneCounters;
import io.gfxstats.stats.ProfileData;
import io.gfxstats.timeline.TimelineProtos;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Computes the next content of one day file from its current content and the unsaved part of
 * each contributing buffer. The frames and the marks recording how much of each buffer they
 * contain go into the same file, which is replaced atomically: after a crash at any instant the
 * file holds either both or neither, so a restarted daemon saves exactly the difference.
 */
public final class DayFileUpdate {
    private DayFileUpdate() {
    }

    /** The new file content, or null when nothing would change (no write needed). */
    public static GraphicsStatsProto apply(GraphicsStatsProto existing, String packageName, long versionCode,
                                           long endMillis, long nowMillis, List<Contribution> contributions,
                                           Set<String> knownBufferKeys) throws DayFileException.HistogramMismatch {
        GraphicsStatsProto.Builder b = existing == null ? GraphicsStatsProto.newBuilder() : existing.toBuilder();
        boolean changed = false;

        Map<String, GfxstatsBufferMark> marks = new LinkedHashMap<>();
        for (GfxstatsBufferMark m : b.getGfxstatsBufferMarksList()) {
            if (knownBufferKeys.contains(m.getBufferKey())) {
                marks.put(m.getBufferKey(), m);
            } else {
                changed = true; // a retired buffer's mark is dropped: everything of it is saved
            }
        }

        for (Contribution c : contributions) {
            long[] unsaved = c.unsaved();
            if (!c.due()) {
                continue;
            }
            ProfileData delta = CounterDeltas.toProfileData(unsaved);
            delta.setPipeline(c.pipeline());
            StatsProtos.merge(b, delta, new StatsProtos.Source(packageName, versionCode, c.uid(),
                    c.startMillis(), endMillis));
            SceneCounters.merge(b, SceneCounters.fromVector(unsaved, c.sceneNames()));
            TimelineProtos.merge(b, FrameTimelineGroup.fromVector(unsaved));
            long dropped = ClientHealthGroup.ringDropped(unsaved);
            if (dropped > 0) {
                b.setGfxstatsRingDroppedFrames(b.getGfxstatsRingDroppedFrames() + dropped);
            }
            marks.put(c.bufferKey(), BufferMarks.mark(c.bufferKey(), c.pid(), c.current(), nowMillis));
            changed = true;
        }
        if (!changed) {
            return null;
        }
        b.clearGfxstatsBufferMarks().addAllGfxstatsBufferMarks(marks.values());
        return b.build();
    }

    /** Baselines found in a set of day files: per buffer key, the highest mark. */
    public static Map<String, long[]> baselines(Iterable<GraphicsStatsProto> files) {
        Map<String, long[]> result = new HashMap<>();
        for (GraphicsStatsProto f : files) {
            for (GfxstatsBufferMark m : f.getGfxstatsBufferMarksList()) {
                long[] counters = BufferMarks.counters(m);
                if (counters != null) {
                    result.merge(m.getBufferKey(), counters, CounterDeltas::max);
                }
            }
        }
        return result;
    }
}
