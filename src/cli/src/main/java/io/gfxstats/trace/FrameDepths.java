package io.gfxstats.trace;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * The display depth of frame rows (spec 3.3 rule 9; the column of 3.6): per (process, type), in row order, a row takes the
 * first level whose last row ended before it starts, else a new level, so that overlapping frames
 * are drawn on separate lines. Flag-2 (invalid) rows are skipped and keep depth 0.
 */
final class FrameDepths {
    private FrameDepths() {
    }

    static void assign(FrameTable t) {
        // Per (ipid, type): the end of the last row on each level.
        Map<Long, long[]> ends = new HashMap<>();
        Map<Long, Integer> counts = new HashMap<>();
        for (int r = 0; r < t.size(); r++) {
            if (t.flag(r) == FrameTable.FLAG_INVALID) {
                continue;
            }
            long key = ((long) t.ipid(r) << 8) | t.type(r);
            long end = t.ts(r) + t.dur(r);
            long[] v = ends.get(key);
            if (v == null) {
                v = new long[4];
                v[0] = end;
                ends.put(key, v);
                counts.put(key, 1);
                t.setDepth(r, 0);
                continue;
            }
            int n = counts.get(key);
            int d = 0;
            for (; d < n; d++) {
                if (Long.compareUnsigned(t.ts(r), v[d]) > 0) {
                    t.setDepth(r, d);
                    v[d] = end;
                    break;
                }
            }
            if (d == n) {
                if (n == v.length) {
                    v = Arrays.copyOf(v, n * 2);
                    ends.put(key, v);
                }
                t.setDepth(r, d);
                v[n] = end;
                counts.put(key, n + 1);
            }
        }
    }
}
