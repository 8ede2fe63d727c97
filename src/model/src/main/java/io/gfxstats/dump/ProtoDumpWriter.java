package io.gfxstats.dump;

import com.google.protobuf.CodedOutputStream;
import io.gfxstats.proto.GraphicsStatsProto;
import io.gfxstats.proto.GraphicsStatsServiceDumpProto;
import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import java.util.Objects;

/**
 * {@code dumpsys graphicsstats --proto}: one serialized GraphicsStatsServiceDumpProto holding the
 * dumpable entries, stripped of gfxstats' private fields - or, for gfxstats' own tools, with the
 * FrameTimeline counters and the ring drops kept (see {@link #keeping(boolean, boolean)}).
 *
 * <p>A repeated field is serialized as its elements one after another, so the entries are
 * written one by one as field 1 of the wrapper: the bytes equal those of the built wrapper
 * message, without holding a second copy of the whole dump in memory.
 */
public final class ProtoDumpWriter implements DumpWriter {
    private static final int BUFFER_BYTES = 64 * 1024;

    private final boolean keepFrameTimeline;
    private final boolean keepRingDropped;

    /** Android's {@code --proto} bytes. */
    public ProtoDumpWriter() {
        this(false, false);
    }

    private ProtoDumpWriter(boolean keepFrameTimeline, boolean keepRingDropped) {
        this.keepFrameTimeline = keepFrameTimeline;
        this.keepRingDropped = keepRingDropped;
    }

    /** Entries with their FrameTimeline counters (field 1010) kept: not Android's bytes, for gfxstats' report. */
    public static ProtoDumpWriter keepingFrameTimeline() {
        return new ProtoDumpWriter(true, false);
    }

    /**
     * Entries with their FrameTimeline counters (field 1010) and the frames full recording rings
     * dropped (field 1011) kept as asked: not Android's bytes when either is, for gfxstats' report.
     */
    public static ProtoDumpWriter keeping(boolean frameTimeline, boolean ringDropped) {
        return new ProtoDumpWriter(frameTimeline, ringDropped);
    }

    @Override
    public void write(List<GraphicsStatsProto> entries, OutputStream out) throws IOException {
        Objects.requireNonNull(out, "out");
        CodedOutputStream coded = CodedOutputStream.newInstance(out, BUFFER_BYTES);
        for (GraphicsStatsProto proto : entries) {
            Objects.requireNonNull(proto, "null entry in dump");
            if (!DumpEntry.isDumpable(proto)) {
                continue;
            }
            GraphicsStatsProto stripped = PrivateFields.strip(proto);
            if (keepFrameTimeline && proto.hasGfxstatsFrameTimeline()) {
                stripped = stripped.toBuilder().setGfxstatsFrameTimeline(proto.getGfxstatsFrameTimeline()).build();
            }
            if (keepRingDropped && proto.getGfxstatsRingDroppedFrames() != 0) {
                stripped = stripped.toBuilder().setGfxstatsRingDroppedFrames(proto.getGfxstatsRingDroppedFrames()).build();
            }
            coded.writeMessage(GraphicsStatsServiceDumpProto.STATS_FIELD_NUMBER, stripped);
        }
        coded.flush();
        out.flush();
    }
}
