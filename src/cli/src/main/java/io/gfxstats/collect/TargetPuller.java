package io.gfxstats.collect;

import io.gfxstats.rpc.v1.PullRequest;
import io.gfxstats.rpc.v1.PullResponse;
import java.time.Duration;

/** One pull attempt from one daemon. Called from several threads at once. */
@FunctionalInterface
public interface TargetPuller {
    /**
     * @param deadline the most this attempt may take, connection included
     * @throws PullFailure when the attempt failed; its {@link PullFailure#retryable()} decides whether
     *     the collector tries again
     */
    PullResponse pull(Target target, PullRequest request, Duration deadline) throws PullFailure, InterruptedException;
}
