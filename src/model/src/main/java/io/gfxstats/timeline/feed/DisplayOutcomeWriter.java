package io.gfxstats.timeline.feed;

import static io.gfxstats.timeline.feed.DisplayOutcomeLayout.*;

import io.gfxstats.timeline.DisplayFrame;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;

/**
 * The daemon's side of the display-frame outcome ring ({@link DisplayOutcomeLayout}): publishes
 * classified compositor frames by (output, MSC). A new file replaces any old one atomically (a
 * client still mapping the old one reads nothing new from it and falls back to client-only
 * mode). One writer: calls must be serialised by the caller.
 */
public final class DisplayOutcomeWriter implements AutoCloseable {
    private static final VarHandle LONGS = MethodHandles.byteBufferViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private final Path path;
    private final MappedByteBuffer map;
    private final long[] regionOutput = new long[REGIONS];
    private final long[] regionLastWrite = new long[REGIONS];
    private long published;

    private DisplayOutcomeWriter(Path path, MappedByteBuffer map) {
        this.path = path;
        this.map = map;
        Arrays.fill(regionOutput, NO_OUTPUT);
    }

    /** Creates (or replaces) the ring at {@code path}, readable by everyone who can reach its directory. */
    public static DisplayOutcomeWriter create(Path path) throws IOException {
        Path tmp = path.resolveSibling(path.getFileName() + ".new");
        Files.deleteIfExists(tmp);
        Files.createFile(tmp, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-r--r--")));
        MappedByteBuffer map;
        try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            map = ch.map(FileChannel.MapMode.READ_WRITE, 0, LENGTH);
        }
        map.order(ByteOrder.LITTLE_ENDIAN);
        map.putInt(VERSION_OFFSET, VERSION);
        map.putInt(REGIONS_OFFSET, REGIONS);
        map.putInt(SLOTS_OFFSET, SLOTS);
        map.putInt(ENTRY_LENGTH_OFFSET, ENTRY_LENGTH);
        map.putInt(PID_OFFSET, (int) ProcessHandle.current().pid());
        for (int r = 0; r < REGIONS; r++) {
            map.putLong(REGION_TABLE_OFFSET + r * 8, NO_OUTPUT);
        }
        // The magic last: a reader that sees it sees a complete header.
        LONGS.setRelease(map, MAGIC_OFFSET, MAGIC);
        map.force();
        Files.move(tmp, path, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        return new DisplayOutcomeWriter(path, map);
    }

    public Path path() {
        return path;
    }

    /** Entries published since the ring was created. */
    public long published() {
        return published;
    }

    /** Publishes the classified display frame {@code df} of {@code output} shown at {@code msc}. */
    public void publish(long output, long msc, DisplayFrame df) {
        int region = region(output);
        int at = entryOffset(region, msc);
        long seq = map.getLong(at + SEQUENCE);
        LONGS.setOpaque(map, at + SEQUENCE, seq + 1);
        VarHandle.storeStoreFence();
        map.putLong(at + OUTPUT, output);
        map.putLong(at + MSC, msc);
        map.putLong(at + ACTUAL_PRESENT, df.actualPresent());
        map.putLong(at + REFRESH, df.refreshPeriod());
        map.putLong(at + RENDER, df.renderPeriod());
        map.putInt(at + JANK, df.jank());
        map.put(at + PRESENT, (byte) df.present().ordinal());
        map.put(at + FINISH, (byte) df.finish().ordinal());
        map.put(at + SEVERITY, (byte) df.severity().ordinal());
        map.put(at + PREDICTION, (byte) df.prediction().ordinal());
        map.putLong(at + TOKEN, df.token());
        LONGS.setRelease(map, at + SEQUENCE, seq + 2);
        published++;
        regionLastWrite[region] = published;
        LONGS.setRelease(map, PUBLISHED_OFFSET, published);
    }

    /** The region of {@code output}: its own, a free one, or the one written longest ago. */
    private int region(long output) {
        int oldest = 0;
        for (int r = 0; r < REGIONS; r++) {
            if (regionOutput[r] == output) {
                return r;
            }
            if (regionLastWrite[r] < regionLastWrite[oldest]) {
                oldest = r;
            }
        }
        regionOutput[oldest] = output;
        LONGS.setRelease(map, REGION_TABLE_OFFSET + oldest * 8, output);
        return oldest;
    }

    @Override
    public void close() {
        map.force();
    }
}
