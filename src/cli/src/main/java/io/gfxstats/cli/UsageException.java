package io.gfxstats.cli;

/** A problem with the command line or its input, reported as one line on stderr with exit code 2. */
public final class UsageException extends Exception {
    private static final long serialVersionUID = 1L;

    public UsageException(String message) {
        super(message);
    }

    public UsageException(String message, Throwable cause) {
        super(message, cause);
    }
}
