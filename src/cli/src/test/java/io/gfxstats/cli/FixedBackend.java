package io.gfxstats.cli;

import io.gfxstats.daemon.rpc.PeerIdentity;
import io.gfxstats.daemon.rpc.Registration;
import io.gfxstats.daemon.rpc.StatsBackend;
import io.gfxstats.daemon.rpc.StatsException;
import io.gfxstats.rpc.v1.DumpRequest;
import io.gfxstats.rpc.v1.HealthResponse;
import io.gfxstats.rpc.v1.PullRequest;
import io.gfxstats.rpc.v1.PullResponse;
import io.gfxstats.rpc.v1.RegisterRequest;
import java.io.IOException;
import java.io.OutputStream;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * A backend for command tests: serves fixed bytes (text for text dumps, proto for {@code --proto}),
 * written in uneven pieces so that chunk boundaries fall anywhere, and a fixed pull answer.
 * Records every request. {@link #refusal} makes every call fail with that refusal.
 */
public final class FixedBackend implements StatsBackend {
    public final BlockingQueue<DumpRequest> dumps = new LinkedBlockingQueue<>();
    public final BlockingQueue<PullRequest> pulls = new LinkedBlockingQueue<>();
    public volatile byte[] text = new byte[0];
    public volatile byte[] proto = new byte[0];
    public volatile PullResponse pullResponse = PullResponse.getDefaultInstance();
    public volatile StatsException refusal;

    @Override
    public Registration register(PeerIdentity peer, RegisterRequest request) throws StatsException {
        throw StatsException.permissionDenied("no registrations in command tests");
    }

    @Override
    public void dump(DumpRequest request, OutputStream sink) throws StatsException, IOException {
        dumps.add(request);
        refuseIfAsked();
        byte[] data = request.getProto() ? proto : text;
        int[] pieces = {1, 700, 3, 90_000, 4096, 17};
        int i = 0;
        int p = 0;
        while (i < data.length) {
            int n = Math.min(pieces[p++ % pieces.length], data.length - i);
            sink.write(data, i, n);
            i += n;
        }
    }

    public final BlockingQueue<io.gfxstats.rpc.v1.ScenesRequest> sceneRequests = new LinkedBlockingQueue<>();
    public volatile io.gfxstats.rpc.v1.ScenesResponse scenesResponse =
            io.gfxstats.rpc.v1.ScenesResponse.getDefaultInstance();

    @Override
    public io.gfxstats.rpc.v1.ScenesResponse scenes(io.gfxstats.rpc.v1.ScenesRequest request) {
        sceneRequests.add(request);
        return scenesResponse;
    }

    @Override
    public PullResponse pull(PullRequest request) throws StatsException {
        pulls.add(request);
        refuseIfAsked();
        return pullResponse;
    }

    @Override
    public HealthResponse health() throws StatsException {
        refuseIfAsked();
        return HealthResponse.newBuilder().setVersion("fixed").build();
    }

    private void refuseIfAsked() throws StatsException {
        StatsException r = refusal;
        if (r != null) {
            throw r;
        }
    }
}
