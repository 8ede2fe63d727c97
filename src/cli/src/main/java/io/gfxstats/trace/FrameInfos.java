package io.gfxstats.trace;

import io.gfxstats.frame.DaveyListener;
import io.gfxstats.frame.FrameInfo;
import io.gfxstats.frame.ModernJankTracker;
import io.gfxstats.frame.TrackerConfig;
import io.gfxstats.stats.FrameOutcome;

/**
 * Trace frames as Android FrameInfo rows (spec 7.3): what {@code dumpsys}/{@code proto} replay
 * through the jank tracker, and what decides whether an Android frame is janky in every output
 * (see {@link TraceFrames}). Recorded: linked app frames (OpenHarmony and Android) and
 * RenderService frames; empty, unfinished and unlinked app frames are not (Android records only
 * frames that were drawn).
 */
public final class FrameInfos {
    private FrameInfos() {
    }

    /** One frame's FrameInfo, or null when it is not recorded. */
    public static FrameInfo of(TraceFrame f) {
        if (!f.counted() || f.period() == TraceFrame.UNKNOWN || f.period() <= 0) {
            return null;
        }
        boolean render = f.role().equals("render");
        if (!render && !f.linked()) {
            return null;
        }
        long interval = f.period();
        long intended;
        long start;
        long syncQueued;
        long renderStart = f.renderStart();
        long renderEnd = f.renderEnd();
        long deadline;
        if (render) {
            intended = f.renderExpectedStart();
            start = renderStart;
            syncQueued = renderStart;
            deadline = f.renderExpectedEnd();
        } else {
            intended = f.expectedStart();
            start = f.appStart();
            syncQueued = f.appEnd();
            deadline = f.role().equals("android") ? f.expectedEnd() : f.renderExpectedEnd();
        }
        if (intended == TraceFrame.UNKNOWN || renderEnd == TraceFrame.UNKNOWN || deadline == TraceFrame.UNKNOWN) {
            return null;
        }
        long late = start - intended;
        long vsync = late >= interval ? intended + late / interval * interval : intended;
        long swap = f.gpuDur() != TraceFrame.UNKNOWN ? Math.max(renderStart, renderEnd - f.gpuDur()) : renderEnd;
        FrameInfo info = new FrameInfo();
        info.set(FrameInfo.FRAME_TIMELINE_VSYNC_ID, f.vsyncId() == TraceFrame.UNKNOWN ? 0 : f.vsyncId());
        info.set(FrameInfo.INTENDED_VSYNC, intended);
        info.set(FrameInfo.VSYNC, vsync);
        info.set(FrameInfo.HANDLE_INPUT_START, vsync);
        info.set(FrameInfo.ANIMATION_START, vsync);
        info.set(FrameInfo.PERFORM_TRAVERSALS_START, vsync);
        info.set(FrameInfo.DRAW_START, vsync);
        info.set(FrameInfo.FRAME_DEADLINE, deadline);
        info.set(FrameInfo.FRAME_START_TIME, vsync);
        info.set(FrameInfo.FRAME_INTERVAL, interval);
        info.set(FrameInfo.SYNC_QUEUED, syncQueued);
        info.set(FrameInfo.SYNC_START, renderStart);
        info.set(FrameInfo.ISSUE_DRAW_COMMANDS_START, renderStart);
        info.set(FrameInfo.SWAP_BUFFERS, swap);
        info.set(FrameInfo.FRAME_COMPLETED, renderEnd);
        info.set(FrameInfo.GPU_COMPLETED, renderEnd);
        info.set(FrameInfo.SWAP_BUFFERS_COMPLETED, renderEnd);
        return info;
    }

    /**
     * How the jank tracker must see trace frames. A frame's FrameDeadline here is its vsync's deadline
     * (the vsync plus one period), the value the app's frame started with, not the value after the
     * device's jank tracker moved it: Android's tracker adds one interval to the deadline of a frame
     * behind a stuffed (triple-buffered) pipeline and writes the result back into the FrameInfo, so
     * only rows that come out of {@code dumpsys gfxinfo framestats} carry it already. Trace frames are
     * therefore counted as the device counts them as they happen ({@link TrackerConfig#live}), not as
     * replayed framestats rows ({@link TrackerConfig#replay}).
     */
    public static TrackerConfig trackerConfig(long refreshNanos) {
        return TrackerConfig.live(refreshNanos);
    }

    /** Android's jank tracker, as dumpsys and proto run it over a process's frames in order. */
    public static final class Verdicts {
        private final ModernJankTracker tracker;

        public Verdicts(long refreshNanos) {
            tracker = new ModernJankTracker(trackerConfig(refreshNanos), DaveyListener.ignoring());
        }

        /** Whether the tracker finds the next frame janky; null when the frame is not recorded. */
        public Boolean janky(TraceFrame f) {
            FrameInfo info = of(f);
            if (info == null) {
                return null;
            }
            return (tracker.classify(info) & FrameOutcome.JANKY) != 0;
        }
    }
}
