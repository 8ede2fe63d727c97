package io.gfxstats.collect;

import io.gfxstats.rpc.ClientOptions;
import io.gfxstats.rpc.GfxStatsClient;
import io.gfxstats.rpc.GfxStatsClientException;
import io.gfxstats.rpc.v1.PullRequest;
import io.gfxstats.rpc.v1.PullResponse;
import io.grpc.Status;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;

/**
 * Pulls over gRPC: Unix-socket targets as the local user, TCP targets with the fleet's TLS trust
 * certificate and bearer token. A fresh connection per attempt, so a retry never reuses a
 * connection that just failed.
 */
public final class GrpcTargetPuller implements TargetPuller {
    /** Failures that can pass: a daemon restarting or overloaded, a slow network. */
    private static final Set<Status.Code> RETRYABLE = Set.of(Status.Code.UNAVAILABLE, Status.Code.DEADLINE_EXCEEDED,
            Status.Code.RESOURCE_EXHAUSTED, Status.Code.ABORTED);

    private final Path trustCertificate;
    private final String token;

    /**
     * @param trustCertificate PEM certificate (or CA) that TCP daemons' TLS certificates must chain to;
     *     {@code null} for plaintext TCP
     * @param token bearer token for TCP daemons, or {@code null}
     */
    public GrpcTargetPuller(Path trustCertificate, String token) {
        this.trustCertificate = trustCertificate;
        this.token = token;
    }

    @Override
    public PullResponse pull(Target target, PullRequest request, Duration deadline) throws PullFailure {
        ClientOptions options = ClientOptions.DEFAULTS.withPullDeadline(deadline);
        GfxStatsClient client;
        try {
            client = target.isUnix()
                    ? GfxStatsClient.unix(target.socket(), options)
                    : GfxStatsClient.tcp(target.host(), target.port(), trustCertificate, token, options);
        } catch (IllegalArgumentException e) {
            throw new PullFailure(e.getMessage(), false, e);
        }
        try (client) {
            return client.pull(request);
        } catch (GfxStatsClientException e) {
            throw new PullFailure(e.getMessage(), RETRYABLE.contains(e.code()), e);
        }
    }
}
