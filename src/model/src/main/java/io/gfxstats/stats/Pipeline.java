package io.gfxstats.stats;

import java.util.Locale;

/**
 * The render pipeline of a process; codes match GraphicsStatsProto.PipelineType. Android writes
 * only GL or VULKAN; UNKNOWN (code 0) means "not said" and Android's own validation of a dump
 * rejects it (docs/client-api.md, "Pipeline").
 */
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

    /** The values of a {@code --pipeline} option, in the words {@link #parseOption} accepts. */
    public static final String OPTION_VALUES = "gl|vulkan";

    /**
     * The pipeline named by a command-line option: {@code gl} or {@code vulkan} (any case).
     *
     * @throws IllegalArgumentException naming the accepted values
     */
    public static Pipeline parseOption(String value) {
        String v = value == null ? "" : value.trim().toLowerCase(Locale.ROOT);
        return switch (v) {
            case "gl" -> GL;
            case "vulkan" -> VULKAN;
            default -> throw new IllegalArgumentException("--pipeline takes gl or vulkan, got '" + value + "'");
        };
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
