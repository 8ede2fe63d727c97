package io.gfxstats.client;

import io.gfxstats.stats.Pipeline;

import java.util.Objects;
import java.util.Optional;

/**
 * What a session asks a {@link BufferProvider} for.
 *
 * @param packageName the package the process counts frames for
 * @param versionCode its version code
 * @param pipeline    the process's render pipeline
 * @param previous    the buffer the session already counts into (it re-registers after the
 *                    provider went away), or null on the first request; a provider should hand
 *                    the same buffer back (adopt it) when it can
 */
public record AttachRequest(String packageName, long versionCode, Pipeline pipeline, BufferRef previous) {
    public AttachRequest {
        Objects.requireNonNull(packageName, "packageName");
        Objects.requireNonNull(pipeline, "pipeline");
    }

    public Optional<BufferRef> previousBuffer() {
        return Optional.ofNullable(previous);
    }
}
