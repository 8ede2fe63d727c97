package io.gfxstats.timeline.perfetto;

import java.util.ArrayList;
import java.util.List;

/** Trace_processor's texts for the proto enums of FrameTimeline events (spec 2.1, 2.2). */
public final class PerfettoNames {
    private PerfettoNames() {
    }

    /** Proto jank bits in Perfetto's order, with their texts. */
    private static final int[] JANK_BITS = {2, 4, 8, 16, 32, 64, 4096, 128, 256, 512, 1024, 2048, 8192, 16384, 32768};
    private static final String[] JANK_TEXTS = {
        "SurfaceFlinger Scheduling", "Prediction Error", "Display HAL", "SurfaceFlinger CPU Deadline Missed",
        "SurfaceFlinger GPU Deadline Missed", "App Deadline Missed", "App Resynced Jitter", "Buffer Stuffing",
        "Unknown Jank", "SurfaceFlinger Stuffing", "Dropped Frame", "Non Animating", "Display not ON",
        "ModeChange in progress", "PowerModeChange in progress",
    };

    /** The texts of the set bits of a proto jank bitmask, in Perfetto's order ("None", "Unspecified"). */
    public static List<String> jankTypes(int protoMask) {
        List<String> out = new ArrayList<>();
        if (protoMask == 0) {
            out.add("Unspecified");
            return out;
        }
        for (int i = 0; i < JANK_BITS.length; i++) {
            if ((protoMask & JANK_BITS[i]) != 0) {
                out.add(JANK_TEXTS[i]);
            }
        }
        if (out.isEmpty()) {
            out.add("None");
        }
        return out;
    }

    public static String jankType(int protoMask) {
        return String.join(", ", jankTypes(protoMask));
    }

    private static final String[] PRESENT = {
        "Unspecified Present", "On-time Present", "Late Present", "Early Present", "Dropped Frame", "Unknown Present",
    };

    public static String presentType(int p) {
        return p >= 0 && p < PRESENT.length ? PRESENT[p] : "Unspecified Present";
    }

    private static final String[] PREDICTION = {
        "Unspecified Prediction", "Valid Prediction", "Expired Prediction", "Unknown Prediction",
    };

    public static String predictionType(int p) {
        return p >= 0 && p < PREDICTION.length ? PREDICTION[p] : "Unspecified Prediction";
    }

    private static final String[] SEVERITY = {"Unknown", "None", "Partial", "Full"};

    /** Severity text; an event without the field gets "None" if its jank is none, else "Unknown". */
    public static String severity(FrameSlice s) {
        if (s.jankSeverityType() == FrameSlice.ABSENT) {
            return s.jankType() == 1 ? "None" : "Unknown";
        }
        int v = s.jankSeverityType();
        return v >= 0 && v < SEVERITY.length ? SEVERITY[v] : "Unknown";
    }

    private static final int SELF_SURFACE = 64 | 4096 | 256;
    private static final int SF_SIDE = 2 | 4 | 8 | 16 | 32;
    private static final int NON_PERCEIVABLE_ONE_OF = 2048 | 8192 | 32768;
    private static final int PRESENT_DROPPED = 4;

    /** Perfetto's jank_tag of an actual slice (spec 3.3). */
    public static String jankTag(FrameSlice s) {
        int j = s.jankType() == FrameSlice.ABSENT ? 0 : s.jankType();
        if (j == 0) {
            return "Unspecified";
        }
        if (s.isSurface()) {
            if ((j & SELF_SURFACE) != 0) {
                return "Self Jank";
            }
            if ((j & SF_SIDE) != 0) {
                return "Other Jank";
            }
            if (j == 128) {
                return "Buffer Stuffing";
            }
            if (j == 512) {
                return "SurfaceFlinger Stuffing";
            }
            if (s.presentType() == PRESENT_DROPPED) {
                return "Dropped Frame";
            }
        } else {
            if ((j & SF_SIDE) != 0) {
                return "Self Jank";
            }
            if (j == 512) {
                return "SurfaceFlinger Stuffing";
            }
            if (j == 1024) {
                return "Dropped Frame";
            }
        }
        if (Integer.bitCount(j) == 1 && (j & NON_PERCEIVABLE_ONE_OF) != 0) {
            return "Non-perceivable Jank";
        }
        return "No Jank";
    }
}
