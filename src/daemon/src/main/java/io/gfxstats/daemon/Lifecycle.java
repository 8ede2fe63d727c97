package io.gfxstats.daemon;

import io.gfxstats.buffer.ClientHealthGroup;

import io.gfxstats.daemon.config.Setting;
import io.gfxstats.daemon.harvest.Harvester;
import io.gfxstats.daemon.postmortem.RingFinisher;
import io.gfxstats.daemon.registry.LiveBuffer;
import io.gfxstats.daemon.registry.ProcessLiveness;
import io.gfxstats.store.Days;
import java.io.IOException;
import java.nio.file.Files;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The daemon's periodic duties, run on one thread: release buffers of processes that are gone,
 * flush at the configured interval, rotate at UTC midnight (by the injected clock), apply
 * retention. Each duty takes the state lock for writing.
 */
final class Lifecycle {
    private static final Logger log = LoggerFactory.getLogger(Lifecycle.class);

    private final DaemonState state;
    private final Queue<String> gone = new ConcurrentLinkedQueue<>();
    private final SaveBackoff backoff = new SaveBackoff();
    /** Counts what dead native clients left in their rings, before the final save. */
    private final RingFinisher finisher = new RingFinisher(ProcessLiveness::writesInto);
    private long nextFlush;
    private long nextMidnight;
    private long nextLivenessCheck;

    Lifecycle(DaemonState state) {
        this.state = state;
        long now = state.now();
        this.nextFlush = now + state.config.get(Setting.FLUSH_INTERVAL).toMillis();
        this.nextMidnight = Days.nextDayStart(now);
    }

    /** A registration ended because its process is gone (called from gRPC threads). */
    void clientGone(String key) {
        gone.add(key);
    }

    void tick() {
        long now = state.now();
        state.lock.writeLock().lock();
        try {
            if (now >= nextMidnight) {
                rotate(now);
            }
            String key;
            while ((key = gone.poll()) != null) {
                LiveBuffer b = state.registry.get(key);
                if (b != null) {
                    b.setConnected(false);
                    retire(b, "exited");
                }
            }
            long wall = System.currentTimeMillis();
            if (wall >= nextLivenessCheck) {
                nextLivenessCheck = wall + state.config.get(Setting.LIVENESS_CHECK_INTERVAL).toMillis();
                checkLiveness();
            }
            if (now >= nextFlush && backoff.due()) {
                flush(now, "flush");
                nextFlush = now + state.config.get(Setting.FLUSH_INTERVAL).toMillis();
            }
        } finally {
            state.lock.writeLock().unlock();
        }
    }

    /**
     * A connected buffer's process is watched mainly through its connection (the kernel closes
     * it when the process dies, zombie or not), so the pid check here is the backup for a socket
     * kept open by an inheriting child: a stat of /proc/PID, once per pid. ProcessHandle's check
     * (which reads /proc/PID/stat) cost 5x as much, which with 1000 buffers at the default
     * interval was ~5 % of a CPU on an idle daemon.
     */
    private void checkLiveness() {
        long timeout = state.config.get(Setting.HEARTBEAT_TIMEOUT).toMillis();
        Map<Integer, Boolean> exists = new HashMap<>();
        for (LiveBuffer b : state.registry.all()) {
            boolean alive = b.connected() ? exists.computeIfAbsent(b.pid(), ProcessLiveness::pidExists)
                    : ProcessLiveness.pidAlive(b.pid());
            if (alive && !b.connected()) {
                try {
                    alive = ProcessLiveness.heartbeatFresh(b.snapshot().heartbeatMillis(), timeout);
                } catch (IOException | IllegalStateException e) {
                    alive = false;
                }
            }
            if (!alive) {
                retire(b, "process gone");
            }
        }
    }

    /**
     * Saves everything of a buffer whose process is gone, then releases and deletes it. Every
     * final save comes here (an exit, a liveness check, Recovery's buffers of processes that died
     * while no daemon ran), so this is where a dead native client's rings are counted first.
     */
    void retire(LiveBuffer b, String why) {
        if (!backoff.due()) {
            return; // saves are failing: the buffer is kept and retried when the backoff allows
        }
        if (b.hasRings()) {
            // Idempotent (the ring stripes are never written): a retry after a failed save, or a
            // daemon killed before the delete, counts the same again from the same checkpoint.
            finisher.finish(b.path(), b.toString());
        }
        Harvester.Result r = state.harvester.save(List.of(b), state.currentDay, state.now(), state.now());
        noteSave(r, r.failures() == 0 ? null
                : r.firstFailure() + " (final save of " + b + ", " + why + "; its buffer is kept)");
        if (r.failures() > 0) {
            return;
        }
        long dropped = ringDropped(b);
        state.registry.remove(b);
        try {
            Files.deleteIfExists(b.path());
        } catch (IOException e) {
            log.warn("exit: cannot delete buffer file {}: {}", b.path(), e.getMessage());
        }
        log.info("exit: {} ({}), saved {} frames{}", b, why, r.frames(), dropped == 0 ? ""
                : ", and its clients dropped " + dropped + " frames because a recording ring was full"
                + " (docs/native.md, \"The frame ring and the drain\")");
    }

    /** Frames the buffer's clients could not record in its life (their rings were full), 0 if unreadable. */
    private static long ringDropped(LiveBuffer b) {
        try {
            return ClientHealthGroup.ringDropped(b.snapshot().vector());
        } catch (IOException | IllegalStateException e) {
            return 0; // the save above read it; a file gone since has nothing more to say
        }
    }

    Harvester.Result flush(long now, String why) {
        Harvester.Result r = state.harvester.save(state.registry.all(), state.currentDay, now, now);
        noteSave(r);
        if (r.files() > 0) {
            log.info("save ({}): {} frames into {} day files, {} failures", why, r.frames(), r.files(), r.failures());
        }
        return r;
    }

    private void rotate(long now) {
        long oldDay = state.currentDay;
        Harvester.Result r = state.harvester.save(state.registry.all(), oldDay, nextMidnight, now);
        noteSave(r);
        long newDay = Days.dayStart(now);
        state.currentDay = newDay;
        for (LiveBuffer b : state.registry.all()) {
            b.setAccountingStartMillis(newDay);
        }
        nextMidnight = Days.nextDayStart(now);
        log.info("rotate: day {} closed with {} frames in {} files; counting into day {}", oldDay, r.frames(), r.files(),
                newDay);
        applyRetention();
    }

    void applyRetention() {
        state.dayFiles.invalidate();
        try {
            List<Long> deleted = state.store.applyRetention(state.config.get(Setting.RETENTION_DAYS));
            if (!deleted.isEmpty()) {
                log.info("retention: deleted days {}", deleted);
            }
        } catch (IOException e) {
            log.warn("retention failed: {}", e.getMessage());
        }
    }

    private void noteSave(Harvester.Result r) {
        noteSave(r, r.firstFailure());
    }

    /** Every save's outcome, a final one's too: the metrics, the last save's time and the back-off. */
    private void noteSave(Harvester.Result r, String failure) {
        state.events.saved(r.files(), r.frames(), r.failures());
        if (r.files() > 0) {
            state.lastSaveMillis = state.now();
        }
        if (r.failures() > 0) {
            backoff.failed(failure);
        } else if (r.files() > 0) {
            backoff.succeeded();
        }
    }
}
