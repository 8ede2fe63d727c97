package io.gfxstats.collect;

import java.util.List;
import java.util.Objects;

/**
 * How one target fared.
 *
 * @param target the daemon
 * @param ok whether a pull succeeded
 * @param entries entries pulled (0 when failed)
 * @param attempts pull attempts made
 * @param millis wall time spent on this target, backoff included
 * @param error the last attempt's one-line failure, or {@code null} when ok
 * @param rejected one line per pulled entry left out of the merge
 */
public record TargetResult(Target target, boolean ok, int entries, int attempts, long millis, String error,
        List<String> rejected) {
    public TargetResult {
        Objects.requireNonNull(target, "target");
        rejected = List.copyOf(rejected);
        if (ok == (error != null)) {
            throw new IllegalArgumentException("an ok result has no error, a failed one has one");
        }
    }
}
