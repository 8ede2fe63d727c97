package io.gfxstats.live;

import java.util.List;

/**
 * One refresh of {@code gfxstats top}: per package its total row and its scenes' rows, in the
 * chosen order.
 *
 * @param intervalSeconds the last interval, which FPS covers; 0 before a second snapshot
 * @param seconds         the wall time the counts cover: the interval, or since start when
 *                        cumulative; 0 before a second snapshot
 */
public record TopFrame(long wallMillis, double intervalSeconds, double seconds, boolean cumulative, TopSort sort,
                       List<Package> packages) {
    public TopFrame {
        packages = List.copyOf(packages);
    }

    public record Package(TopRow total, List<TopRow> scenes) {
        public Package {
            scenes = List.copyOf(scenes);
        }
    }
}
