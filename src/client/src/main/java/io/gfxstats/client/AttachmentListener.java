package io.gfxstats.client;

/** Told when a provider ends an attachment on its side (daemon gone, buffer revoked). */
@FunctionalInterface
public interface AttachmentListener {
    /** Called at most once per attachment, from any thread; must return quickly. */
    void ended(String reason);
}
