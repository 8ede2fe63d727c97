package io.gfxstats.store;

import java.nio.file.Path;

/**
 * Told around every read of a day file (the bytes and their parse, the part whose memory grows
 * with the file), so that a crash-loop guard can name the files being read when the JVM dies.
 */
public interface ReadWatch {
    ReadWatch NONE = new ReadWatch() {
        @Override
        public void reading(Path file) {
        }

        @Override
        public void done(Path file) {
        }
    };

    void reading(Path file);

    void done(Path file);
}
