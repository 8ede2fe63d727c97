package io.gfxstats.daemon.rpc;

import io.gfxstats.rpc.v1.BufferAssigned;
import io.gfxstats.rpc.v1.DumpRequest;
import io.gfxstats.rpc.v1.HealthResponse;
import io.gfxstats.rpc.v1.PullRequest;
import io.gfxstats.rpc.v1.PullResponse;
import io.gfxstats.rpc.v1.RegisterRequest;
import java.io.IOException;
import java.io.OutputStream;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A small real implementation of the backend interface for transport tests: records what the
 * service hands it and produces dumps of a chosen size. Requests whose package name is
 * {@code refuse:KIND} are refused with that {@link StatsException.Kind}; {@code crash} throws an
 * unexpected exception; {@code block} waits until {@link #unblock()}.
 */
final class TestBackend implements StatsBackend {
    record Registered(PeerIdentity peer, RegisterRequest request, String registrationId) {
    }

    record Ended(String registrationId, PeerIdentity peer, EndReason reason, long atNanos) {
    }

    final BlockingQueue<Registered> registered = new LinkedBlockingQueue<>();
    final BlockingQueue<Ended> ended = new LinkedBlockingQueue<>();
    final BlockingQueue<Caller> dumpCallers = new LinkedBlockingQueue<>();
    final BlockingQueue<IOException> dumpFailures = new LinkedBlockingQueue<>();
    final AtomicLong dumpBytesWritten = new AtomicLong();
    private final AtomicInteger ids = new AtomicInteger();
    private final AtomicInteger open = new AtomicInteger();
    private final CountDownLatch unblock = new CountDownLatch(1);
    volatile long dumpSize = 1000;
    volatile StatsException pullRefusal;

    /** The byte at offset {@code i} of every dump. */
    static byte patternAt(long i) {
        return (byte) (i * 31 + (i >>> 11) + 7);
    }

    final CountDownLatch registerBlocked = new CountDownLatch(1);

    void unblock() {
        unblock.countDown();
    }

    private void awaitUnblock() {
        try {
            unblock.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public Registration register(PeerIdentity peer, RegisterRequest request) throws StatsException {
        refuseIfAsked(request.getPackageName());
        if (request.getPackageName().equals("block")) {
            registerBlocked.countDown();
            awaitUnblock();
        }
        String id = "reg-" + ids.incrementAndGet();
        registered.add(new Registered(peer, request, id));
        open.incrementAndGet();
        BufferAssigned assigned = BufferAssigned.newBuilder()
                .setRegistrationId(id)
                .setBufferPath("/nonexistent/buffers/" + peer.pid())
                .setLayoutVersion(1)
                .setBufferSize(4096)
                .build();
        return Registration.of(assigned, reason -> {
            open.decrementAndGet();
            ended.add(new Ended(id, peer, reason, System.nanoTime()));
        });
    }

    @Override
    public void dump(DumpRequest request, OutputStream sink) throws StatsException, IOException {
        dumpCallers.add(Caller.current());
        refuseIfAsked(request.getPackageName());
        if (request.getPackageName().equals("block")) {
            awaitUnblock();
        }
        long size = dumpSize;
        // Mixed write sizes: single bytes, small writes and writes larger than a chunk.
        int[] pieces = {1, 700, 3, 150_000, 4096, 65_536, 17};
        byte[] buf = new byte[150_000];
        long i = 0;
        int p = 0;
        try {
            while (i < size) {
                int n = (int) Math.min(pieces[p++ % pieces.length], size - i);
                if (n == 1) {
                    sink.write(patternAt(i));
                } else {
                    for (int k = 0; k < n; k++) {
                        buf[k] = patternAt(i + k);
                    }
                    sink.write(buf, 0, n);
                }
                i += n;
                dumpBytesWritten.set(i);
                sink.flush();
            }
        } catch (IOException e) {
            dumpFailures.add(e);
            throw e;
        }
    }

    @Override
    public io.gfxstats.rpc.v1.ScenesResponse scenes(io.gfxstats.rpc.v1.ScenesRequest request) {
        return io.gfxstats.rpc.v1.ScenesResponse.newBuilder().addEntries(io.gfxstats.rpc.v1.SceneEntry.newBuilder()
                .setPackageName(request.getPackageName()).setStats(io.gfxstats.proto.GfxstatsSceneStats.newBuilder()
                        .setScene("menu").setTotalFrames(7))).build();
    }

    /** Live snapshots served so far; each has that count as its frames. */
    final java.util.concurrent.atomic.AtomicLong liveSnapshots = new java.util.concurrent.atomic.AtomicLong();

    @Override
    public io.gfxstats.rpc.v1.LiveSnapshot liveSnapshot(String packageName) {
        long n = liveSnapshots.incrementAndGet();
        return io.gfxstats.rpc.v1.LiveSnapshot.newBuilder().setMonotonicNanos(System.nanoTime())
                .addPackages(io.gfxstats.rpc.v1.LivePackage.newBuilder().setPackageName(packageName).setTotalFrames(n))
                .build();
    }

    @Override
    public PullResponse pull(PullRequest request) throws StatsException {
        StatsException refusal = pullRefusal;
        if (refusal != null) {
            throw refusal;
        }
        return PullResponse.newBuilder().setDayStart(request.getLastFullDay() ? 86_400_000L : 172_800_000L).build();
    }

    @Override
    public HealthResponse health() {
        return HealthResponse.newBuilder().setVersion("test").setLiveBuffers(open.get()).build();
    }

    private static void refuseIfAsked(String packageName) throws StatsException {
        if (packageName.startsWith("refuse:")) {
            StatsException.Kind kind = StatsException.Kind.valueOf(packageName.substring("refuse:".length()));
            throw new StatsException(kind, "refused as asked: " + kind.name().toLowerCase());
        }
        if (packageName.equals("crash")) {
            throw new IllegalStateException("backend bug");
        }
    }
}
