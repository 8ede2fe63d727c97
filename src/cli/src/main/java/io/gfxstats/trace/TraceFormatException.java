package io.gfxstats.trace;

/** Trace text that cannot be read; the message names the source and, where known, the line. */
public final class TraceFormatException extends Exception {
    private static final long serialVersionUID = 1L;

    public TraceFormatException(String message) {
        super(message);
    }
}
