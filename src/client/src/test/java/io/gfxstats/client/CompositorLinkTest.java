package io.gfxstats.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gfxstats.frame.DaveyListener;
import io.gfxstats.timeline.DisplayFrame;
import io.gfxstats.timeline.Prediction;
import io.gfxstats.timeline.TimelineFrame;
import io.gfxstats.timeline.recorder.TimelineRecorder;
import io.gfxstats.timeline.feed.DisplayOutcomeLayout;
import io.gfxstats.timeline.feed.DisplayOutcomeWriter;
import io.gfxstats.timeline.wayland.PresentationFeedback;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real session on a buffer directory, with display-frame rings created, replaced (a daemon
 * restart) and removed beside its buffer: the link keeps the window's recorder joined with the
 * current one.
 */
class CompositorLinkTest {
    private static final long MS = 1_000_000L;
    private static final long REFRESH = 16_666_667L;
    private static final int FLAGS = PresentationFeedback.KIND_VSYNC | PresentationFeedback.KIND_HW_CLOCK;

    @TempDir
    Path dir;

    private static DisplayFrame displayFrame(long msc) {
        long vsync = msc * REFRESH;
        return new DisplayFrame().set(msc, Prediction.VALID, vsync - 6 * MS, vsync - MS, vsync, vsync - 6 * MS,
                vsync - 2 * MS, vsync, REFRESH, REFRESH);
    }

    private static void frame(TimelineRecorder timeline, long msc) {
        long vsync = msc * REFRESH;
        timeline.commit(new TimelineFrame().token(msc).predicted(vsync - 2 * REFRESH, vsync - REFRESH, vsync)
                .actual(vsync - 2 * REFRESH, vsync - REFRESH - MS));
        assertTrue(timeline.presented(msc, vsync, REFRESH, FLAGS, msc, 1));
    }

    @Test
    void shouldFollowTheRingOfTheSessionsDaemon() throws Exception {
        try (DirectoryBufferProvider provider = DirectoryBufferProvider.create(dir);
             StatsSession session = StatsSession.open(SessionOptions.builder("com.example.link", 1)
                     .daveyListener(DaveyListener.ignoring()).build(), provider)) {
            assertTrue(session.awaitAttached(Duration.ofSeconds(10)));
            try (WindowTracker tracker = session.newTracker()) {
                TimelineRecorder timeline = tracker.timeline();
                CompositorLink link = new CompositorLink(session, timeline, 0);
                Path ring = DisplayOutcomeLayout.besideBuffer(session.buffer().orElseThrow().path());
                assertFalse(link.refresh(), "no ring yet: client-only");
                frame(timeline, 10);
                assertEquals(0, timeline.joined());

                DisplayOutcomeWriter first = DisplayOutcomeWriter.create(ring);
                first.publish(1, 11, displayFrame(11));
                assertTrue(link.refresh());
                assertEquals(ring, link.ring().orElseThrow());
                assertTrue(link.refresh(), "the same ring: nothing to do");
                frame(timeline, 11);
                assertEquals(1, timeline.joined());

                // The daemon restarts: a new ring replaces the old; the old one gets nothing more.
                DisplayOutcomeWriter second = DisplayOutcomeWriter.create(ring);
                second.publish(1, 12, displayFrame(12));
                second.publish(1, 13, displayFrame(13));
                frame(timeline, 12);
                assertEquals(1, timeline.joined(), "still on the old ring, which the new daemon does not write");
                assertEquals(1, timeline.awaitingDisplay());
                assertTrue(link.refresh());
                assertEquals(1, timeline.unjoined(), "the frame waiting on the old ring was settled client-only");
                frame(timeline, 13);
                assertEquals(2, timeline.joined(), "joined through the new ring");

                Files.delete(ring);
                assertFalse(link.refresh(), "no ring any more: client-only");
                frame(timeline, 14);
                assertEquals(2, timeline.joined());
                assertEquals(0, timeline.awaitingDisplay());

                Files.write(ring, new byte[10]);
                IOException e = assertThrows(IOException.class, link::refresh);
                assertTrue(e.getMessage().contains("is not a display-frame ring"), e.getMessage());
                first.close();
                second.close();
            }
        }
    }
}
