package io.gfxstats.client;

import io.gfxstats.buffer.BufferWriter;

/**
 * Which buffer a session counts into. A new object is published (volatile) for every change;
 * a tracker compares its own epoch with the session's by identity on every frame, which is the
 * only synchronisation the counting path does.
 */
final class Epoch {
    /** Given to a closed tracker: never equal to any session's epoch. */
    static final Epoch TRACKER_CLOSED = new Epoch(null, true);

    final BufferWriter buffer;
    final boolean closed;

    Epoch(BufferWriter buffer, boolean closed) {
        this.buffer = buffer;
        this.closed = closed;
    }
}
