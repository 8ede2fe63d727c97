package io.gfxstats.daemon;

import io.gfxstats.daemon.rpc.Problems;
import io.gfxstats.timeline.Thresholds;
import io.gfxstats.timeline.feed.DisplayFramePublisher;
import io.gfxstats.timeline.feed.DisplayOutcomeLayout;
import io.gfxstats.timeline.feed.DisplayOutcomeWriter;
import java.io.IOException;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The daemon's display-frame ring for compositor mode, beside the buffers it hands out. */
final class CompositorRing {
    private static final Logger log = LoggerFactory.getLogger(CompositorRing.class);

    private CompositorRing() {
    }

    /** A publisher on a fresh ring in {@code bufferDir}, or null (logged) when it cannot be created. */
    static DisplayFramePublisher open(Path bufferDir) {
        Path path = bufferDir.resolve(DisplayOutcomeLayout.FILE_NAME);
        try {
            return new DisplayFramePublisher(Thresholds.ANDROID_16_LEGACY, DisplayOutcomeWriter.create(path));
        } catch (IOException e) {
            log.warn("no compositor feed: cannot create the display-frame ring {}: {}", path, Problems.describe(e));
            return null;
        }
    }
}
