package io.gfxstats.client;

import java.nio.file.Path;
import java.util.Objects;

/**
 * Names one buffer: its file and its registration id (the id is the buffer's identity; a path
 * can be reused by another buffer).
 */
public record BufferRef(Path path, String registrationId) {
    public BufferRef {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(registrationId, "registrationId");
    }
}
