package io.gfxstats.live;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The view model of {@code gfxstats top}: fed one snapshot per refresh, it gives the rows over the
 * last interval or, in cumulative mode, since the first snapshot. Cumulative totals are the sum of
 * every interval's differences, kept per (package, version, scene), so a scene whose processes
 * ended keeps what it counted while top watched (the feed itself forgets it). A package's ring
 * drops are not an interval's count but the feed's since each process began, in both modes: a loss
 * before top started is still shown. Not thread-safe.
 */
public final class TopModel {
    private LiveSnapshot first;
    private LiveSnapshot previous;
    private LiveSnapshot latest;
    private final Map<LiveScene.Key, LiveScene> totals = new TreeMap<>();
    /** Per package, its ring drops as last seen: a loss stays on screen while top watches. */
    private final Map<LiveSnapshot.PackageKey, Long> ringDropped = new HashMap<>();
    private boolean cumulative;
    private TopSort sort;

    public TopModel(TopSort sort, boolean cumulative) {
        this.sort = sort;
        this.cumulative = cumulative;
    }

    public void accept(LiveSnapshot snapshot) {
        if (first == null) {
            first = snapshot;
            // Counted before top started: not part of "since start".
            for (LiveScene s : snapshot.scenes()) {
                totals.put(s.key(), LiveScene.zero(s.key(), s.stageSums() != null));
            }
        } else {
            for (LiveScene d : LiveDelta.between(latest, snapshot)) {
                totals.merge(d.key(), d, LiveScene::plus);
            }
        }
        previous = latest;
        latest = snapshot;
        // Replaced, not added: the feed's count is already cumulative per live process. A package
        // the feed no longer lists keeps its last count (cumulative mode still shows its row).
        Set<LiveSnapshot.PackageKey> listed = new HashSet<>();
        snapshot.scenes().forEach(s -> listed.add(new LiveSnapshot.PackageKey(s.packageName(), s.versionCode())));
        listed.forEach(k -> ringDropped.put(k, snapshot.ringDropped().getOrDefault(k, 0L)));
    }

    public void toggleCumulative() {
        cumulative = !cumulative;
    }

    public void nextSort() {
        sort = sort.next();
    }

    public boolean cumulative() {
        return cumulative;
    }

    public TopSort sort() {
        return sort;
    }

    /** Whether a frame can be built: at least one snapshot. */
    public boolean ready() {
        return latest != null;
    }

    /** The rows now. Before a second snapshot the interval is not known: no FPS, zero counts. */
    public TopFrame frame() {
        if (latest == null) {
            throw new IllegalStateException("no snapshot yet");
        }
        Map<LiveScene.Key, LiveScene> interval = new HashMap<>();
        double intervalSeconds = 0;
        if (previous != null) {
            for (LiveScene d : LiveDelta.between(previous, latest)) {
                interval.put(d.key(), d);
            }
            intervalSeconds = (latest.monotonicNanos() - previous.monotonicNanos()) / 1e9;
        }
        Set<LiveScene.Key> live = new HashSet<>();
        latest.scenes().forEach(s -> live.add(s.key()));
        List<LiveScene.Key> keys = new ArrayList<>();
        if (cumulative) {
            // A gone key that counted nothing while top watched (a session's first moments before
            // its scenes appeared) would only be noise.
            totals.forEach((k, t) -> {
                if (live.contains(k) || t.frames() > 0) {
                    keys.add(k);
                }
            });
        } else {
            latest.scenes().forEach(s -> keys.add(s.key()));
        }

        Map<String, LiveScene[]> packageSums = new LinkedHashMap<>();
        Map<String, LiveSnapshot.PackageKey> packageKeys = new HashMap<>();
        Map<String, List<TopRow>> scenes = new LinkedHashMap<>();
        Map<String, Boolean> packageLive = new HashMap<>();
        for (LiveScene.Key k : keys) {
            LiveScene last = interval.getOrDefault(k, LiveScene.zero(k, false));
            LiveScene counted = cumulative ? totals.get(k) : last;
            String pkg = k.packageName() + "\u0000" + k.versionCode();
            LiveScene[] sums = packageSums.get(pkg);
            if (sums == null) {
                packageSums.put(pkg, new LiveScene[] {counted.withScene(""), last.withScene("")});
            } else {
                sums[0] = sums[0].plus(counted);
                sums[1] = sums[1].plus(last);
            }
            packageLive.merge(pkg, live.contains(k), Boolean::logicalOr);
            packageKeys.putIfAbsent(pkg, new LiveSnapshot.PackageKey(k.packageName(), k.versionCode()));
            scenes.computeIfAbsent(pkg, x -> new ArrayList<>())
                    .add(TopRow.of(counted, k.scene(), live.contains(k), last, intervalSeconds));
        }
        List<TopFrame.Package> packages = new ArrayList<>();
        for (Map.Entry<String, LiveScene[]> e : packageSums.entrySet()) {
            List<TopRow> rows = new ArrayList<>(scenes.get(e.getKey()));
            rows.sort(sort.comparator());
            LiveScene[] sums = e.getValue();
            packages.add(new TopFrame.Package(TopRow.of(sums[0], null, packageLive.get(e.getKey()), sums[1],
                    intervalSeconds).withRingDropped(ringDropped.getOrDefault(packageKeys.get(e.getKey()), 0L)),
                    rows));
        }
        packages.sort((a, b) -> sort.comparator().compare(a.total(), b.total()));
        double seconds = cumulative ? (latest.monotonicNanos() - first.monotonicNanos()) / 1e9 : intervalSeconds;
        return new TopFrame(latest.wallMillis(), intervalSeconds, seconds, cumulative, sort, packages);
    }
}
