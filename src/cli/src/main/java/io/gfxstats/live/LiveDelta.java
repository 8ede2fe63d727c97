package io.gfxstats.live;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What changed between two snapshots, per (package, version, scene): a key new in the later
 * snapshot counts from zero; a key whose counters went down (its processes ended and their live
 * counters left the feed) counts nothing for that interval and starts over from the later value.
 */
public final class LiveDelta {
    private LiveDelta() {
    }

    public static List<LiveScene> between(LiveSnapshot earlier, LiveSnapshot later) {
        Map<LiveScene.Key, LiveScene> before = new HashMap<>();
        if (earlier != null) {
            for (LiveScene c : earlier.scenes()) {
                before.put(c.key(), c);
            }
        }
        List<LiveScene> out = new ArrayList<>();
        for (LiveScene now : later.scenes()) {
            LiveScene then = before.get(now.key());
            LiveScene d = then == null ? now : now.minus(then);
            out.add(d != null ? d : LiveScene.zero(now.key(), now.stageSums() != null));
        }
        return out;
    }
}
