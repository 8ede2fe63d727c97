package io.gfxstats.daemon.metrics;

import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.core.metrics.Gauge;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.Unit;
import java.time.Clock;
import java.util.function.LongSupplier;

/** The daemon's own health: live buffers, saves, quarantines and how long dumps take. */
public final class HealthMetrics implements DaemonEvents {
    private final Clock clock;
    private final Counter saves;
    private final Counter savedFrames;
    private final Gauge lastSave;
    private final Histogram requests;

    /**
     * @param liveBuffers  registered buffers now
     * @param quarantined  day files moved to quarantine since start
     */
    public HealthMetrics(PrometheusRegistry registry, Clock clock, LongSupplier liveBuffers,
                         LongSupplier quarantined) {
        this.clock = clock;
        GaugeWithCallback.builder().name("gfxstats_daemon_live_buffers")
                .help("Live client buffers (registered processes)")
                .callback(cb -> cb.call(liveBuffers.getAsLong())).register(registry);
        CounterWithCallback.builder().name("gfxstats_daemon_quarantined_files")
                .help("Day files moved to quarantine since the daemon started")
                .callback(cb -> cb.call(quarantined.getAsLong())).register(registry);
        saves = Counter.builder().name("gfxstats_daemon_saves")
                .help("Day file writes by saves (flush, exit, rotation, shutdown), by result")
                .labelNames("result").register(registry);
        saves.initLabelValues("ok");
        saves.initLabelValues("failed");
        savedFrames = Counter.builder().name("gfxstats_daemon_saved_frames")
                .help("Frames moved from live buffers into day files").register(registry);
        lastSave = Gauge.builder().name("gfxstats_daemon_last_save_timestamp_seconds")
                .help("When a save last wrote a day file (0: not yet)").register(registry);
        requests = Histogram.builder().name("gfxstats_daemon_request_duration_seconds").unit(Unit.SECONDS)
                .help("Time to assemble and send a dump or pull, by call").labelNames("call")
                .classicOnly().classicUpperBounds(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5,
                        5, 10)
                .register(registry);
    }

    @Override
    public void saved(int files, long frames, int failures) {
        if (files > 0) {
            saves.labelValues("ok").inc(files);
            lastSave.set(clock.millis() / 1000.0);
        }
        if (failures > 0) {
            saves.labelValues("failed").inc(failures);
        }
        if (frames > 0) {
            savedFrames.inc(frames);
        }
    }

    @Override
    public void served(String call, long nanos) {
        requests.labelValues(call).observe(nanos / 1e9);
    }
}
