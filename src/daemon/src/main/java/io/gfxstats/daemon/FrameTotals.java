package io.gfxstats.daemon;

import io.gfxstats.buffer.BufferSnapshot;
import io.gfxstats.buffer.SceneGroup;
import io.gfxstats.daemon.harvest.CounterDeltas;
import io.gfxstats.daemon.metrics.MetricVector;
import io.gfxstats.daemon.metrics.SeriesKey;
import io.gfxstats.daemon.registry.LiveBuffer;
import io.gfxstats.dayfile.DayFileException;
import io.gfxstats.proto.GraphicsStatsProto;
import io.gfxstats.scene.SceneCounters;
import java.io.IOException;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;
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
                SeriesKey key = new SeriesKey(p.getPackageName(), p.getVersionCode(), p.getUid());
                state.ledger.add(key, MetricVector.fromDayFile(p));
                state.ledger.addScenes(key, SceneCounters.of(p));
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

    /** Per-scene counters: the ledger's plus the live buffers' unsaved, under the state lock. */
    Map<SeriesKey, Map<String, long[]>> scenes() {
        state.lock.readLock().lock();
        try {
            Map<SeriesKey, Map<String, long[]>> all = state.ledger.copyScenes();
            for (LiveBuffer b : state.registry.all()) {
                BufferSnapshot snap;
                try {
                    snap = b.snapshot();
                } catch (IOException | IllegalStateException e) {
                    continue; // reported by the frame counters' pass
                }
                Map<String, long[]> unsaved = SceneCounters.fromVector(
                        CounterDeltas.difference(snap.vector(), b.baseline()), SceneCounters.names(snap));
                if (!unsaved.isEmpty()) {
                    Map<String, long[]> into = all.computeIfAbsent(
                            new SeriesKey(b.packageName(), b.versionCode(), b.uid()), k -> new TreeMap<>());
                    unsaved.forEach((scene, v) -> into.merge(scene, v, SceneCounters::add));
                }
            }
            return all;
        } finally {
            state.lock.readLock().unlock();
        }
    }

    /** The scenes of a saved part of a buffer's vector, named by the buffer's slots (all "other" if unreadable). */
    static Map<String, long[]> scenes(LiveBuffer b, long[] vector) {
        String[] names;
        try {
            names = SceneCounters.names(b.snapshot());
        } catch (IOException | IllegalStateException e) {
            names = new String[SceneGroup.SLOTS];
            Arrays.fill(names, "");
        }
        return names == null ? Map.of() : SceneCounters.fromVector(vector, names);
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
