package io.gfxstats.daemon;

import io.gfxstats.frame.ModernJankTracker;
import io.gfxstats.frame.DaveyListener;
import io.gfxstats.frame.FrameInfo;
import io.gfxstats.frame.TrackerConfig;
import io.gfxstats.stats.Counters;
import io.gfxstats.stats.JankType;
import io.gfxstats.stats.ProfileData;

/** What {@link FrameClient} records, computed in-process with the same tracker (legacy counters dropped). */
final class FrameClientModel {
    private FrameClientModel() {
    }

    static ProfileData expected(long frames) {
        ModernJankTracker tracker = new ModernJankTracker(TrackerConfig.live(FrameClient.INTERVAL), DaveyListener.ignoring());
        ProfileData p = new ProfileData();
        FrameInfo f = new FrameInfo();
        long t = 1_000_000_000L;
        for (long i = 0; i < frames; i++) {
            long d = FrameClient.duration(i);
            f.clear().set(FrameInfo.INTENDED_VSYNC, t).set(FrameInfo.VSYNC, t)
                    .set(FrameInfo.FRAME_DEADLINE, t + FrameClient.INTERVAL).set(FrameInfo.FRAME_INTERVAL, FrameClient.INTERVAL)
                    .set(FrameInfo.SWAP_BUFFERS, t + d).set(FrameInfo.FRAME_COMPLETED, t + d)
                    .set(FrameInfo.SWAP_BUFFERS_COMPLETED, t + d).set(FrameInfo.GPU_COMPLETED, t + d);
            tracker.finishFrame(f, p);
            t += Math.max(FrameClient.INTERVAL, ((d + FrameClient.INTERVAL - 1) / FrameClient.INTERVAL) * FrameClient.INTERVAL);
        }
        p.add(Counters.JANKY_FRAMES_LEGACY, -p.get(Counters.JANKY_FRAMES_LEGACY));
        int legacy = JankType.MISSED_DEADLINE_LEGACY.counter();
        p.add(legacy, -p.get(legacy));
        return p;
    }
}
