package io.gfxstats.stats;

/** The render pipeline of a process; codes match GraphicsStatsProto.PipelineType. */
public enum Pipeline {
    UNKNOWN(0),
    GL(1),
    VULKAN(2);

    private final int code;

    Pipeline(int code) {
        this.code = code;
    }

    public int code() {
        return code;
    }

    /** The pipeline for a wire code; unknown codes map to UNKNOWN rather than failing a dump. */
    public static Pipeline fromCode(int code) {
        for (Pipeline p : values()) {
            if (p.code == code) {
                return p;
            }
        }
        return UNKNOWN;
    }
}
