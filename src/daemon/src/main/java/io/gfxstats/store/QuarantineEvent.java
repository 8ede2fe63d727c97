package io.gfxstats.store;

import java.nio.file.Path;

/**
 * A day file (or a non-directory where a store directory belongs) moved aside because it could
 * not be used. Nothing is deleted: {@code quarantinedTo} holds the original bytes (or the
 * original symbolic link, never its target).
 *
 * @param key           the entry affected; null when the offender was a day or package directory
 *                      position rather than an entry's file
 * @param from          where it was
 * @param quarantinedTo where it is now, under {@code <root>/quarantine/}
 * @param reason        why, in words (the codec's message, "symbolic link", ...)
 * @param atMillis      when, from the store's clock
 */
public record QuarantineEvent(EntryKey key, Path from, Path quarantinedTo, String reason, long atMillis) {
}
