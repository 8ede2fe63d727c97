package io.gfxstats.live;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The view model of {@code gfxstats top}: fed one snapshot per refresh, it gives the rows over the
 * last interval or, in cumulative mode, since the first snapshot. Not thread-safe.
 */
public final class TopModel {
    private LiveSnapshot first;
    private LiveSnapshot previous;
    private LiveSnapshot latest;
    private boolean cumulative;
    private TopSort sort = TopSort.NAME;

    public TopModel(TopSort sort, boolean cumulative) {
        this.sort = sort;
        this.cumulative = cumulative;
    }

    public void accept(LiveSnapshot snapshot) {
        if (first == null) {
            first = snapshot;
        }
        previous = latest;
        latest = snapshot;
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

    /** The rows now. Before a second snapshot every row shows the interval as not yet known. */
    public TopFrame frame() {
        if (latest == null) {
            throw new IllegalStateException("no snapshot yet");
        }
        LiveSnapshot base = cumulative ? first : previous;
        List<LiveScene> deltas;
        double seconds;
        if (base == null || base == latest) {
            deltas = LiveDelta.between(latest, latest);
            seconds = 0;
        } else {
            deltas = LiveDelta.between(base, latest);
            seconds = (latest.monotonicNanos() - base.monotonicNanos()) / 1e9;
        }
        Map<String, LiveScene> totals = new LinkedHashMap<>();
        Map<String, List<TopRow>> scenes = new LinkedHashMap<>();
        for (LiveScene d : deltas) {
            String pkg = d.packageName() + "\u0000" + d.versionCode();
            totals.merge(pkg, d.withScene(""), LiveScene::plus);
            scenes.computeIfAbsent(pkg, k -> new ArrayList<>()).add(TopRow.of(d, d.scene(), seconds));
        }
        List<TopFrame.Package> packages = new ArrayList<>();
        for (Map.Entry<String, LiveScene> e : totals.entrySet()) {
            List<TopRow> rows = new ArrayList<>(scenes.get(e.getKey()));
            rows.sort(sort.comparator());
            packages.add(new TopFrame.Package(TopRow.of(e.getValue(), null, seconds), rows));
        }
        packages.sort((a, b) -> sort.comparator().compare(a.total(), b.total()));
        return new TopFrame(latest.wallMillis(), seconds, cumulative, sort, packages);
    }
}
