package io.gfxstats.daemon.rpc;

import io.gfxstats.daemon.log.RateLimitedLog;
import io.grpc.netty.shaded.io.grpc.netty.GrpcHttp2ConnectionHandler;
import io.grpc.netty.shaded.io.netty.channel.Channel;
import io.grpc.netty.shaded.io.netty.handler.codec.http2.Http2Exception;
import io.grpc.netty.shaded.io.netty.handler.codec.http2.Http2RemoteFlowController;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Closes a connection whose peer stopped reading: one of its streams has had data waiting with
 * an unchanged flow-control window, or the socket has not taken a byte, for longer than the
 * stall timeout. gRPC keeps a stream's queued messages until the peer takes them or the stream
 * ends, and the server API has no way to reset one stream, so the connection goes: that frees
 * every queued byte at once and cancels its calls, which frees their shares
 * ({@link StreamShares}). Checked on the connection's own event loop, once a second.
 */
final class StallGuard implements Runnable {
    private static final long PERIOD_MILLIS = 1000;

    private final Channel channel;
    private final long timeoutNanos;
    private final String peer;
    private final RateLimitedLog log;
    /** Stream id -> {window when first seen waiting, since when}. */
    private Map<Integer, long[]> waiting = new HashMap<>();
    private long unwritableSince = -1;

    private StallGuard(Channel channel, Duration timeout, String peer, RateLimitedLog log) {
        this.channel = channel;
        this.timeoutNanos = timeout.toNanos();
        this.peer = peer;
        this.log = log;
    }

    static void watch(Channel channel, Duration timeout, String peer, RateLimitedLog log) {
        StallGuard guard = new StallGuard(channel, timeout, peer, log);
        ScheduledFuture<?> f = channel.eventLoop().scheduleAtFixedRate(guard, PERIOD_MILLIS, PERIOD_MILLIS,
                TimeUnit.MILLISECONDS);
        channel.closeFuture().addListener(x -> f.cancel(false));
    }

    @Override
    public void run() {
        if (!channel.isActive()) {
            return;
        }
        long now = System.nanoTime();
        if (channel.isWritable()) {
            unwritableSince = -1;
        } else if (unwritableSince < 0) {
            unwritableSince = now;
        } else if (now - unwritableSince > timeoutNanos) {
            close("its socket took nothing");
            return;
        }
        GrpcHttp2ConnectionHandler h = channel.pipeline().get(GrpcHttp2ConnectionHandler.class);
        if (h == null) {
            return;
        }
        Http2RemoteFlowController flow = h.encoder().flowController();
        Map<Integer, long[]> seen = new HashMap<>();
        boolean[] stalled = {false};
        try {
            h.connection().forEachActiveStream(stream -> {
                if (flow.hasFlowControlled(stream)) {
                    int window = flow.windowSize(stream);
                    long[] before = waiting.get(stream.id());
                    long since = before != null && before[0] == window ? before[1] : now;
                    seen.put(stream.id(), new long[] {window, since});
                    stalled[0] |= now - since > timeoutNanos;
                }
                return true;
            });
        } catch (Http2Exception e) {
            return;
        }
        waiting = seen;
        if (stalled[0]) {
            close("a stream of it read nothing");
        }
    }

    private void close(String why) {
        log.warn("closed the connection of " + peer + ": " + why + " for " + timeoutNanos / 1_000_000
                + " ms (setting dump.stall.timeout)");
        // Straight to the socket: a close through the HTTP/2 handler would first write a GOAWAY
        // and wait for it, which a peer that reads nothing never lets happen.
        channel.pipeline().firstContext().close();
    }
}
