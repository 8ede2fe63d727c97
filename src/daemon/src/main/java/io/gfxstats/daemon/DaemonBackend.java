package io.gfxstats.daemon;

import io.gfxstats.buffer.BufferSnapshot;
import io.gfxstats.buffer.ClientHealthGroup;
import io.gfxstats.buffer.FrameTimelineGroup;
import io.gfxstats.daemon.config.Setting;
import io.gfxstats.daemon.dump.DayFileCache;
import io.gfxstats.daemon.dump.DumpAssembler;
import io.gfxstats.daemon.dump.DumpService;
import io.gfxstats.daemon.dump.LiveGroup;
import io.gfxstats.daemon.harvest.CounterDeltas;
import io.gfxstats.daemon.registry.LiveBuffer;
import io.gfxstats.daemon.rpc.PeerIdentity;
import io.gfxstats.daemon.rpc.Problems;
import io.gfxstats.daemon.rpc.Registration;
import io.gfxstats.daemon.rpc.StatsBackend;
import io.gfxstats.daemon.rpc.StatsException;
import io.gfxstats.dump.DumpWriter;
import io.gfxstats.proto.GraphicsStatsProto;
import io.gfxstats.rpc.v1.DumpRequest;
import io.gfxstats.rpc.v1.HealthResponse;
import io.gfxstats.rpc.v1.LiveSnapshot;
import io.gfxstats.rpc.v1.PullRequest;
import io.gfxstats.rpc.v1.PullResponse;
import io.gfxstats.rpc.v1.RegisterRequest;
import io.gfxstats.rpc.v1.ScenesRequest;
import io.gfxstats.rpc.v1.ScenesResponse;
import io.gfxstats.stats.Pipeline;
import io.gfxstats.stats.ProfileData;
import io.gfxstats.store.Days;
import io.gfxstats.store.EntryKey;
import io.gfxstats.timeline.TimelineCounters;
import io.gfxstats.timeline.feed.DisplayFramePublisher;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.IntPredicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The daemon behind the gRPC service. */
final class DaemonBackend implements StatsBackend {
    private static final Logger log = LoggerFactory.getLogger(DaemonBackend.class);
    private static final String VERSION = "0.1.0";

    private final DaemonState state;
    private final Registrar registrar;
    private final DayFileCache cache;
    private final SceneBackend scenes;
    private final Readers readers;

    DaemonBackend(DaemonState state, Registrar registrar, DayFileCache cache, Readers readers) {
        this.state = state;
        this.registrar = registrar;
        this.cache = cache;
        this.scenes = new SceneBackend(state);
        this.readers = readers;
    }

    @Override
    public ScenesResponse scenes(ScenesRequest request) throws StatsException {
        long started = System.nanoTime();
        ScenesResponse response = scenes.scenes(request, readers.visibleToCurrent());
        state.events.served("scenes", System.nanoTime() - started);
        return response;
    }

    @Override
    public LiveSnapshot liveSnapshot(String packageName) {
        return scenes.live(packageName, readers.visibleToCurrent());
    }

    /** Compositor mode: null when the ring could not be created (the feed then answers UNAVAILABLE). */
    private volatile DisplayFramePublisher displayFrames;
    /** Who may feed: root, the daemon's user, compositor.group. */
    private volatile Readers feeders;

    void displayFrames(DisplayFramePublisher publisher, Readers feeders) {
        this.displayFrames = publisher;
        this.feeders = feeders;
    }

    /**
     * The feed decides the compositor and display attribution of every client of this daemon
     * (the ring is read by all of them), so only the session's own user may feed: the daemon's
     * user, root, or a member of compositor.group.
     */
    @Override
    public DisplayFramePublisher displayFramePublisher(PeerIdentity peer)
            throws StatsException {
        Readers who = feeders;
        if (who == null || !who.privileged(peer)) {
            throw StatsException.permissionDenied("uid " + peer.uidText() + " may not feed display frames: only "
                    + "the daemon's user (uid " + Integer.toUnsignedString(who == null ? -1 : who.daemonUid())
                    + "), root or members of compositor.group may");
        }
        DisplayFramePublisher p = displayFrames;
        if (p == null) {
            throw StatsException.unavailable("this daemon has no display-frame ring (see its log); the compositor "
                    + "feed is off", null);
        }
        return p;
    }

    @Override
    public Registration register(PeerIdentity peer, RegisterRequest request) throws StatsException {
        return registrar.register(peer, request);
    }

