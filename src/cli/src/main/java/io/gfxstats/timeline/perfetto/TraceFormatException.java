package io.gfxstats.timeline.perfetto;

/** A trace that cannot be read: not a Perfetto trace, truncated, or compressed in an unknown way. */
public final class TraceFormatException extends Exception {
    private static final long serialVersionUID = 1L;

    public TraceFormatException(String message) {
        super(message);
    }

    public TraceFormatException(String message, Throwable cause) {
        super(message, cause);
    }
}
