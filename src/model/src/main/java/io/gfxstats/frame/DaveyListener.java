package io.gfxstats.frame;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Told about every frame of 700 ms or more ("Davey" in Android's logs). */
@FunctionalInterface
public interface DaveyListener {
    long DAVEY_THRESHOLD_NANOS = 700_000_000L;

    void onDavey(long totalNanos, FrameInfo frame);

    /** One log line per Davey with all the frame's fields. */
    static DaveyListener logging() {
        Logger log = LoggerFactory.getLogger("io.gfxstats.davey");
        return (total, frame) -> log.info("Davey! duration={}ms; {}", total / 1_000_000L, frame.describe());
    }

    static DaveyListener ignoring() {
        return (total, frame) -> { };
    }
}
