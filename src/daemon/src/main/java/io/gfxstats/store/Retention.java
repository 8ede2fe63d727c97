package io.gfxstats.store;

import java.io.IOException;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deletes day directories beyond the most recent {@code keepDays}. Only real directories with day
 * names count; foreign names, links and the quarantine are never touched; the clock's current day
 * is never deleted, even when directories dated in the future (a clock that went backwards)
 * outnumber it.
 */
final class Retention {
    private static final Logger log = LoggerFactory.getLogger(DayStore.class);

    private final Path root;
    private final Clock clock;

    Retention(Path root, Clock clock) {
        this.root = root;
        this.clock = clock;
    }

    /** The caller holds the store's mutation lock. @return the deleted days, oldest first */
    List<Long> apply(int keepDays) throws IOException {
        if (keepDays < 1) {
            throw new IllegalArgumentException("retention must keep at least 1 day, got " + keepDays);
        }
        try (SecureDirectoryStream<Path> dir = SecureDirs.open(root)) {
            List<Long> days = StoreWalker.realDays(dir);
            days.sort(Collections.reverseOrder());
            long today = Days.today(clock);
            List<Long> deleted = new ArrayList<>();
            for (int i = keepDays; i < days.size(); i++) {
                long day = days.get(i);
                if (day >= today) {
                    log.warn("retention: keeping day {} ({}) although {} newer days exist: it is not in the past "
                            + "(did the clock go backwards?)", day, Days.date(day), i);
                    continue;
                }
                SecureDirs.deleteTree(dir, StoreNames.dayName(day));
                deleted.add(day);
                log.info("retention: deleted day directory {} ({}), keeping the {} most recent days",
                        root.resolve(StoreNames.dayName(day)), Days.date(day), keepDays);
            }
            if (!deleted.isEmpty()) {
                SecureDirs.fsync(dir);
            }
            Collections.sort(deleted);
            return deleted;
        }
    }
}
