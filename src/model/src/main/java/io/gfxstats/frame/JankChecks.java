package io.gfxstats.frame;

import io.gfxstats.stats.FrameOutcome;
import io.gfxstats.stats.StatsSink;

/**
 * The four cause comparisons run on a frame that missed its deadline. Each finds its type when
 * the span reaches its threshold (a fraction of the frame interval) and stays under 10 s, so a
 * frame stuck behind a suspended process is not blamed on one stage. Results are
 * {@link FrameOutcome} bits.
 */
final class JankChecks {
    static final long CAP_NANOS = 10_000_000_000L;

    private JankChecks() {
    }

    static void count(FrameInfo frame, IntervalThresholds t, StatsSink sink) {
        FrameOutcome.countRare(bits(frame, t), sink);
    }

    static int bits(FrameInfo frame, IntervalThresholds t) {
        return check(frame, FrameInfo.INTENDED_VSYNC, FrameInfo.VSYNC, 1, FrameOutcome.MISSED_VSYNC)
                | check(frame, FrameInfo.VSYNC, FrameInfo.SYNC_START, t.slowUiThread, FrameOutcome.SLOW_UI_THREAD)
                | check(frame, FrameInfo.SYNC_START, FrameInfo.ISSUE_DRAW_COMMANDS_START, t.slowBitmapUpload,
                        FrameOutcome.SLOW_BITMAP_UPLOAD)
                | check(frame, FrameInfo.ISSUE_DRAW_COMMANDS_START, FrameInfo.FRAME_COMPLETED, t.slowDraw,
                        FrameOutcome.SLOW_DRAW);
    }

    /**
     * {@link #bits} for a frame with no stage times (SyncQueued, SyncStart and
     * IssueDrawCommandsStart 0) and a positive IntendedVsync: the three stage spans are then 0,
     * which counts only against a threshold of 0 (intervals under 5 ns).
     */
    static int bitsWithoutStages(long intendedVsync, long vsync, IntervalThresholds t) {
        long missedVsync = Math.max(vsync - intendedVsync, 0);
        int bits = missedVsync >= 1 && missedVsync < CAP_NANOS ? FrameOutcome.MISSED_VSYNC : 0;
        if (t.slowUiThread <= 0) {
            bits |= FrameOutcome.SLOW_UI_THREAD;
        }
        if (t.slowBitmapUpload <= 0) {
            bits |= FrameOutcome.SLOW_BITMAP_UPLOAD;
        }
        if (t.slowDraw <= 0) {
            bits |= FrameOutcome.SLOW_DRAW;
        }
        return bits;
    }

    private static int check(FrameInfo frame, int start, int end, long threshold, int bit) {
        long d = frame.duration(start, end);
        return d >= threshold && d < CAP_NANOS ? bit : 0;
    }
}
