package io.gfxstats.trace;

import java.util.ArrayList;
import java.util.List;

/** frame_slice, frame_maps and gpu_slice rows as short strings, for assertions (tests only). */
final class Rows {
    private Rows() {
    }

    private static String n(long v, long invalid) {
        return v == invalid ? "N" : Long.toString(v);
    }

    /** "id ts dur vsync type flag src dst" per row; N for NULL, src "" shown as -. */
    static List<String> frames(FrameTable t) {
        List<String> out = new ArrayList<>();
        for (int r = 0; r < t.size(); r++) {
            long dur = t.type(r) == FrameTable.TYPE_EXPECTED && t.end(r) == FrameTable.INVALID ? FrameTable.INVALID : t.dur(r);
            out.add(r + " " + n(t.ts(r), FrameTable.INVALID) + " " + n(dur, FrameTable.INVALID) + " "
                    + n(t.vsync(r), FrameTable.INVALID32) + " " + t.type(r) + " " + n(t.flag(r), FrameTable.FLAG_NONE)
                    + " " + (t.src(r).isEmpty() ? "-" : t.src(r)) + " " + n(t.dst(r), FrameTable.INVALID));
        }
        return out;
    }

    static List<String> maps(FrameTable t) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < t.mapCount(); i++) {
            out.add(t.mapSrc(i) + "->" + t.mapDst(i));
        }
        return out;
    }

    static List<String> gpu(FrameTable t) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < t.gpuCount(); i++) {
            out.add(t.gpuRow(i) + ":" + t.gpuDur(i));
        }
        return out;
    }
}
