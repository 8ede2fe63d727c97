package io.gfxstats.framestats;

/**
 * Input that looks like framestats but cannot be read: a malformed row, a header that lacks a
 * column the tracker needs, a section that is never closed. Carries the 1-based line number so
 * the user can find the line in a file of thousands.
 */
public final class FramestatsFormatException extends Exception {
    private static final long serialVersionUID = 1L;

    private final String source;
    private final int line;
    private final String detail;

    public FramestatsFormatException(String source, int line, String detail) {
        super(source + ":" + line + ": " + detail);
        this.source = source;
        this.line = line;
        this.detail = detail;
    }

    /** The name the input was read under (file name, or "stdin"). */
    public String source() {
        return source;
    }

    /** 1-based line number of the offending line. */
    public int line() {
        return line;
    }

    /** The problem, without source and line. */
    public String detail() {
        return detail;
    }
}
