package io.gfxstats.timeline;

/**
 * SurfaceFlinger's FrameTimeline jank bits (JankInfo.h values), their names, and the conversion
 * to and from the bitmask of Perfetto's {@code FrameTimelineEvent.JankType}, whose bit values
 * differ. The order of {@link #BITS} is the order of the spec's table (and of dumpsys), used
 * wherever several bits are listed.
 */
public final class JankType {
    public static final int NONE = 0;
    public static final int DISPLAY_HAL = 0x1;
    public static final int SF_CPU_DEADLINE_MISSED = 0x2;
    public static final int SF_GPU_DEADLINE_MISSED = 0x4;
    public static final int APP_DEADLINE_MISSED = 0x8;
    public static final int PREDICTION_ERROR = 0x10;
    public static final int SF_SCHEDULING = 0x20;
    public static final int BUFFER_STUFFING = 0x40;
    public static final int UNKNOWN = 0x80;
    public static final int SF_STUFFING = 0x100;
    public static final int DROPPED = 0x200;
    /** Android 17 bits: never produced by the Android 16 classifier, read from traces. */
    public static final int NON_ANIMATING = 0x400;
    public static final int APP_RESYNCED_JITTER = 0x800;
    public static final int DISPLAY_NOT_ON = 0x1000;
    public static final int DISPLAY_MODE_CHANGE_IN_PROGRESS = 0x2000;
    public static final int DISPLAY_POWER_MODE_CHANGE_IN_PROGRESS = 0x4000;

    /**
     * Every bit, in the table's order (dumpsys order for the Android 16 bits): bit i is 1 << i,
     * which counting relies on (a test checks it).
     */
    private static final int[] BITS = {
        DISPLAY_HAL, SF_CPU_DEADLINE_MISSED, SF_GPU_DEADLINE_MISSED, APP_DEADLINE_MISSED, PREDICTION_ERROR,
        SF_SCHEDULING, BUFFER_STUFFING, UNKNOWN, SF_STUFFING, DROPPED, NON_ANIMATING, APP_RESYNCED_JITTER,
        DISPLAY_NOT_ON, DISPLAY_MODE_CHANGE_IN_PROGRESS, DISPLAY_POWER_MODE_CHANGE_IN_PROGRESS,
    };
    private static final String[] NAMES = {
        "DisplayHAL", "SurfaceFlingerCpuDeadlineMissed", "SurfaceFlingerGpuDeadlineMissed", "AppDeadlineMissed",
        "PredictionError", "SurfaceFlingerScheduling", "BufferStuffing", "Unknown", "SurfaceFlingerStuffing",
        "Dropped", "NonAnimating", "AppResyncedJitter", "DisplayNotOn", "DisplayModeChangeInProgress",
        "DisplayPowerModeChangeInProgress",
    };
    /** Perfetto's proto bit for each entry of {@link #BITS}. */
    private static final int[] PROTO_BITS = {
        8, 16, 32, 64, 4, 2, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768,
    };
    /** Proto JANK_NONE; JANK_UNSPECIFIED is 0. */
    public static final int PROTO_NONE = 1;

    /** Every bit that is defined; anything else is an error. */
    public static final int ALL = (1 << BITS.length) - 1;

    private JankType() {
    }

    /** How many bits there are (the counters keep one per bit). */
    public static int count() {
        return BITS.length;
    }

    /** The bit at table position {@code index}. */
    public static int bit(int index) {
        return BITS[index];
    }

    /** The name of the bit at table position {@code index}, as in the spec's first column. */
    public static String name(int index) {
        return NAMES[index];
    }

    /** The table position of a single bit's name, or -1. */
    public static int indexOf(String name) {
        for (int i = 0; i < NAMES.length; i++) {
            if (NAMES[i].equals(name)) {
                return i;
            }
        }
        return -1;
    }

    /** The names of the set bits in table order, or "None" for no bit, joined by {@code separator}. */
    public static String names(int mask, String separator) {
        if (mask == NONE) {
            return "None";
        }
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < BITS.length; i++) {
            if ((mask & BITS[i]) != 0) {
                if (sb.length() > 0) {
                    sb.append(separator);
                }
                sb.append(NAMES[i]);
            }
        }
        return sb.toString();
    }

    /**
     * Our bits from a trace's proto bitmask: JANK_NONE (1) and JANK_UNSPECIFIED (0) give none;
     * returns -1 when a bit is not defined.
     */
    public static int fromProto(int protoMask) {
        int rest = protoMask & ~PROTO_NONE;
        int mask = NONE;
        for (int i = 0; i < BITS.length; i++) {
            if ((rest & PROTO_BITS[i]) != 0) {
                mask |= BITS[i];
                rest &= ~PROTO_BITS[i];
            }
        }
        return rest == 0 ? mask : -1;
    }

    /** The proto bitmask of our bits (JANK_NONE for none). */
    public static int toProto(int mask) {
        if (mask == NONE) {
            return PROTO_NONE;
        }
        int proto = 0;
        for (int i = 0; i < BITS.length; i++) {
            if ((mask & BITS[i]) != 0) {
                proto |= PROTO_BITS[i];
            }
        }
        return proto;
    }

    /** TimeStats' janky reasons (spec 3.3): Unknown, both stuffings and Dropped are not janky. */
    public static final int TIMESTATS_JANKY = DISPLAY_HAL | SF_CPU_DEADLINE_MISSED | SF_GPU_DEADLINE_MISSED
            | APP_DEADLINE_MISSED | PREDICTION_ERROR | SF_SCHEDULING;

    /** Perfetto's metric: app jank (spec 3.3). */
    public static final int PERFETTO_APP_JANK = APP_DEADLINE_MISSED | APP_RESYNCED_JITTER;
    /** Perfetto's metric: SurfaceFlinger jank (spec 3.3). */
    public static final int PERFETTO_SF_JANK = SF_CPU_DEADLINE_MISSED | SF_GPU_DEADLINE_MISSED | SF_SCHEDULING
            | PREDICTION_ERROR | DISPLAY_HAL;

    /** Whether TimeStats counts a frame with this jank as janky. */
    public static boolean isTimeStatsJanky(int mask) {
        return (mask & TIMESTATS_JANKY) != 0;
    }
}
