package io.gfxstats.daemon;

import io.gfxstats.buffer.BufferSnapshot;
import io.gfxstats.buffer.BufferState;
import io.gfxstats.buffer.ClientHealthGroup;
import io.gfxstats.daemon.harvest.CounterDeltas;
import io.gfxstats.daemon.registry.LiveBuffer;
import io.gfxstats.proto.GraphicsStatsProto;
import io.gfxstats.daemon.rpc.StatsException;
import io.gfxstats.rpc.v1.LivePackage;
import io.gfxstats.rpc.v1.LiveSnapshot;
import io.gfxstats.rpc.v1.SceneEntry;
import io.gfxstats.rpc.v1.ScenesRequest;
import io.gfxstats.rpc.v1.ScenesResponse;
import io.gfxstats.scene.SceneCounters;
import io.gfxstats.stats.Counters;
import io.gfxstats.store.EntryKey;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.IntPredicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Scenes for the read-only RPCs: per (day, package, version, scene) from the day files with the
 * live buffers' unsaved part merged once (the dump's rule: both read under one read lock, so no
 * save moves frames between them meanwhile), and live cumulative snapshots for Watch.
 */
final class SceneBackend {
    private static final Logger log = LoggerFactory.getLogger(SceneBackend.class);

    private final DaemonState state;

    SceneBackend(DaemonState state) {
        this.state = state;
    }

    ScenesResponse scenes(ScenesRequest request, IntPredicate visible) throws StatsException {
        String filter = request.getPackageName();
        long day = request.getDayStart();
        if (day < 0) {
            throw StatsException.invalidArgument("day_start must be 0 (every day) or a UTC midnight: " + day);
        }
        return ScenesResponse.newBuilder().addAllEntries(entries(day == 0 ? null : day, filter, visible)).build();
    }

    /**
     * Scene entries of one day (null: every retained day), live data of the current day merged;
     * only of the uids {@code visible} accepts, one entry per uid.
     */
    List<SceneEntry> entries(Long day, String filter, IntPredicate visible) throws StatsException {
        SortedMap<EntryKey, Map<String, long[]>> byKey = new TreeMap<>();
        state.lock.readLock().lock();
        try {
            SortedMap<EntryKey, GraphicsStatsProto> stored = day == null ? state.dayFiles.readAll()
                    : state.dayFiles.readDay(day);
            for (Map.Entry<EntryKey, GraphicsStatsProto> e : stored.entrySet()) {
                if (matches(filter, e.getKey().packageName()) && visible.test(e.getKey().uid())
                        && e.getValue().getGfxstatsScenesCount() > 0) {
                    byKey.put(e.getKey(), SceneCounters.of(e.getValue()));
                }
            }
            if (day == null || day == state.currentDay) {
                for (LiveBuffer b : state.registry.all()) {
                    if (!matches(filter, b.packageName()) || !visible.test(b.uid())) {
                        continue;
                    }
                    BufferSnapshot snap = snapshot(b);
                    if (snap == null) {
                        continue;
                    }
                    long[] unsaved = CounterDeltas.difference(snap.vector(), b.baseline());
                    Map<String, long[]> scenes = SceneCounters.fromVector(unsaved, SceneCounters.names(snap));
                    if (!scenes.isEmpty()) {
                        EntryKey key = new EntryKey(state.currentDay, b.packageName(), b.versionCode(), b.uid());
                        scenes.forEach((name, v) -> byKey.computeIfAbsent(key, k -> new TreeMap<>())
                                .merge(name, v, SceneCounters::add));
                    }
                }
            }
        } catch (IOException e) {
            throw StatsException.unavailable("cannot read the day files: " + e.getMessage(), e);
        } finally {
            state.lock.readLock().unlock();
        }
        List<SceneEntry> out = new ArrayList<>();
        byKey.forEach((key, scenes) -> new TreeMap<>(scenes).forEach((name, v) ->
                out.add(entry(key.dayStart(), key.packageName(), key.versionCode(), name, v))));
        return out;
    }

    /**
     * The live buffers' cumulative counters per (package, version), with their scenes and the
     * frames their full recording rings dropped.
     */
    LiveSnapshot live(String filter, IntPredicate visible) {
        long monotonic = System.nanoTime();
        long wall;
        Map<String, Live> byPackage = new TreeMap<>();
        state.lock.readLock().lock();
        try {
            wall = state.now();
            for (LiveBuffer b : state.registry.all()) {
                if (!matches(filter, b.packageName()) || !visible.test(b.uid())) {
                    continue;
                }
                BufferSnapshot snap = snapshot(b);
                if (snap == null || snap.state() == BufferState.RETIRED) {
                    continue; // its successor holds everything it counted
                }
                Live l = byPackage.computeIfAbsent(b.packageName() + "\u0000" + b.versionCode(),
                        k -> new Live(b.packageName(), b.versionCode()));
                l.frames += snap.totalFrames();
                l.janky += snap.counter(Counters.JANKY_FRAMES);
                l.ringDropped += ClientHealthGroup.ringDropped(snap.vector());
                SceneCounters.fromVector(snap.vector(), SceneCounters.names(snap))
                        .forEach((name, v) -> l.scenes.merge(name, v, SceneCounters::add));
            }
        } finally {
            state.lock.readLock().unlock();
        }
        LiveSnapshot.Builder s = LiveSnapshot.newBuilder().setMonotonicNanos(monotonic).setWallMillis(wall);
        for (Live l : byPackage.values()) {
            LivePackage.Builder p = LivePackage.newBuilder().setPackageName(l.packageName)
                    .setVersionCode(l.versionCode).setTotalFrames(l.frames).setJankyFrames(l.janky)
                    .setRingDroppedFrames(l.ringDropped);
            l.scenes.forEach((name, v) -> p.addScenes(entry(0, l.packageName, l.versionCode, name, v)));
            s.addPackages(p);
        }
        return s.build();
    }

    static SceneEntry entry(long day, String packageName, long versionCode, String scene, long[] v) {
        return SceneEntry.newBuilder().setDayStart(day).setPackageName(packageName).setVersionCode(versionCode)
                .setStats(SceneCounters.toProto(scene, v)).setMatrixFps(SceneCounters.matrixFps(v)).build();
    }

    private static boolean matches(String filter, String packageName) {
        return filter.isEmpty() || filter.equals(packageName);
    }

    private static BufferSnapshot snapshot(LiveBuffer b) {
        try {
            return b.snapshot();
        } catch (IOException | IllegalStateException e) {
            log.warn("scenes: cannot read buffer of {}: {}", b, e.getMessage());
            return null;
        }
    }

    private static final class Live {
        final String packageName;
        final long versionCode;
        long frames;
        long janky;
        long ringDropped;
        final Map<String, long[]> scenes = new TreeMap<>();

        Live(String packageName, long versionCode) {
            this.packageName = packageName;
            this.versionCode = versionCode;
        }
    }
}
