package io.gfxstats.demo;

import io.gfxstats.client.SessionOptions;
import io.gfxstats.stats.Pipeline;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * What a synthetic renderer renders and where it reports.
 *
 * @param packageName   package the frames are counted for
 * @param versionCode   its version code (0 or more)
 * @param duration      how long to render (frames whose vsync falls in this span)
 * @param fps           display refresh rate: one vsync every 1/fps seconds
 * @param profile       how badly the app renders
 * @param seed          makes the run reproducible: same seed, same frames, same counters
 * @param socket        the daemon's socket
 * @param attachTimeout how long to wait for the daemon before giving up
 * @param pipeline      the pipeline registered with the daemon (GL or VULKAN; default GL)
 */
public record SynthOptions(String packageName, long versionCode, Duration duration, int fps, JankProfile profile,
                           long seed, Path socket, Duration attachTimeout, Pipeline pipeline) {
    public static final int MAX_FPS = 1000;
    public static final Duration MAX_DURATION = Duration.ofDays(7);

    public SynthOptions {
        SessionOptions.requireValidPackageName(packageName);
        if (versionCode < 0) {
            throw new IllegalArgumentException("version code must be 0 or more: " + versionCode);
        }
        Objects.requireNonNull(duration, "duration");
        if (duration.isNegative() || duration.isZero() || duration.compareTo(MAX_DURATION) > 0) {
            throw new IllegalArgumentException("duration must be more than 0 and at most 7 days: " + duration);
        }
        if (fps < 1 || fps > MAX_FPS) {
            throw new IllegalArgumentException("fps must be 1.." + MAX_FPS + ": " + fps);
        }
        Objects.requireNonNull(profile, "profile");
        Objects.requireNonNull(socket, "socket");
        Objects.requireNonNull(attachTimeout, "attachTimeout");
        Objects.requireNonNull(pipeline, "pipeline");
        if (pipeline == Pipeline.UNKNOWN) {
            throw new IllegalArgumentException("pipeline must be GL or VULKAN (Android never writes UNKNOWN)");
        }
    }

    /** With the default pipeline, GL. */
    public SynthOptions(String packageName, long versionCode, Duration duration, int fps, JankProfile profile,
                        long seed, Path socket, Duration attachTimeout) {
        this(packageName, versionCode, duration, fps, profile, seed, socket, attachTimeout, Pipeline.GL);
    }

    /** The display's frame interval: 1/fps, rounded to the nearest nanosecond (60 fps: 16666667). */
    public long intervalNanos() {
        return Math.round(1e9 / fps);
    }
}
