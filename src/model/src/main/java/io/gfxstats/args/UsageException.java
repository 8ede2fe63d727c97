package io.gfxstats.args;

/** A problem with the command line or its input, reported as one line on stderr with exit code 2. */
public final class UsageException extends Exception {
    private static final long serialVersionUID = 1L;

    /** The option at fault, null when the problem is not one option's. */
    private final String option;

    public UsageException(String message) {
        super(message);
        this.option = null;
    }

    /** A problem with one option, named for callers that report it by name (the daemon's config errors). */
    public static UsageException about(String option, String message) {
        return new UsageException(option, message, null);
    }

    private UsageException(String option, String message, Throwable cause) {
        super(message, cause);
        this.option = option;
    }

    public String option() {
        return option;
    }

    public UsageException(String message, Throwable cause) {
        super(message, cause);
        this.option = null;
    }
}
