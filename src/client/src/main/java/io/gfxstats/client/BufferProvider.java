package io.gfxstats.client;

import java.io.IOException;

/**
 * Where a session gets the buffer it counts into: the daemon's registration (over its Unix
 * socket) or, standalone, {@link DirectoryBufferProvider}. Implementations must be thread-safe.
 *
 * <p>Contract with the session:
 * <ul>
 *   <li>{@link #attach} may block (the session calls it from its own thread, never from a
 *       rendering thread) and throws {@link IOException} when no buffer can be had now, e.g. the
 *       daemon is not running; the session keeps counting (in memory, or into the buffer it
 *       already has) and retries with backoff; it throws {@link AttachRefusedException} when
 *       asking again cannot help (the request itself is refused), and the session stops asking;</li>
 *   <li>when the request names a previous buffer, the provider either returns that same buffer
 *       (same registration id: adoption; nothing moves) or a new buffer whose header names the
 *       previous registration id as its predecessor; the session then hands its counts over to
 *       the new buffer and marks the previous one retired (docs/buffer-format.md, "Handover");</li>
 *   <li>the listener is called once when the attachment ends on the provider's side; the buffer
 *       stays mapped and counted into, and the session asks again.</li>
 * </ul>
 */
public interface BufferProvider {
    Attachment attach(AttachRequest request, AttachmentListener onEnded) throws IOException;
}
