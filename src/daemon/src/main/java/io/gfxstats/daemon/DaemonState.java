package io.gfxstats.daemon;

import io.gfxstats.daemon.config.DaemonConfig;
import io.gfxstats.daemon.config.Setting;
import io.gfxstats.daemon.dump.DayFileCache;
import io.gfxstats.daemon.harvest.Harvester;
import io.gfxstats.daemon.metrics.DaemonEvents;
import io.gfxstats.daemon.metrics.FrameLedger;
import io.gfxstats.daemon.metrics.MetricVector;
import io.gfxstats.daemon.metrics.SeriesKey;
import io.gfxstats.daemon.registry.BufferRegistry;
import io.gfxstats.store.DayStore;
import io.gfxstats.store.Days;
import java.time.Clock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * What the daemon's parts share. One read-write lock guards the registry, the baselines and
 * the day bookkeeping: saves and registry changes take it for writing, dumps and pulls for
 * reading, so a dump never sees a frame both in a live buffer's unsaved part and in a file.
 */
final class DaemonState {
    final DaemonConfig config;
    final Clock clock;
    final DayStore store;
    final BufferRegistry registry;
    final Harvester harvester;
    /** Parsed day files for dumps; told by the harvester and retention when files change. */
    final DayFileCache dayFiles;
    /** Every frame saved in this daemon's life, for the exposition's monotonic counters. */
    final FrameLedger ledger = new FrameLedger();
    final ReentrantReadWriteLock lock = new ReentrantReadWriteLock(true);
    final long startedAtMillis;

    /** UTC midnight of the day live frames are counted for. Guarded by lock. */
    long currentDay;
    /** Guarded by lock. */
    long lastSaveMillis;
    /** Health metrics, when the exposition is on. */
    volatile DaemonEvents events = DaemonEvents.NONE;

    DaemonState(DaemonConfig config, Clock clock, DayStore store, boolean cacheDayFiles) {
        this.config = config;
        this.clock = clock;
        this.store = store;
        this.registry = new BufferRegistry(config.get(Setting.MAX_BUFFERS));
        this.dayFiles = new DayFileCache(store, cacheDayFiles);
        this.harvester = new Harvester(store, registry, dayFiles::invalidate, (b, saved) -> {
            SeriesKey key = new SeriesKey(b.packageName(), b.versionCode(), b.uid());
            ledger.add(key, MetricVector.fromBufferVector(saved));
            ledger.addScenes(key, FrameTotals.scenes(b, saved));
        });
        this.startedAtMillis = clock.millis();
        this.currentDay = Days.dayStart(startedAtMillis);
    }

    long now() {
        return clock.millis();
    }
}
