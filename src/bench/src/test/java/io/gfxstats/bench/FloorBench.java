package io.gfxstats.bench;

import org.HdrHistogram.AtomicHistogram;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.Locale;

/**
 * The least a Java ring append can cost in {@link RenderThreadBench}'s harness, against
 * AtomicHistogram in the same process: the question is whether any ring design could meet the
 * issue's 0.5x back to back, not how ours does.
 *
 * <p>The floor stores a frame's five values as they are, 64 bytes apart (one frame a line, so the
 * index is one mask of a counter and nothing is computed), into a {@code static final} array whose
 * length C2 knows, so that the mask proves every index in range and no range check is left; then a
 * release store of the position, as a consumer would need. No tracker, no null check, no limit, no
 * slow path, no consumer: the ring is never read, so its lines stay in the recording core's cache
 * (the same-core case). Anything a real client adds (the tracker's ring reference, the room check
 * against the consumer, a second path) only costs more.
 *
 * <p>Same frames, same chunks of 256, each chunk's frames read once untimed first, the same medians
 * over the chunks of all rounds but the first (a warm-up), as {@link RenderThreadBench}; pinned to
 * the first allowed CPU. Prints {@code lang=java method=floor record_ns=... peer_ns=... ratio=...}.
 *
 * <p>Usage: {@code FloorBench [FRAMES [ROUNDS]]} (defaults 1000000 and 5).
 */
public final class FloorBench {
    private static final int LINES = 4096; // 256 KiB: the same order as a tracker's ring
    private static final long[] RING = new long[LINES * 8];
    private static final int MASK = (LINES - 1) * 8;
    private static final VarHandle POSITION;
    @SuppressWarnings("unused") // written through POSITION
    private static volatile int position;
    private static int next;

    static {
        try {
            POSITION = MethodHandles.lookup().findStaticVarHandle(FloorBench.class, "position", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private FloorBench() {
    }

    static void append(long intendedVsync, long vsync, long frameCompleted, long gpuCompleted, long interval) {
        int p = next;
        int i = p & MASK;
        RING[i] = intendedVsync;
        RING[i + 1] = vsync;
        RING[i + 2] = frameCompleted;
        RING[i + 3] = gpuCompleted;
        RING[i + 4] = interval;
        next = p + 8;
        POSITION.setRelease(p + 8);
    }

    static void floorChunk(long[] f, int from, int to) {
        for (int i = from; i < to; i++) {
            append(f[3 * i], f[3 * i], f[3 * i + 1], f[3 * i + 2], RenderThreadBench.INTERVAL);
        }
    }

    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        int chunk = 256;
        long[] f = RenderThreadBench.frames(n);
        int perRound = (n + chunk - 1) / chunk;
        double[] rec = new double[perRound * rounds];
        double[] peer = new double[rec.length];
        AtomicHistogram histogram = new AtomicHistogram(RenderThreadBench.HIGHEST_NANOS, 2);
        RenderThreadBench.pin(RenderThreadBench.firstTwoCpus()[0]);
        int k = 0;
        for (int r = 0; r <= rounds; r++) {
            for (int c = 0; c < n; c += chunk) {
                int end = Math.min(c + chunk, n);
                RenderThreadBench.warm(f, c, end);
                long t0 = System.nanoTime();
                floorChunk(f, c, end);
                long t1 = System.nanoTime();
                RenderThreadBench.peerChunk(histogram, f, c, end, 0);
                long t2 = System.nanoTime();
                if (r > 0) {
                    rec[k] = (t1 - t0) / (double) (end - c);
                    peer[k] = (t2 - t1) / (double) (end - c);
                    k++;
                }
            }
        }
        if (RING[(int) (histogram.getTotalCount() % LINES) * 8 + 4] != RenderThreadBench.INTERVAL) {
            throw new AssertionError("the floor ring does not hold the frames");
        }
        Arrays.sort(rec);
        Arrays.sort(peer);
        double a = rec[rec.length / 2];
        double b = peer[peer.length / 2];
        System.out.println(String.format(Locale.ROOT,
                "lang=java method=floor record_ns=%.2f peer_ns=%.2f ratio=%.2f frames=%d rounds=%d chunk=%d "
                        + "record_min=%.2f peer_min=%.2f", a, b, a / b, n, rounds, chunk, rec[0], peer[0]));
    }
}
