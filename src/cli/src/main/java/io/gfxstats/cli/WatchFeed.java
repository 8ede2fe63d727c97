package io.gfxstats.cli;

import io.gfxstats.args.Args;
import io.gfxstats.args.UsageException;
import io.gfxstats.buffer.SceneGroup;
import io.gfxstats.live.LiveScene;
import io.gfxstats.live.LiveSnapshot;
import io.gfxstats.live.SceneFeed;
import io.gfxstats.matrix.FrameMetric;
import io.gfxstats.matrix.MatrixRule;
import io.gfxstats.proto.GfxstatsSceneStats;
import io.gfxstats.rpc.GfxStatsClient;
import io.gfxstats.rpc.GfxStatsClientException;
import io.gfxstats.rpc.v1.LivePackage;
import io.gfxstats.rpc.v1.SceneEntry;
import io.gfxstats.rpc.v1.WatchRequest;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/**
 * The daemon's {@code Watch} stream as a {@link SceneFeed}: a thread reads the stream into a
 * small queue (a view that falls behind drops the oldest snapshot: they are cumulative).
 */
final class WatchFeed implements SceneFeed {
    /** Frames of a package whose sessions count no scenes (old buffers, scenes disabled). */
    static final String NO_SCENES = "(no scenes)";
    private static final Object END = new Object();

    private final GfxStatsClient client;
    private final BlockingQueue<Object> queue = new ArrayBlockingQueue<>(4);
    private final Thread reader;
    private volatile boolean closed;

    private WatchFeed(GfxStatsClient client, WatchRequest request) {
        this.client = client;
        this.reader = new Thread(() -> read(request), "gfxstats-watch");
        reader.setDaemon(true);
        reader.start();
    }

    static SceneFeed open(Args.Parsed args, Map<String, String> env, Duration interval, String packageName)
            throws UsageException {
        WatchRequest request = WatchRequest.newBuilder().setIntervalMs((int) Math.min(interval.toMillis(), 3_600_000))
                .setPackageName(packageName == null ? "" : packageName).build();
        return new WatchFeed(DaemonCall.open(args, env), request);
    }

    private void read(WatchRequest request) {
        Object last = END;
        try {
            client.watch(request, null, s -> {
                offer(convert(s));
                return !closed;
            });
        } catch (GfxStatsClientException e) {
            last = closed ? END : new IOException(e.getMessage(), e);
        } catch (RuntimeException e) {
            last = closed ? END : new IOException("watch failed: " + e, e);
        }
        offer(last);
    }

    private void offer(Object item) {
        while (!queue.offer(item)) {
            queue.poll();
        }
    }

    @Override
    public LiveSnapshot next() throws IOException, InterruptedException {
        if (closed) {
            return null;
        }
        Object item = queue.take();
        if (item == END) {
            offer(END);
            return null;
        }
        if (item instanceof IOException e) {
            offer(END);
            throw e;
        }
        return (LiveSnapshot) item;
    }

    @Override
    public void close() {
        closed = true;
        client.close();
        reader.interrupt();
    }

    /** A Watch snapshot in the live model's terms. */
    static LiveSnapshot convert(io.gfxstats.rpc.v1.LiveSnapshot s) {
        List<LiveScene> rows = new ArrayList<>();
        Map<LiveSnapshot.PackageKey, Long> ringDropped = new HashMap<>();
        for (LivePackage p : s.getPackagesList()) {
            if (p.getRingDroppedFrames() != 0) {
                ringDropped.merge(new LiveSnapshot.PackageKey(p.getPackageName(), p.getVersionCode()),
                        p.getRingDroppedFrames(), Long::sum);
            }
            if (p.getScenesCount() == 0) {
                rows.add(new LiveScene(p.getPackageName(), p.getVersionCode(), NO_SCENES, p.getTotalFrames(),
                        p.getJankyFrames(), 0, new long[MatrixRule.LEVEL_COUNT], new long[MatrixRule.LEVEL_COUNT], 0,
                        0, 0, null));
                continue;
            }
            for (SceneEntry e : p.getScenesList()) {
                rows.add(counters(p.getPackageName(), p.getVersionCode(), e.getStats()));
            }
        }
        return new LiveSnapshot(s.getMonotonicNanos(), s.getWallMillis(), rows, ringDropped);
    }

    static LiveScene counters(String pkg, long version, GfxstatsSceneStats s) {
        long[] counts = new long[MatrixRule.LEVEL_COUNT];
        long[] sums = new long[MatrixRule.LEVEL_COUNT];
        for (int l = 0; l < MatrixRule.LEVEL_COUNT; l++) {
            counts[l] = l < s.getLevelCountsCount() ? s.getLevelCounts(l) : 0;
            sums[l] = l < s.getLevelSumsCount() ? s.getLevelSums(l) : 0;
        }
        long[] stages = new long[FrameMetric.COUNT];
        boolean beyondTotal = false;
        for (int m = 0; m < Math.min(FrameMetric.COUNT, s.getStageDurationNanosCount()); m++) {
            stages[m] = s.getStageDurationNanos(m);
            beyondTotal |= m != FrameMetric.TOTAL && stages[m] != 0;
        }
        return new LiveScene(pkg, version, s.getScene(), s.getTotalFrames(), s.getJankyFrames(),
                s.getMatrixFrames(), counts, sums, s.getFrameCostNanos(),
                s.getDroppedFramesQ20() / (double) (1 << 20), s.getRefreshMillihz() / 1000.0,
                // Frames recorded with their main times only have no stages but TOTAL.
                beyondTotal ? stages : null);
    }

    static {
        if (SceneGroup.LEVELS != MatrixRule.LEVEL_COUNT) {
            throw new ExceptionInInitializerError("level counts disagree");
        }
    }
}
