package io.gfxstats.live;

import io.gfxstats.frame.FrameInfo;
import io.gfxstats.frame.FrameTracker;
import io.gfxstats.framestats.FramestatsBlock;
import io.gfxstats.framestats.FramestatsReader;
import io.gfxstats.framestats.FramestatsReplay;
import io.gfxstats.matrix.MatrixLevels;
import io.gfxstats.matrix.MatrixRule;
import io.gfxstats.stats.ProfileData;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A real capture replayed as a live feed: every window block is a scene of its process, frames
 * are counted (Android's verdict from the modern tracker, Matrix's by the client rule) in the
 * order they completed, and a snapshot is taken every {@code intervalNanos} of device time,
 * starting one interval before the first frame (so cumulative views cover every frame).
 */
public final class CaptureFeed implements SceneFeed {
    private final List<LiveSnapshot> snapshots;
    private int next;

    /** {@code android}: a frame Android's counters take; else one only Matrix counts. */
    private record Event(long completed, LiveScene.Key key, FrameInfo frame, boolean janky, boolean android) {
    }

    public CaptureFeed(Path capture, long intervalNanos) throws Exception {
        List<Event> events = new ArrayList<>();
        Map<LiveScene.Key, SceneAccumulator> accumulators = new LinkedHashMap<>();
        for (FramestatsBlock block : FramestatsReader.read(capture)) {
            LiveScene.Key key = new LiveScene.Key(block.process().orElse(block.name()), 0, block.name());
            accumulators.put(key, new SceneAccumulator(key, MatrixLevels.DEFAULT, true));
            FrameTracker tracker = FramestatsReplay.trackerFor(block.columnSet(), FramestatsReplay.DEFAULT_REFRESH_INTERVAL_NANOS,
                    io.gfxstats.frame.DaveyListener.ignoring());
            ProfileData data = new ProfileData();
            for (int i = 0; i < block.frameCount(); i++) {
                FrameInfo f = block.frame(i);
                long jankyBefore = data.jankyFrames();
                tracker.finishFrame(f, data);
                events.add(new Event(f.get(FrameInfo.FRAME_COMPLETED), key, f, data.jankyFrames() > jankyBefore, true));
            }
            // Rows Matrix counts that the Android replay leaves out (totals of 0 ns or of an hour or more),
            // fed at their IntendedVsync: the capture's two such rows complete 9 years later, and a
            // snapshot per second of that would not fit in memory.
            for (int i = 0; i < block.matrixFrameCount(); i++) {
                FrameInfo f = block.loadMatrixFrame(i, new FrameInfo());
                long total = f.get(FrameInfo.FRAME_COMPLETED) - f.get(FrameInfo.INTENDED_VSYNC);
                if (total == 0 || total >= FramestatsBlock.MAX_FRAME_SPAN_NANOS) {
                    events.add(new Event(f.get(FrameInfo.INTENDED_VSYNC), key, f, false, false));
                }
            }
        }
        events.sort(Comparator.comparingLong(Event::completed));
        snapshots = new ArrayList<>();
        if (events.isEmpty()) {
            return;
        }
        long t = events.get(0).completed() - intervalNanos;
        snapshots.add(snapshot(t, accumulators));
        int i = 0;
        while (i < events.size()) {
            t += intervalNanos;
            while (i < events.size() && events.get(i).completed() <= t) {
                Event e = events.get(i++);
                float hz = MatrixRule.refreshHz(e.frame().get(FrameInfo.FRAME_INTERVAL), 0f);
                if (e.android()) {
                    accumulators.get(e.key()).add(e.frame(), e.janky(), hz);
                } else {
                    accumulators.get(e.key()).addMatrixOnly(e.frame(), hz);
                }
            }
            snapshots.add(snapshot(t, accumulators));
        }
    }

    private static LiveSnapshot snapshot(long t, Map<LiveScene.Key, SceneAccumulator> accumulators) {
        List<LiveScene> scenes = new ArrayList<>();
        for (SceneAccumulator a : accumulators.values()) {
            scenes.add(a.counters());
        }
        return new LiveSnapshot(t, t / 1_000_000L, scenes);
    }

    public List<LiveSnapshot> all() {
        return snapshots;
    }

    @Override
    public LiveSnapshot next() {
        return next < snapshots.size() ? snapshots.get(next++) : null;
    }

    @Override
    public void close() {
    }
}
