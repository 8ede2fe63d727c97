package io.gfxstats.frame;

import io.gfxstats.stats.JankType;
import io.gfxstats.stats.StatsSink;

/**
 * The four cause comparisons run on a frame that missed its deadline. Each counts its type when
 * the span reaches its threshold (a fraction of the frame interval) and stays under 10 s, so a
 * frame stuck behind a suspended process is not blamed on one stage.
 */
final class JankChecks {
    static final long CAP_NANOS = 10_000_000_000L;

    private JankChecks() {
    }

    static void count(FrameInfo frame, IntervalThresholds t, StatsSink sink) {
        check(frame, FrameInfo.INTENDED_VSYNC, FrameInfo.VSYNC, 1, JankType.MISSED_VSYNC, sink);
        check(frame, FrameInfo.VSYNC, FrameInfo.SYNC_START, t.slowUiThread, JankType.SLOW_UI_THREAD, sink);
        check(frame, FrameInfo.SYNC_START, FrameInfo.ISSUE_DRAW_COMMANDS_START, t.slowBitmapUpload,
                JankType.SLOW_BITMAP_UPLOAD, sink);
        check(frame, FrameInfo.ISSUE_DRAW_COMMANDS_START, FrameInfo.FRAME_COMPLETED, t.slowDraw,
                JankType.SLOW_DRAW, sink);
    }

    /**
     * {@link #count} for a frame with no stage times (SyncQueued, SyncStart and
     * IssueDrawCommandsStart 0) and a positive IntendedVsync: the three stage spans are then 0,
     * which counts only against a threshold of 0 (intervals under 5 ns).
     */
    static void countWithoutStages(long intendedVsync, long vsync, IntervalThresholds t, StatsSink sink) {
        long missedVsync = Math.max(vsync - intendedVsync, 0);
        if (missedVsync >= 1 && missedVsync < CAP_NANOS) {
            sink.increment(JankType.MISSED_VSYNC.counter());
        }
        if (t.slowUiThread <= 0) {
            sink.increment(JankType.SLOW_UI_THREAD.counter());
        }
        if (t.slowBitmapUpload <= 0) {
            sink.increment(JankType.SLOW_BITMAP_UPLOAD.counter());
        }
        if (t.slowDraw <= 0) {
            sink.increment(JankType.SLOW_DRAW.counter());
        }
    }

    private static void check(FrameInfo frame, int start, int end, long threshold, JankType type, StatsSink sink) {
        long d = frame.duration(start, end);
        if (d >= threshold && d < CAP_NANOS) {
            sink.increment(type.counter());
        }
    }
}
