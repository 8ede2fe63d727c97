package io.gfxstats.report;

import io.gfxstats.proto.GraphicsStatsProto;
import io.gfxstats.timeline.TimeStatsText;
import io.gfxstats.timeline.TimelineProtos;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The FrameTimeline counters of a daemon's entries, one block per (package, version, day), named
 * as {@code gfxstats dump --frametimeline} prints them ({@link TimeStatsText#lines}), so a
 * report shows exactly that command's numbers. Read from the entries' structured counters (the
 * Dump call's {@code keep_frame_timeline}), never from the text.
 */
public final class FrameTimelineBlocks {
    private FrameTimelineBlocks() {
    }

    /** One entry (package, version, day), its counters in the dump's order. */
    public record Block(String packageName, long versionCode, long statsStart, Map<String, Long> counters) {
        public long get(String name) {
            return counters.getOrDefault(name, 0L);
        }
    }

    /** The blocks of the entries that have FrameTimeline counters, in the entries' order. */
    public static List<Block> of(List<GraphicsStatsProto> entries) {
        List<Block> blocks = new ArrayList<>();
        for (GraphicsStatsProto p : entries) {
            if (p.getPackageName().isEmpty() || !p.hasGfxstatsFrameTimeline()) {
                continue;
            }
            blocks.add(new Block(p.getPackageName(), p.getVersionCode(), p.getStatsStart(),
                    TimeStatsText.lines(TimelineProtos.fromProto(p.getGfxstatsFrameTimeline()))));
        }
        return blocks;
    }
}
