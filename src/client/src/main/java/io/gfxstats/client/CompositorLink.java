package io.gfxstats.client;

import io.gfxstats.timeline.recorder.TimelineRecorder;
import io.gfxstats.timeline.feed.DisplayOutcomeLayout;
import io.gfxstats.timeline.feed.DisplayOutcomes;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Objects;
import java.util.Optional;

/**
 * Keeps a window's {@link TimelineRecorder} joined with the display-frame ring of the daemon its
 * session counts into (compositor mode, docs/frametimeline.md): {@link #refresh()} maps the ring
 * beside the session's buffer, and maps it again when it was replaced - a restarted daemon
 * creates a new one, and a recorder still reading the old file would get no more joins. Call it
 * on the recorder's thread now and then (e.g. once a second, not per frame: it looks at the file
 * system); between calls the recorder works on its own. Without a ring (no daemon, or one that
 * takes no compositor feed) the recorder stays in client-only mode.
 */
public final class CompositorLink {
    private final StatsSession session;
    private final TimelineRecorder timeline;
    private final long joinWaitNanos;
    private Object ringKey;
    private Path ringPath;

    public CompositorLink(StatsSession session, TimelineRecorder timeline, long joinWaitNanos) {
        this.session = Objects.requireNonNull(session, "session");
        this.timeline = Objects.requireNonNull(timeline, "timeline");
        if (joinWaitNanos < 0) {
            throw new IllegalArgumentException("join wait must not be negative: " + joinWaitNanos);
        }
        this.joinWaitNanos = joinWaitNanos;
    }

    public CompositorLink(StatsSession session, TimelineRecorder timeline) {
        this(session, timeline, TimelineRecorder.DEFAULT_JOIN_WAIT_NANOS);
    }

    /**
     * Joins the recorder with the current ring if it is not already; true when it is joined with
     * one now. A ring that cannot be read leaves the recorder in client-only mode.
     *
     * @throws IOException when the ring exists but is not one (the message says why, in one line)
     */
    public boolean refresh() throws IOException {
        Optional<BufferRef> buffer = session.buffer();
        if (buffer.isEmpty()) {
            return ringKey != null;
        }
        Path ring = DisplayOutcomeLayout.besideBuffer(buffer.get().path());
        Object key;
        try {
            key = Files.readAttributes(ring, BasicFileAttributes.class).fileKey();
        } catch (NoSuchFileException e) {
            if (ringKey != null) {
                timeline.joinCompositor(null);
                ringKey = null;
                ringPath = null;
            }
            return false;
        }
        if (key != null && key.equals(ringKey) && ring.equals(ringPath)) {
            return true;
        }
        timeline.joinCompositor(DisplayOutcomes.open(ring), joinWaitNanos);
        ringKey = key;
        ringPath = ring;
        return true;
    }

    /** The ring the recorder is joined with, if any. */
    public Optional<Path> ring() {
        return Optional.ofNullable(ringPath);
    }
}
