package io.gfxstats.daemon;

import io.gfxstats.buffer.BufferSnapshot;
import io.gfxstats.daemon.harvest.CounterDeltas;
import io.gfxstats.daemon.metrics.MetricVector;
import io.gfxstats.daemon.metrics.SeriesKey;
import io.gfxstats.daemon.registry.LiveBuffer;
import io.gfxstats.dayfile.DayFileException;
import io.gfxstats.proto.GraphicsStatsProto;
import java.io.IOException;
import java.util.Map;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The exposition's frame counters: what the daemon saved in its life (its ledger) plus what the
 * live buffers hold beyond their saved baselines, read under the state lock so a concurrent save
 * is seen either before or after, never half. Memory only: mapped buffers and the ledger.
 */
final class FrameTotals implements Supplier<Map<SeriesKey, long[]>> {
    private static final Logger log = LoggerFactory.getLogger(FrameTotals.class);

    private final DaemonState state;

    FrameTotals(DaemonState state) {
        this.state = state;
    }

    /** Starts the ledger from the retained day files (once, at start, after recovery). Caller holds the write lock. */
    void seed() throws IOException {
        state.ledger.clear();
        for (GraphicsStatsProto p : state.dayFiles.readAll().values()) {
            try {
                state.ledger.add(new SeriesKey(p.getPackageName(), p.getVersionCode(), p.getUid()),
                        MetricVector.fromDayFile(p));
            } catch (DayFileException.HistogramMismatch e) {
                log.warn("metrics: day file of {} left out: {}", p.getPackageName(), e.getMessage());
            }
        }
    }

    @Override
    public Map<SeriesKey, long[]> get() {
        state.lock.readLock().lock();
        try {
            Map<SeriesKey, long[]> totals = state.ledger.copy();
            for (LiveBuffer b : state.registry.all()) {
                BufferSnapshot snap;
                try {
                    snap = b.snapshot();
                } catch (IOException | IllegalStateException e) {
                    log.warn("metrics: cannot read buffer of {}: {}", b, e.getMessage());
                    continue;
                }
                long[] unsaved = MetricVector.fromBufferVector(CounterDeltas.difference(snap.vector(), b.baseline()));
                long[] into = totals.computeIfAbsent(new SeriesKey(b.packageName(), b.versionCode(), b.uid()),
                        k -> new long[MetricVector.LENGTH]);
                for (int i = 0; i < MetricVector.LENGTH; i++) {
                    into[i] += unsaved[i];
                }
            }
            return totals;
        } finally {
            state.lock.readLock().unlock();
        }
    }

    /** Registered buffers now. */
    long liveBuffers() {
        state.lock.readLock().lock();
        try {
            return state.registry.size();
        } finally {
            state.lock.readLock().unlock();
        }
    }
}
