package io.gfxstats.client;

import java.nio.file.Path;

/**
 * A buffer handed to a session by a {@link BufferProvider}. It stays valid until the provider
 * reports its end through the listener given to {@link BufferProvider#attach}, or until the
 * session closes it.
 */
public interface Attachment extends AutoCloseable {
    /** The buffer file to map for writing. */
    Path bufferPath();

    /** Identity of the buffer; equal to the previous one exactly when the provider adopted it. */
    String registrationId();

    /** True when the provider handed back the buffer named in the request's {@code previous}. */
    boolean adopted();

    /**
     * The session stops using the buffer (it closes, or moved to another buffer). For a daemon
     * this is the signal that the process is done with its registration. Idempotent; never
     * throws; the end listener is not called for a close.
     */
    @Override
    void close();

    default BufferRef ref() {
        return new BufferRef(bufferPath(), registrationId());
    }
}
