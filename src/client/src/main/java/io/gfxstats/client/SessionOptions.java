package io.gfxstats.client;

import io.gfxstats.frame.DaveyListener;
import io.gfxstats.frame.TrackerConfig;
import io.gfxstats.stats.PackageRules;
import io.gfxstats.stats.Pipeline;

import java.time.Clock;
import java.time.Duration;
import java.util.Objects;

/**
 * Settings of a {@link StatsSession}; build with {@link #builder(String, long)}.
 *
 * @param packageName         package the frames are counted for, by the rule the daemon
 *                            applies ({@link PackageRules}: dot-separated segments of ASCII
 *                            letters, digits, '_' and '-', each starting with a letter)
 * @param versionCode         the package's version code, 0 or more
 * @param pipeline            render pipeline reported to the daemon
 * @param refreshIntervalNanos display refresh interval, the default for trackers and for frames
 *                            recorded without a frame interval
 * @param heartbeatInterval   how often the session publishes its liveness in the buffer (at
 *                            least 100 ms, default 250 ms)
 * @param retryMin            first delay before asking the provider again after a failure or
 *                            after the attachment ended (default 100 ms)
 * @param retryMax            backoff ceiling (default 5 s)
 * @param clock               wall clock for the stats start time and the heartbeat
 * @param daveyListener       told about frames of 700 ms or more (default: one log line each)
 * @param scenes              scenes and Matrix levels (default {@link SceneOptions#DEFAULT})
 * @param countWhenRingFull   what a tracker does with a frame when its ring is full (the
 *                            drain thread a whole ring behind): false (the default, for render
 *                            threads) drops and counts it ({@link StatsSession#droppedFrames()});
 *                            true makes the recording thread count the ring itself first, under
 *                            the drain lock, so it may wait for a drain pass: for programs that
 *                            record faster than real time (replays, reading frames from a file)
 */
public record SessionOptions(String packageName,
                             long versionCode,
                             Pipeline pipeline,
                             long refreshIntervalNanos,
                             Duration heartbeatInterval,
                             Duration retryMin,
                             Duration retryMax,
                             Clock clock,
                             DaveyListener daveyListener,
                             SceneOptions scenes,
                             boolean countWhenRingFull) {

    public SessionOptions {
        requireValidPackageName(packageName);
        PackageRules.versionCodeProblem(versionCode).ifPresent(problem -> {
            throw new IllegalArgumentException("invalid version code: " + problem);
        });
        Objects.requireNonNull(pipeline, "pipeline");
        if (refreshIntervalNanos <= 0) {
            throw new IllegalArgumentException("refresh interval must be positive: " + refreshIntervalNanos);
        }
        Objects.requireNonNull(heartbeatInterval, "heartbeatInterval");
        if (heartbeatInterval.compareTo(Duration.ofMillis(100)) < 0) {
            throw new IllegalArgumentException("heartbeat interval must be at least 100 ms: " + heartbeatInterval);
        }
        Objects.requireNonNull(retryMin, "retryMin");
        Objects.requireNonNull(retryMax, "retryMax");
        if (retryMin.isNegative() || retryMin.isZero() || retryMax.compareTo(retryMin) < 0) {
            throw new IllegalArgumentException("need 0 < retryMin <= retryMax: " + retryMin + ", " + retryMax);
        }
        Objects.requireNonNull(clock, "clock");
        Objects.requireNonNull(daveyListener, "daveyListener");
        Objects.requireNonNull(scenes, "scenes");
    }

    public static Builder builder(String packageName, long versionCode) {
        return new Builder(packageName, versionCode);
    }

    /** The tracker settings for live recording on this display. */
    public TrackerConfig trackerConfig() {
        return TrackerConfig.live(refreshIntervalNanos);
    }

    /**
     * Checks a package name by the rule the daemon applies ({@link PackageRules}); safe to use
     * in a file name (the standalone provider does).
     *
     * @throws IllegalArgumentException with the rule that is broken
     */
    public static void requireValidPackageName(String name) {
        Objects.requireNonNull(name, "packageName");
        PackageRules.problem(name).ifPresent(problem -> {
            throw new IllegalArgumentException("invalid package name: " + problem);
        });
    }

    public static final class Builder {
        private final String packageName;
        private final long versionCode;
        private Pipeline pipeline = Pipeline.UNKNOWN;
        private long refreshIntervalNanos = TrackerConfig.NANOS_60HZ;
        private Duration heartbeatInterval = Duration.ofMillis(250);
        private Duration retryMin = Duration.ofMillis(100);
        private Duration retryMax = Duration.ofSeconds(5);
        private Clock clock = Clock.systemUTC();
        private DaveyListener daveyListener = DaveyListener.logging();
        private SceneOptions scenes = SceneOptions.DEFAULT;
        private boolean countWhenRingFull;

        private Builder(String packageName, long versionCode) {
            this.packageName = packageName;
            this.versionCode = versionCode;
        }

        public Builder pipeline(Pipeline pipeline) {
            this.pipeline = pipeline;
            return this;
        }

        public Builder refreshIntervalNanos(long nanos) {
            this.refreshIntervalNanos = nanos;
            return this;
        }

        public Builder heartbeatInterval(Duration interval) {
            this.heartbeatInterval = interval;
            return this;
        }

        public Builder retry(Duration min, Duration max) {
            this.retryMin = min;
            this.retryMax = max;
            return this;
        }

        public Builder clock(Clock clock) {
            this.clock = clock;
            return this;
        }

        public Builder daveyListener(DaveyListener listener) {
            this.daveyListener = listener;
            return this;
        }

        public Builder scenes(SceneOptions scenes) {
            this.scenes = scenes;
            return this;
        }

        /** See {@link SessionOptions#countWhenRingFull()}: true for producers faster than real time. */
        public Builder countWhenRingFull(boolean count) {
            this.countWhenRingFull = count;
            return this;
        }

        public SessionOptions build() {
            return new SessionOptions(packageName, versionCode, pipeline, refreshIntervalNanos, heartbeatInterval,
                    retryMin, retryMax, clock, daveyListener, scenes, countWhenRingFull);
        }
    }
}
