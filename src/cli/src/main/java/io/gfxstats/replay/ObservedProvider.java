package io.gfxstats.replay;

import io.gfxstats.client.AttachRequest;
import io.gfxstats.client.Attachment;
import io.gfxstats.client.AttachmentListener;
import io.gfxstats.client.BufferProvider;
import java.io.IOException;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * A {@link BufferProvider} that tells a person what happens to the connection with the daemon:
 * one note when the daemon cannot be reached (not one per retry), one when it is reached again,
 * one when it goes away. The session's own log says the same things in more detail; a command
 * line tool prints these instead.
 */
public final class ObservedProvider implements BufferProvider {
    private final BufferProvider delegate;
    private final String where;
    private final Consumer<String> notes;

    // Guarded by this: attach runs on the session thread, ends arrive on gRPC threads.
    /** Between a failure or an end and the next successful attach: further failures are not news. */
    private boolean away;
    private String lastProblem;

    /**
     * @param where  names the daemon in notes, e.g. its socket path
     * @param notes  receives one line per event
     */
    public ObservedProvider(BufferProvider delegate, String where, Consumer<String> notes) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
        this.where = Objects.requireNonNull(where, "where");
        this.notes = Objects.requireNonNull(notes, "notes");
    }

    @Override
    public Attachment attach(AttachRequest request, AttachmentListener onEnded) throws IOException {
        Attachment attachment;
        try {
            attachment = delegate.attach(request, reason -> {
                ended(reason);
                onEnded.ended(reason);
            });
        } catch (IOException | RuntimeException e) {
            failed(request, e);
            throw e;
        }
        attached(attachment, request);
        return attachment;
    }

    /**
     * True from a failed attach or the end of an attachment until the next successful attach;
     * false before the first attach.
     */
    public synchronized boolean isAway() {
        return away;
    }

    /** What went wrong last, if the daemon was ever unreachable or went away. */
    public synchronized Optional<String> lastProblem() {
        return Optional.ofNullable(lastProblem);
    }

    private synchronized void failed(AttachRequest request, Exception e) {
        lastProblem = e.getMessage() != null ? e.getMessage() : e.toString();
        if (away) {
            return;
        }
        away = true;
        String counting = request.previousBuffer()
                .map(b -> "counting goes on into " + b.path())
                .orElse("counting in memory meanwhile");
        notes.accept("cannot register with the daemon at " + where + " (" + lastProblem + "); "
                + counting + ", waiting for it");
    }

    private synchronized void attached(Attachment attachment, AttachRequest request) {
        boolean wasAway = away;
        away = false;
        if (!wasAway) {
            return;
        }
        String how;
        if (request.previousBuffer().isEmpty()) {
            how = "counting into " + attachment.bufferPath();
        } else if (attachment.adopted()) {
            how = "it adopted " + attachment.bufferPath();
        } else {
            how = "counts moved to " + attachment.bufferPath();
        }
        notes.accept("registered with the daemon at " + where + "; " + how);
    }

    private synchronized void ended(String reason) {
        lastProblem = reason;
        away = true;
        notes.accept("lost the daemon at " + where + " (" + reason + "); counting goes on, re-registering");
    }
}
