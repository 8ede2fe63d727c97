package io.gfxstats.daemon.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prometheus.metrics.config.EscapingScheme;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class HealthMetricsTest {
    private final PrometheusRegistry registry = new PrometheusRegistry();
    private final AtomicLong live = new AtomicLong(3);
    private final AtomicLong quarantined = new AtomicLong();
    private final HealthMetrics health = new HealthMetrics(registry,
            Clock.fixed(Instant.ofEpochMilli(1_700_000_000_500L), ZoneOffset.UTC), live::get, quarantined::get);

    private String samples(String prefix) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrometheusTextFormatWriter.create().write(out, registry.scrape(), EscapingScheme.ALLOW_UTF8);
        return out.toString(StandardCharsets.UTF_8).lines().filter(l -> l.startsWith(prefix))
                .collect(Collectors.joining("\n", "", "\n"));
    }

    @Test
    void shouldStartWithZerosForBothSaveResultsAndNoSaveTime() throws IOException {
        assertEquals("gfxstats_daemon_saves_total{result=\"failed\"} 0.0\ngfxstats_daemon_saves_total{result=\"ok\"} 0.0\n",
                samples("gfxstats_daemon_saves_total"));
        assertEquals("gfxstats_daemon_last_save_timestamp_seconds 0.0\n",
                samples("gfxstats_daemon_last_save_timestamp_seconds"));
        assertEquals("gfxstats_daemon_live_buffers 3.0\n", samples("gfxstats_daemon_live_buffers"));
    }

    @Test
    void shouldCountSavedFilesFramesAndFailuresAndStampTheLastSave() throws IOException {
        health.saved(2, 500, 0);
        health.saved(0, 0, 1);
        health.saved(1, 0, 0);
        quarantined.set(4);
        live.set(0);
        assertEquals("gfxstats_daemon_saves_total{result=\"failed\"} 1.0\ngfxstats_daemon_saves_total{result=\"ok\"} 3.0\n",
                samples("gfxstats_daemon_saves_total"));
        assertEquals("gfxstats_daemon_saved_frames_total 500.0\n", samples("gfxstats_daemon_saved_frames_total"));
        assertEquals("gfxstats_daemon_last_save_timestamp_seconds 1.7000000005E9\n",
                samples("gfxstats_daemon_last_save_timestamp_seconds"));
        assertEquals("gfxstats_daemon_quarantined_files_total 4.0\n", samples("gfxstats_daemon_quarantined_files_total"));
        assertEquals("gfxstats_daemon_live_buffers 0.0\n", samples("gfxstats_daemon_live_buffers"));
    }

    @Test
    void shouldTimeEachCallInItsOwnSeries() throws IOException {
        health.served("dump", 3_000_000); // 3 ms
        health.served("dump", 2_000_000_000L); // 2 s
        health.served("pull", 1_000_000);
        String text = samples("gfxstats_daemon_request_duration_seconds");
        assertTrue(text.contains("gfxstats_daemon_request_duration_seconds_bucket{call=\"dump\",le=\"0.005\"} 1\n"), text);
        assertTrue(text.contains("gfxstats_daemon_request_duration_seconds_bucket{call=\"dump\",le=\"2.5\"} 2\n"), text);
        assertTrue(text.contains("gfxstats_daemon_request_duration_seconds_count{call=\"dump\"} 2\n"), text);
        assertTrue(text.contains("gfxstats_daemon_request_duration_seconds_bucket{call=\"pull\",le=\"0.001\"} 1\n"), text);
    }
}
