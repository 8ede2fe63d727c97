package io.gfxstats.collect;

import java.time.Duration;
import java.util.Objects;

/**
 * How hard to try one target: a deadline for everything spent on it (attempts and the pauses
 * between them), and up to {@code retries} further attempts after a retryable failure, pausing
 * {@code initialBackoff}, then twice that, and so on up to {@code maxBackoff}.
 */
public record RetryPolicy(Duration deadline, int retries, Duration initialBackoff, Duration maxBackoff) {
    public static final Duration DEFAULT_DEADLINE = Duration.ofSeconds(20);
    public static final int DEFAULT_RETRIES = 2;
    public static final Duration DEFAULT_INITIAL_BACKOFF = Duration.ofMillis(250);
    public static final Duration DEFAULT_MAX_BACKOFF = Duration.ofSeconds(4);
    /** An attempt with less time than this left is not worth starting. */
    static final Duration MIN_ATTEMPT = Duration.ofMillis(50);

    public RetryPolicy {
        Objects.requireNonNull(deadline, "deadline");
        Objects.requireNonNull(initialBackoff, "initialBackoff");
        Objects.requireNonNull(maxBackoff, "maxBackoff");
        if (deadline.compareTo(MIN_ATTEMPT) < 0) {
            throw new IllegalArgumentException("per-target deadline below " + MIN_ATTEMPT.toMillis() + " ms: " + deadline);
        }
        if (retries < 0) {
            throw new IllegalArgumentException("retries must not be negative: " + retries);
        }
        if (initialBackoff.isNegative() || maxBackoff.compareTo(initialBackoff) < 0) {
            throw new IllegalArgumentException("backoff must be 0 <= initial <= max: " + initialBackoff + ", " + maxBackoff);
        }
    }

    public static RetryPolicy of(Duration deadline, int retries) {
        return new RetryPolicy(deadline, retries, DEFAULT_INITIAL_BACKOFF, DEFAULT_MAX_BACKOFF);
    }

    /** The pause after failed attempt number {@code attempt} (1-based). */
    public Duration backoff(int attempt) {
        Duration d = initialBackoff;
        for (int i = 1; i < attempt && d.compareTo(maxBackoff) < 0; i++) {
            d = d.multipliedBy(2);
        }
        return d.compareTo(maxBackoff) > 0 ? maxBackoff : d;
    }
}
