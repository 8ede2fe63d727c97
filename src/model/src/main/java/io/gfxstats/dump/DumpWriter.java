package io.gfxstats.dump;

import io.gfxstats.proto.GraphicsStatsProto;
import java.io.IOException;
import java.io.OutputStream;
import java.util.List;

/**
 * Writes the entries of one {@code dumpsys graphicsstats}-compatible dump in one output format.
 *
 * <p>Every implementation skips entries with an empty package name or without a summary (as
 * Android does), never emits gfxstats' private fields (numbers >= 1000), streams its output,
 * flushes {@code out} when done and never closes it.
 */
public interface DumpWriter {
    void write(List<GraphicsStatsProto> entries, OutputStream out) throws IOException;
}
