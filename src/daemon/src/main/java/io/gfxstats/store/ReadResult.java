package io.gfxstats.store;

import io.gfxstats.proto.GraphicsStatsProto;
import java.util.Optional;

/**
 * Outcome of {@link DayStore#read}: the stored proto, nothing, or a file that was unusable and
 * has been moved to quarantine (which counts as nothing stored). {@link #stamp()} is what to pass
 * to {@link DayStore#write} after merging.
 */
public sealed interface ReadResult permits ReadResult.Found, ReadResult.Missing, ReadResult.Quarantined {
    EntryKey key();

    /** The stamp of the file that was read, {@link FileStamp#ABSENT} when there is none. */
    FileStamp stamp();

    default Optional<GraphicsStatsProto> proto() {
        return Optional.empty();
    }

    default Optional<QuarantineEvent> quarantine() {
        return Optional.empty();
    }

    record Found(EntryKey key, GraphicsStatsProto stored, FileStamp stamp) implements ReadResult {
        @Override
        public Optional<GraphicsStatsProto> proto() {
            return Optional.of(stored);
        }
    }

    record Missing(EntryKey key) implements ReadResult {
        @Override
        public FileStamp stamp() {
            return FileStamp.ABSENT;
        }
    }

    record Quarantined(EntryKey key, QuarantineEvent event) implements ReadResult {
        @Override
        public FileStamp stamp() {
            return FileStamp.ABSENT;
        }

        @Override
        public Optional<QuarantineEvent> quarantine() {
            return Optional.of(event);
        }
    }
}