    @Override
    public void dump(DumpRequest request, OutputStream sink) throws StatsException, IOException {
        long started = System.nanoTime();
        DumpWriter writer = DumpService.writerFor(request);
        List<GraphicsStatsProto> entries = entries(null, request.getPackageName(), readers.visibleToCurrent());
        DumpService.checkFilter(request.getPackageName(), entries);
        writer.write(entries, sink);
        state.events.served("dump", System.nanoTime() - started);
    }

    @Override
    public PullResponse pull(PullRequest request) throws StatsException {
        long started = System.nanoTime();
        long day;
        state.lock.readLock().lock();
        try {
            day = request.getLastFullDay() ? Days.previousDayStart(state.currentDay) : state.currentDay;
        } finally {
            state.lock.readLock().unlock();
        }
        IntPredicate visible = readers.visibleToCurrent();
        PullResponse response = DumpService.pullResponse(day, entries(day, "", visible)).toBuilder()
                .addAllScenes(scenes.entries(day, "", visible)).build();
        state.events.served("pull", System.nanoTime() - started);
        return response;
    }

    @Override
    public HealthResponse health() {
        state.lock.readLock().lock();
        try {
            return HealthResponse.newBuilder()
                    .setVersion(VERSION)
                    .setLiveBuffers(state.registry.size())
                    .setUptimeMillis(state.now() - state.startedAtMillis)
                    .setDataDir(state.config.get(Setting.DATA_DIR).toString())
                    .setBufferDir(state.config.get(Setting.BUFFER_DIR).toString())
                    .setCurrentDayStart(state.currentDay)
                    .setLastSaveMillis(state.lastSaveMillis)
                    .build();
        } finally {
            state.lock.readLock().unlock();
        }
    }

    /**
     * Live data and day files read under one read lock: no save can move frames from a buffer's
     * unsaved part into a file in between, so nothing is counted twice or missed.
     *
     * @param day one UTC day, or null for every retained day
     * @param visible the uids whose entries the caller may see ({@link Readers})
     */
    private List<GraphicsStatsProto> entries(Long day, String packageFilter, IntPredicate visible)
            throws StatsException {
        List<LiveGroup> live;
        SortedMap<EntryKey, GraphicsStatsProto> stored;
        long now;
        state.lock.readLock().lock();
        try {
            now = state.now();
            live = day == null || day == state.currentDay ? liveGroups(visible) : List.of();
            stored = new TreeMap<>(day == null ? cache.readAll() : cache.readDay(day));
            stored.keySet().removeIf(k -> !visible.test(k.uid()));
        } catch (IOException e) {
            throw StatsException.unavailable("cannot read the day files in " + state.config.get(Setting.DATA_DIR) + ": "
                    + Problems.describe(e), e);
        } finally {
            state.lock.readLock().unlock();
        }
        return DumpAssembler.assemble(stored, live, packageFilter, now, DumpService::logProblem);
    }

    private List<LiveGroup> liveGroups(IntPredicate visible) {
        Map<String, Group> groups = new LinkedHashMap<>();
        for (LiveBuffer b : state.registry.all()) {
            if (!visible.test(b.uid())) {
                continue;
            }
            BufferSnapshot snap;
            try {
                snap = b.snapshot();
            } catch (IOException | IllegalStateException e) {
                log.warn("dump: cannot read buffer of {}: {}", b, e.getMessage());
                continue;
            }
            long[] unsaved = CounterDeltas.difference(snap.counters(), b.baseline());
            String key = b.uid() + "\u0000" + b.packageName() + "\u0000" + b.versionCode();
            Group g = groups.computeIfAbsent(key, k -> new Group(b, new ProfileData()));
            g.data.addAll(unsaved);
            long[] unsavedVector = CounterDeltas.difference(snap.vector(), b.baseline());
            g.timeline.addAll(FrameTimelineGroup.fromVector(unsavedVector));
            g.ringDropped += ClientHealthGroup.ringDropped(unsavedVector);
            if (g.data.pipeline() == Pipeline.UNKNOWN) {
                g.data.setPipeline(b.pipeline());
            }
            g.start = Math.min(g.start, b.accountingStartMillis());
        }
        List<LiveGroup> out = new ArrayList<>();
        for (Group g : groups.values()) {
            out.add(new LiveGroup(new EntryKey(state.currentDay, g.first.packageName(), g.first.versionCode(), g.first.uid()),
                    g.first.uid(), g.data, g.start, g.timeline, g.ringDropped));
        }
        return out;
    }

    private static final class Group {
        final LiveBuffer first;
        final ProfileData data;
        final TimelineCounters timeline = new TimelineCounters();
        long ringDropped;
        long start = Long.MAX_VALUE;

        Group(LiveBuffer first, ProfileData data) {
            this.first = first;
            this.data = data;
        }
    }
}
