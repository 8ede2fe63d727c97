package io.gfxstats.store;

import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Warns about each odd name under the root once, not on every walk; bounded so a flood cannot grow it. */
final class OnceLog {
    private static final Logger log = LoggerFactory.getLogger(DayStore.class);
    private static final int MAX_REPORTED = 10_000;

    private final Set<String> reported = ConcurrentHashMap.newKeySet();

    void report(Path path, String what) {
        String k = path + "\0" + what;
        if (reported.size() < MAX_REPORTED && reported.add(k)) {
            log.warn("{}: {}", path, what);
        }
    }
}
