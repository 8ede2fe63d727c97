package io.gfxstats.collect;

/** One failed pull attempt: a one-line reason, and whether trying again could help. */
public final class PullFailure extends Exception {
    private static final long serialVersionUID = 1L;

    private final boolean retryable;

    public PullFailure(String message, boolean retryable, Throwable cause) {
        super(message, cause);
        this.retryable = retryable;
    }

    public PullFailure(String message, boolean retryable) {
        this(message, retryable, null);
    }

    /** A daemon down, restarting, busy or slow; not a refused token or a bad certificate. */
    public boolean retryable() {
        return retryable;
    }
}
