package io.gfxstats.replay;

import io.gfxstats.client.StatsSession;
import io.gfxstats.client.WindowTracker;
import io.gfxstats.frame.DaveyListener;
import io.gfxstats.frame.FrameInfo;
import io.gfxstats.framestats.ColumnSet;
import io.gfxstats.framestats.FramestatsReader;
import io.gfxstats.framestats.FramestatsReplay;
import io.gfxstats.stats.Pipeline;
import java.util.function.Function;

/**
 * Records a capture while it is being read ({@code replay -}): each frame goes to its window's
 * tracker as soon as its row arrives, with the rules {@link CaptureReplay} uses for a whole
 * file. The session is opened at the first window, when the capture has said its pipeline (a
 * gfxinfo dump prints it before its windows).
 */
final class LiveCaptureReplay implements FramestatsReader.FrameListener {
    private final Function<Pipeline, StatsSession> opener;
    private final long refreshIntervalNanos;
    private final FramePacer pacer;
    private final ProgressReporter progress;
    private final FrameInfo frame = new FrameInfo();
    private StatsSession session;
    private WindowTracker tracker;
    private long recorded;
    private int windows;

    LiveCaptureReplay(Function<Pipeline, StatsSession> opener, long refreshIntervalNanos, FramePacer pacer,
                      ProgressReporter progress) {
        this.opener = opener;
        this.refreshIntervalNanos = refreshIntervalNanos;
        this.pacer = pacer;
        this.progress = progress;
    }

    @Override
    public void sectionStarted(String name, ColumnSet columnSet, Pipeline pipeline) {
        if (session == null) {
            session = opener.apply(pipeline);
        }
        closeTracker();
        tracker = session.newTracker(FramestatsReplay.trackerFor(columnSet, refreshIntervalNanos,
                DaveyListener.ignoring()));
        windows++;
    }

    @Override
    public void frame(long[] fields) throws InterruptedException {
        pacer.awaitFrame(recorded);
        for (int f = 0; f < FrameInfo.FIELD_COUNT; f++) {
            frame.set(f, fields[f]);
        }
        tracker.record(frame);
        recorded++;
        progress.recorded(recorded);
    }

    @Override
    public void sectionFinished() {
        closeTracker();
    }

    private void closeTracker() {
        if (tracker != null) {
            tracker.close();
            tracker = null;
        }
    }

    /** The session, once the first window began; null before. */
    StatsSession session() {
        return session;
    }

    long recorded() {
        return recorded;
    }

    int windows() {
        return windows;
    }

    /** Ends recording: the last window's tracker is closed (a capture cut off mid-window keeps its frames). */
    void finish() {
        closeTracker();
        progress.finished(recorded);
    }
}
