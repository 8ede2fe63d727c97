package io.gfxstats.timeline.log;

import com.google.gson.JsonPrimitive;
import io.gfxstats.timeline.DisplayFrame;
import io.gfxstats.timeline.SurfaceFrame;
import java.util.ArrayList;
import java.util.List;

/**
 * One parsed line of a frame log: a DisplayFrame and the SurfaceFrames latched in it, with the
 * tokens as written (a JSON number or string, echoed unchanged in the output).
 */
final class FrameLogLine {
    final DisplayFrame display = new DisplayFrame();
    JsonPrimitive displayToken;
    final List<SurfaceFrame> surfaces = new ArrayList<>();
    final List<JsonPrimitive> surfaceTokens = new ArrayList<>();
    int surfaceCount;
    /** The compositor feed's output and MSC; -1 when the line has none. */
    long output = -1;
    long msc = -1;

    /** The i-th surface slot, reused from line to line. */
    SurfaceFrame surface(int i) {
        while (surfaces.size() <= i) {
            surfaces.add(new SurfaceFrame());
            surfaceTokens.add(null);
        }
        return surfaces.get(i);
    }
}
