package io.gfxstats.timeline.log;

/** A frame log line that cannot be classified; the message names the line. */
public final class FrameLogException extends Exception {
    private static final long serialVersionUID = 1L;

    private final long line;

    public FrameLogException(long line, String message) {
        super("line " + line + ": " + message);
        this.line = line;
    }

    public long line() {
        return line;
    }
}
