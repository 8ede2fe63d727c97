package io.gfxstats.dump;

import io.gfxstats.proto.GraphicsStatsProto;
import io.gfxstats.timeline.TimeStatsText;
import io.gfxstats.timeline.TimelineProtos;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * {@code gfxstats dump --frametimeline}: per entry (package, version, day) that has FrameTimeline
 * counters, a block in the style of SurfaceFlinger's TimeStats text (spec 4.4) followed by
 * gfxstats' per-type counts. Not an Android format; Android dumps never show these counters.
 */
public final class FrameTimelineDumpWriter implements DumpWriter {
    /** The first line, which tells this text from an Android dump. */
    public static final String HEADING = "FrameTimeline (gfxstats):\n";

    @Override
    public void write(List<GraphicsStatsProto> entries, OutputStream out) throws IOException {
        StringBuilder sb = new StringBuilder(4096);
        sb.append(HEADING);
        int blocks = 0;
        for (GraphicsStatsProto p : entries) {
            if (p.getPackageName().isEmpty() || !p.hasGfxstatsFrameTimeline()) {
                continue;
            }
            sb.append("\nPackage: ").append(p.getPackageName()).append('\n');
            sb.append("Version: ").append(p.getVersionCode()).append('\n');
            sb.append("Stats since: ").append(p.getStatsStart()).append("ms\n");
            sb.append("Stats end: ").append(p.getStatsEnd()).append("ms\n");
            TimeStatsText.write(TimelineProtos.fromProto(p.getGfxstatsFrameTimeline()), "", sb);
            blocks++;
            if (sb.length() > 64 * 1024) {
                out.write(sb.toString().getBytes(StandardCharsets.UTF_8));
                sb.setLength(0);
            }
        }
        if (blocks == 0) {
            sb.append("\nNo FrameTimeline counters recorded (clients record them with TimelineRecorder,"
                    + " see docs/frametimeline.md).\n");
        }
        out.write(sb.toString().getBytes(StandardCharsets.UTF_8));
        out.flush();
    }
}
