package io.gfxstats.replay;

import io.gfxstats.frame.TrackerConfig;
import io.gfxstats.stats.PackageRules;
import io.gfxstats.stats.Pipeline;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;

/**
 * What a replay records as and how.
 *
 * @param packageName          the package the frames are counted for (Android's package name rules)
 * @param versionCode          its version code, 0 or more
 * @param refreshIntervalNanos display refresh interval for the legacy accounting, the Android 9
 *                             rules and rows without a FrameInterval
 * @param rate                 frames per second, or 0 to record as fast as possible
 * @param attachTimeout        how long to wait, after the last frame, for the daemon to hold the
 *                             session's buffer
 * @param pipeline             the pipeline to register with (GL or VULKAN), or null for the
 *                             capture's own, GL when it does not say
 */
public record ReplayOptions(String packageName, long versionCode, long refreshIntervalNanos, double rate,
                            Duration attachTimeout, Pipeline pipeline) {
    public static final long DEFAULT_REFRESH_INTERVAL_NANOS = TrackerConfig.NANOS_60HZ;
    public static final Duration DEFAULT_ATTACH_TIMEOUT = Duration.ofSeconds(30);

    /** @throws IllegalArgumentException saying which value is wrong and why */
    public ReplayOptions {
        PackageRules.problem(packageName).ifPresent(p -> {
            throw new IllegalArgumentException("invalid package name: " + p);
        });
        if (versionCode < 0) {
            throw new IllegalArgumentException("version code must be 0 or more, got " + versionCode);
        }
        if (refreshIntervalNanos <= 0) {
            throw new IllegalArgumentException("refresh interval must be positive, got " + refreshIntervalNanos);
        }
        if (rate != 0) {
            FramePacer.requireValidRate(rate);
        }
        Objects.requireNonNull(attachTimeout, "attachTimeout");
        if (attachTimeout.isNegative()) {
            throw new IllegalArgumentException("attach timeout must not be negative, got " + attachTimeout);
        }
        if (pipeline == Pipeline.UNKNOWN) {
            throw new IllegalArgumentException("pipeline must be GL or VULKAN (Android never writes UNKNOWN)");
        }
    }

    /** With the capture's pipeline (GL when it does not say). */
    public ReplayOptions(String packageName, long versionCode, long refreshIntervalNanos, double rate,
                         Duration attachTimeout) {
        this(packageName, versionCode, refreshIntervalNanos, rate, attachTimeout, null);
    }

    /** The pipeline to register with for a capture whose processes said {@code captured} (maybe UNKNOWN). */
    public Pipeline pipelineFor(Pipeline captured) {
        if (pipeline != null) {
            return pipeline;
        }
        return captured == Pipeline.UNKNOWN ? Pipeline.GL : captured;
    }

    public static ReplayOptions of(String packageName, long versionCode) {
        return new ReplayOptions(packageName, versionCode, DEFAULT_REFRESH_INTERVAL_NANOS, 0, DEFAULT_ATTACH_TIMEOUT);
    }

    public boolean paced() {
        return rate > 0;
    }

    /** The attach timeout for people: "30 s", "0.5 s". */
    public String attachTimeoutText() {
        return secondsText(attachTimeout);
    }

    /** A duration for people, in seconds: "30 s", "0.5 s". */
    public static String secondsText(Duration d) {
        long ms = d.toMillis();
        return ms % 1000 == 0 ? (ms / 1000) + " s" : String.format(Locale.ROOT, "%.1f s", ms / 1000.0);
    }

    public FramePacer pacer() {
        return paced() ? FramePacer.atRate(rate) : FramePacer.unpaced();
    }
}
