package io.gfxstats.daemon.harvest;

import io.gfxstats.buffer.BufferSnapshot;
import io.gfxstats.daemon.registry.BufferRegistry;
import io.gfxstats.daemon.registry.LiveBuffer;
import io.gfxstats.daemon.rpc.Problems;
import io.gfxstats.dayfile.DayFileException;
import io.gfxstats.proto.GraphicsStatsProto;
import io.gfxstats.scene.SceneCounters;
import io.gfxstats.store.DayStore;
import io.gfxstats.store.EntryKey;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Saves the unsaved part of live buffers into their day files, exactly once: each file is
 * rewritten atomically with the frames and the marks saying how much of each buffer it holds,
 * and a buffer's in-memory baseline moves only after its file is safely written.
 * Callers hold the daemon's state lock for writing.
 */
public final class Harvester {
    private static final Logger log = LoggerFactory.getLogger(Harvester.class);

    private final DayStore store;
    private final BufferRegistry registry;
    private final Runnable onFilesChanged;
    private final SaveListener onSaved;

    /**
     * Told, after a day file is safely written, what of each buffer it now holds beyond before
     * (the whole counter vector, groups included).
     */
    public interface SaveListener {
        void saved(LiveBuffer buffer, long[] savedCounters);
    }

    public Harvester(DayStore store, BufferRegistry registry) {
        this(store, registry, () -> { });
    }

    public Harvester(DayStore store, BufferRegistry registry, Runnable onFilesChanged) {
        this(store, registry, onFilesChanged, (b, c) -> { });
    }

    /**
     * @param onFilesChanged told when a save is about to write day files (told even if the
     *                       writes then fail: a failed write may still have replaced or
     *                       quarantined a file); the dump cache listens, so the first dump after
     *                       the save (callers hold the daemon's write lock) re-reads what changed
     */
    public Harvester(DayStore store, BufferRegistry registry, Runnable onFilesChanged, SaveListener onSaved) {
        this.store = store;
        this.registry = registry;
        this.onFilesChanged = onFilesChanged;
        this.onSaved = onSaved;
    }

    /** Outcome of one save, for logs and tests. */
    public record Result(int files, long frames, int failures, String firstFailure) {
        public Result(int files, long frames, int failures) {
            this(files, frames, failures, null);
        }
    }

    /**
     * Saves the unsaved frames of {@code buffers} into the day starting at {@code dayStart}, with
     * {@code endMillis} as stats end. A buffer whose file cannot be written keeps its baseline,
     * so its frames are saved by a later attempt, never lost.
     */
    public Result save(List<LiveBuffer> buffers, long dayStart, long endMillis, long nowMillis) {
        Map<EntryKey, List<Pending>> byFile = new LinkedHashMap<>();
        for (LiveBuffer b : buffers) {
            BufferSnapshot snap;
            try {
                snap = b.snapshot();
            } catch (IOException | IllegalStateException e) {
                log.warn("cannot read buffer of {}: {}", b, e.getMessage());
                continue;
            }
            long[] current = snap.vector();
            Contribution c = new Contribution(b.key(), b.pid(), b.uid(), current, b.baseline(),
                    Math.max(b.accountingStartMillis(), dayStart), b.pipeline(), SceneCounters.names(snap));
            if (!c.due()) {
                continue;
            }
            byFile.computeIfAbsent(new EntryKey(dayStart, b.packageName(), b.versionCode(), b.uid()), k -> new ArrayList<>())
                    .add(new Pending(b, c));
        }
        int files = 0;
        int failures = 0;
        String firstFailure = null;
        long frames = 0;
        Set<String> known = new HashSet<>(registry.keys());
        if (!byFile.isEmpty()) {
            onFilesChanged.run();
        }
        for (Map.Entry<EntryKey, List<Pending>> e : byFile.entrySet()) {
            EntryKey key = e.getKey();
            List<Contribution> contributions = e.getValue().stream().map(Pending::contribution).toList();
            try {
                store.update(key, stored -> merged(stored.orElse(null), key, endMillis, nowMillis, contributions, known));
            } catch (IOException | RuntimeException ex) {
                failures++;
                String why = "save of " + store.pathOf(key) + " failed: " + Problems.describe(ex);
                if (firstFailure == null) {
                    firstFailure = why;
                }
                // The caller logs changes between working and failing saves; every failure is only debug.
                log.debug("{}; its frames stay pending", why);
                continue;
            }
            files++;
            for (Pending p : e.getValue()) {
                frames += p.contribution().unsaved()[0];
                p.buffer().setBaseline(p.contribution().current());
                onSaved.saved(p.buffer(), p.contribution().unsaved());
            }
        }
        return new Result(files, frames, failures, firstFailure);
    }

    private static GraphicsStatsProto merged(GraphicsStatsProto stored, EntryKey key, long endMillis, long nowMillis,
                                             List<Contribution> contributions, Set<String> known) throws IOException {
        try {
            GraphicsStatsProto next = DayFileUpdate.apply(stored, key.packageName(), key.versionCode(), endMillis,
                    nowMillis, contributions, known);
            return next != null ? next : stored;
        } catch (DayFileException.HistogramMismatch e) {
            // The store quarantines files with bad histograms on read, so this is a programming error.
            throw new IOException("cannot merge into " + key + ": " + e.getMessage(), e);
        }
    }

    private record Pending(LiveBuffer buffer, Contribution contribution) {
    }
}
