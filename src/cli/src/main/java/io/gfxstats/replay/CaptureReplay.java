package io.gfxstats.replay;

import io.gfxstats.client.StatsSession;
import io.gfxstats.client.WindowTracker;
import io.gfxstats.frame.DaveyListener;
import io.gfxstats.framestats.FramestatsBlock;
import io.gfxstats.framestats.FramestatsReplay;
import io.gfxstats.stats.Pipeline;
import java.util.List;
import java.util.Objects;

/**
 * Records the windows of a framestats capture into a live {@link StatsSession}, as the app
 * would have: one {@link WindowTracker} per window block, with the rules of the offline
 * replay ({@link FramestatsReplay#trackerFor}: captured deadlines are not extended again,
 * 16-column blocks use the Android 9 rules). The session's buffer therefore ends up holding,
 * summed over windows, exactly what {@code gfxstats framestats} computes for the capture.
 *
 * <p>Windows are recorded one after the other on the calling thread; each tracker is closed
 * when its window's frames are done. Order does not matter for the counts: every tracker
 * keeps its own jank state.
 */
public final class CaptureReplay {
    private final List<FramestatsBlock> blocks;
    private final long refreshIntervalNanos;

    public CaptureReplay(List<FramestatsBlock> blocks, long refreshIntervalNanos) {
        this.blocks = List.copyOf(blocks);
        if (refreshIntervalNanos <= 0) {
            throw new IllegalArgumentException("refresh interval must be positive: " + refreshIntervalNanos);
        }
        this.refreshIntervalNanos = refreshIntervalNanos;
    }

    public int windowCount() {
        return blocks.size();
    }

    /** Finished frames over all windows: what {@link #record} feeds to the trackers. */
    public long frameCount() {
        long n = 0;
        for (FramestatsBlock b : blocks) {
            n += b.frameCount();
        }
        return n;
    }

    /**
     * The pipeline to register with: the capture's, or when its processes differ, the last
     * known one, which is what merging the offline entries in order gives.
     */
    public Pipeline pipeline() {
        Pipeline p = Pipeline.UNKNOWN;
        for (FramestatsBlock b : blocks) {
            if (b.pipeline() != Pipeline.UNKNOWN) {
                p = b.pipeline();
            }
        }
        return p;
    }

    /**
     * Records every window's frames, each when {@code pacer} says it is due.
     *
     * @return frames recorded
     */
    public long record(StatsSession session, FramePacer pacer, ProgressReporter progress) throws InterruptedException {
        Objects.requireNonNull(session, "session");
        long recorded = 0;
        for (FramestatsBlock block : blocks) {
            try (WindowTracker tracker = session.newTracker(
                    FramestatsReplay.trackerFor(block.columnSet(), refreshIntervalNanos, DaveyListener.ignoring()))) {
                for (int i = 0; i < block.frameCount(); i++) {
                    pacer.awaitFrame(recorded);
                    tracker.record(block.frame(i));
                    recorded++;
                    progress.recorded(recorded);
                }
            }
        }
        progress.finished(recorded);
        return recorded;
    }
}
